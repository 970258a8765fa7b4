import type { Diagnostic, RuleSetting, Severity } from "./diagnostic.js";
import type { RuleId } from "./rule-ids.js";
import { clipActual, isRuleOf, reportText, type InputKind, type Report, type Rule, type RuleContexts, type RuleInputs } from "./rule.js";
import type { LineIndex } from "./source.js";

/** A report of a rule, its text resolved from the rule's messages. */
export interface RuleFinding {
  rule: RuleId;
  report: Report & { message: string };
}

/**
 * Runs the rules of one kind on that kind's input, in the order given, and returns what they report, with
 * each report's text resolved from its rule's `meta.messages`. A rule that throws reports an internal error
 * under its own id, which rejects the input (fail closed). `enabled` skips the rules a policy turns off.
 */
export function runRules<K extends Exclude<InputKind, "plan">>(
  rules: readonly Rule[],
  kind: K,
  input: RuleInputs[K],
  enabled: (id: RuleId) => boolean = () => true,
): RuleFinding[] {
  const out: RuleFinding[] = [];
  let full = false;
  for (const rule of rules) {
    if (!isRuleOf(rule, kind) || !rule.check || !enabled(rule.meta.id)) continue;
    const meta = rule.meta;
    // At most MAX_FINDINGS are kept (a return naming 65,000 missing artifacts must not hold them all).
    const report = (r: Report) => {
      if (out.length < MAX_FINDINGS) out.push({ rule: meta.id, report: { ...r, ...reportText(meta, r) } });
      else full = true;
    };
    const context = { report } as RuleContexts[K];
    try {
      rule.check(input, context);
    } catch (err) {
      out.push({
        rule: meta.id,
        report: {
          message: `The ${meta.id} check failed on this input (${String((err as Error)?.message ?? err)}); the input is rejected.`,
          hint: "report this as a bug in plangate, with the input that triggers it",
        },
      });
    }
  }
  if (full) {
    // The note is limit-exceeded's, from the rules given (the catalogue always holds it).
    const limit = rules.find((r) => r.meta.id === "limit-exceeded");
    if (limit) {
      const note: Report = { messageId: "tooManyIssues", data: { max: MAX_FINDINGS } };
      out.push({ rule: limit.meta.id, report: { ...note, ...reportText(limit.meta, note) } });
    }
  }
  return out;
}

/** Most findings one run of rules keeps; past it, limit-exceeded says the rest are not listed. */
export const MAX_FINDINGS = 10_000;

/**
 * Diagnostics from findings: the severity the policy sets (`settingOf`; `off` drops the finding, a notice
 * stays info, `atMost` caps it), the file (the report's own, if it names one), and line and column from the
 * report's offsets (or its one offset, without an end).
 */
export function findingsToDiagnostics(
  findings: readonly RuleFinding[],
  settingOf: (id: RuleId) => RuleSetting,
  file: string | undefined,
  lines?: LineIndex,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const { rule, report: r } of findings) {
    const setting = settingOf(rule);
    if (setting === "off") continue;
    const severity: Severity = r.notice ? "info" : r.atMost && RANK[r.atMost] < RANK[setting] ? r.atMost : setting;
    const d: Diagnostic = { rule, severity, message: r.message };
    const where = r.file ?? file;
    if (where !== undefined) d.file = where;
    if (r.at !== undefined) d.pointer = r.at;
    if (r.step !== undefined) d.step = r.step;
    if (lines && r.offsets) {
      const start = lines.position(r.offsets.start);
      const end = lines.position(r.offsets.end);
      d.line = start.line;
      d.column = start.column;
      d.endLine = end.line;
      d.endColumn = end.column;
    } else if (lines && r.offset !== undefined) {
      const start = lines.position(r.offset);
      d.line = start.line;
      d.column = start.column;
    } else if (r.line !== undefined) {
      d.line = r.line;
      if (r.column !== undefined) d.column = r.column;
    }
    if (r.expected !== undefined) d.expected = r.expected;
    if (r.actual !== undefined) d.actual = clipActual(r.actual);
    if (r.hint !== undefined) d.hint = r.hint;
    if (r.messageId !== undefined) d.messageId = r.messageId;
    out.push(d);
  }
  return out;
}

const RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };
