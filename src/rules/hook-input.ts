import type { Diagnostic } from "../core/diagnostic.js";
import type { ReadFact } from "../core/document.js";
import { formatMessage } from "../core/rule.js";
import { readFactText } from "./read-text.js";

/** Where in the hook input a reader's fact lies, before the fact's own words (a clause, as the deny reason speaks it). */
const IN_HOOK_INPUT = "the hook input at {{line}}:{{column}}: {{problem}}";

/** A reader's fact about a hook input (unreadable JSON, a duplicate key…) as the refusal of the input, under the fact's rule. */
export function hookInputFactDiagnostic(fact: ReadFact, at: { line: number; column: number }): Diagnostic {
  const message = formatMessage(IN_HOOK_INPUT, { line: at.line, column: at.column, problem: readFactText(fact).message });
  return { rule: fact.rule, severity: "error", message };
}
