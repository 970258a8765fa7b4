import type { Diagnostic } from "../core/diagnostic.js";
import type { ReadFact } from "../core/document.js";
import { reportText, type MessageData, type Rule } from "../core/rule.js";
import { QUOTED_RULES, type QuotedRuleId } from "./quoted.js";

const QUOTED: ReadonlyMap<string, Rule> = new Map(QUOTED_RULES.map((r) => [r.meta.id, r]));

/**
 * The words of a read fact, from its rule's messages: for code that quotes what a reader found in a
 * message of its own (a policy file, a hook input, a subagent's return). A reader's syntax messages are
 * terse clauses; a validation report speaks them as sentences.
 */
export function readFactText(fact: ReadFact): { message: string; hint?: string } {
  return ruleText(fact.rule, fact.messageId, fact.data);
}

/** The text and hint of one of a rule's messages, filled with its data. */
export function ruleText(rule: QuotedRuleId, messageId: string, data?: MessageData): { message: string; hint?: string } {
  const found = QUOTED.get(rule);
  if (!found) throw new Error(`no rule ${rule}`);
  return reportText(found.meta, data === undefined ? { messageId } : { messageId, data });
}

/**
 * An error diagnostic of a rule, its text from the rule's messages: for the commands that reject an input
 * before validation runs (a plan file that cannot be read, a file over the size limit).
 */
export function ruleDiagnostic(
  rule: QuotedRuleId,
  messageId: string,
  data: MessageData | undefined,
  extra: Omit<Diagnostic, "rule" | "severity" | "message" | "hint" | "messageId"> = {},
): Diagnostic {
  const text = ruleText(rule, messageId, data);
  const d: Diagnostic = { rule, severity: "error", message: text.message };
  Object.assign(d, extra);
  if (text.hint !== undefined) d.hint = text.hint;
  d.messageId = messageId;
  return d;
}
