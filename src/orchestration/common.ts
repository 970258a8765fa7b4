import type { RuleId } from "../core/rule-ids.js";
import type { Diagnostic, RuleSetting } from "../core/diagnostic.js";
import type { InputKind, RuleInputs } from "../core/rule.js";
import { findingsToDiagnostics, runRules, type RuleFinding } from "../core/run-rules.js";
import type { LineIndex } from "../core/source.js";
import { findRule, RULES } from "../rules/index.js";

export { quoteList } from "../core/quote-list.js";

/** The result every orchestration check returns: the diagnostics and whether the input passed. */
export interface CheckResult {
  /** The file checked, as given (or a label such as `delegation`). */
  file: string;
  /** No diagnostic of severity error. */
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** The setting of each rule: an explicit `rules:` entry wins, else the rule's default. */
export function settingOf(rules: Readonly<Record<string, RuleSetting>>): (id: RuleId) => RuleSetting {
  return (id) => rules[id] ?? findRule(id)?.meta.defaultSeverity ?? "error";
}

/** Runs every rule of a kind that the policy leaves on over its input. */
export function findingsOf<K extends Exclude<InputKind, "plan">>(kind: K, input: RuleInputs[K], rules: Readonly<Record<string, RuleSetting>>): RuleFinding[] {
  const setting = settingOf(rules);
  return runRules(RULES, kind, input, (id) => setting(id) !== "off");
}

/** The diagnostics of findings under the policy's severities, in `file`, with line/column from `lines`. */
export function diagnosticsOf(findings: readonly RuleFinding[], rules: Readonly<Record<string, RuleSetting>>, file: string | undefined, lines?: LineIndex): Diagnostic[] {
  return findingsToDiagnostics(findings, settingOf(rules), file, lines);
}

/** True when no diagnostic is an error. */
export function isValid(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.severity === "error");
}
