import type { RuleId } from "../core/rule-ids.js";
import type { Diagnostic, RuleSetting, Severity } from "../core/diagnostic.js";
import type { Pointer } from "../core/pointer.js";
import type { LineIndex } from "../core/source.js";
import { findRule } from "../rules/index.js";

/** What an orchestration check found before the policy's severities are applied. */
export interface Finding {
  rule: RuleId;
  message: string;
  hint?: string;
  pointer?: Pointer;
  /** 0-based offset into the checked text, for line/column. */
  offset?: number;
  endOffset?: number;
  expected?: unknown;
  actual?: unknown;
}

/** The result every orchestration check returns: the diagnostics and whether the input passed. */
export interface CheckResult {
  /** The file checked, as given (or a label such as `delegation`). */
  file: string;
  /** No diagnostic of severity error. */
  valid: boolean;
  diagnostics: Diagnostic[];
}

/** Applies the policy's severities (an explicit `rules:` entry wins, `off` drops the finding) and positions. */
export function toDiagnostics(
  findings: readonly Finding[],
  rules: Readonly<Record<string, RuleSetting>>,
  file: string | undefined,
  lines?: LineIndex,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const setting: RuleSetting = rules[f.rule] ?? findRule(f.rule)?.meta.defaultSeverity ?? "error";
    if (setting === "off") continue;
    const d: Diagnostic = { rule: f.rule, severity: setting as Severity, message: f.message };
    if (file !== undefined) d.file = file;
    if (f.pointer !== undefined) d.pointer = f.pointer;
    if (lines && f.offset !== undefined) {
      const start = lines.position(f.offset);
      d.line = start.line;
      d.column = start.column;
      if (f.endOffset !== undefined) {
        const end = lines.position(f.endOffset);
        d.endLine = end.line;
        d.endColumn = end.column;
      }
    }
    if (f.expected !== undefined) d.expected = f.expected;
    if (f.actual !== undefined) d.actual = f.actual;
    if (f.hint !== undefined) d.hint = f.hint;
    out.push(d);
  }
  return out;
}

/** True when no diagnostic is an error. */
export function isValid(diagnostics: readonly Diagnostic[]): boolean {
  return !diagnostics.some((d) => d.severity === "error");
}

/** A quoted list for messages: `"a", "b" or "c"`. */
export function quoteList(items: readonly string[], conj = "or"): string {
  const q = items.map((s) => `"${s}"`);
  if (q.length <= 1) return q.join("");
  return `${q.slice(0, -1).join(", ")} ${conj} ${q[q.length - 1]}`;
}
