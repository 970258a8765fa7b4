import type { CommandFinding, CommandRule } from "../commands/analyse.js";
import { formatMessage, type MessageData } from "../core/rule.js";
import { commandClauses as disallowedTool, commandData } from "./disallowed-tool/command-messages.js";
import { commandClauses as multipleTools } from "./multiple-tools/command-messages.js";
import { commandClauses as parseError, commandData as parseErrorData } from "./parse-error/command-messages.js";
import { commandClauses as unresolvedArgument } from "./unresolved-argument/command-messages.js";

type Clauses = Readonly<Record<string, { readonly message: string; readonly hint: string }>>;

/**
 * A rule's command clauses as the messages of a plan step's command: `Step {{step}}: the command in
 * "{{argument}}" {clause}.`, with the clause's hint.
 */
export function inStepCommand<T extends Clauses>(clauses: T): { readonly [K in keyof T]: { readonly message: string; readonly hint: string } } {
  const out: Record<string, { message: string; hint: string }> = {};
  for (const [id, c] of Object.entries(clauses)) out[id] = { message: `Step {{step}}: the command in "{{argument}}"{{through}} ${c.message}.`, hint: c.hint };
  return out as { [K in keyof T]: { message: string; hint: string } };
}

const CLAUSES: Readonly<Record<CommandRule, Clauses>> = {
  "disallowed-tool": disallowedTool,
  "multiple-tools": multipleTools,
  "parse-error": parseError,
  "unresolved-argument": unresolvedArgument,
};

/** The data of a finding's message, its parts worded (a wrapper's reason, a shell problem). */
export function findingData(finding: CommandFinding): MessageData {
  if (finding.rule === "disallowed-tool") return commandData(finding);
  if (finding.rule === "parse-error") return parseErrorData(finding);
  return finding.data;
}

/** A finding's clause (no subject, no final period) and hint, worded by the rule that reports it. */
export function commandFindingText(finding: CommandFinding): { message: string; hint: string } {
  const clauses = CLAUSES[finding.rule];
  const clause = Object.hasOwn(clauses, finding.messageId) ? clauses[finding.messageId] : undefined;
  if (clause === undefined) throw new Error(`rule ${finding.rule} has no command message "${finding.messageId}"`);
  const data = findingData(finding);
  return { message: formatMessage(clause.message, data), hint: formatMessage(clause.hint, data) };
}

/** The subject and end of a finding in a host's shell call, which the guard checks when the call is made. */
const IN_HOST_COMMAND = "The {{tool}} command {{clause}}.";

/** A finding in a host tool's shell call (Claude Code's `Bash`) as a sentence: `The Bash command {clause}.`, with the clause's hint. */
export function hostCommandFindingText(tool: string, finding: CommandFinding): { message: string; hint: string } {
  const { message, hint } = commandFindingText(finding);
  return { message: formatMessage(IN_HOST_COMMAND, { tool, clause: message }), hint };
}
