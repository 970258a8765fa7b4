import pc from "picocolors";
import type { Diagnostic } from "../../core/diagnostic.js";
import { forPlanner } from "../../formatters/feedback.js";
import { resultsJson } from "../../formatters/json.js";
import { formatSarif } from "../../formatters/sarif.js";
import type { CheckResult } from "../../orchestration/common.js";
import { intFlag } from "../setup.js";

export { intFlag };

/** A check's result plus the members it adds to its JSON result (`task`, `delegation`, `return`). */
export interface CheckOutput {
  result: CheckResult;
  extra: Record<string, unknown>;
  /** One line saying what was checked, for text output: `task 58 "Title" (researched, lean4)`. */
  what: string;
}

/** SPEC §5's report, for the orchestration commands: one result per check, then the summary. */
export function checkReportJson(outputs: readonly CheckOutput[]) {
  return resultsJson(outputs.map((o) => ({ file: o.result.file, valid: o.result.valid, extra: o.extra, diagnostics: o.result.diagnostics })));
}

/** Text output in `validate`'s voice: one block per diagnostic, then a verdict line per check. */
export function checkReportText(outputs: readonly CheckOutput[], color: boolean): string {
  const c = pc.createColors(color);
  const lines: string[] = [];
  for (const o of outputs) {
    for (const d of o.result.diagnostics) lines.push(diagnosticText(d, c));
    const errors = o.result.diagnostics.filter((d) => d.severity === "error").length;
    const warnings = o.result.diagnostics.filter((d) => d.severity === "warning").length;
    const w = warnings ? `, ${warnings} warning${warnings === 1 ? "" : "s"}` : "";
    lines.push(
      o.result.valid
        ? `${c.green("✓")} ${c.bold(o.result.file)}: ${o.what}: ok${w}`
        : `${c.red("✗")} ${c.bold(o.result.file)}: ${o.what}: rejected: ${errors} error${errors === 1 ? "" : "s"}${w}`,
    );
  }
  return `${lines.join("\n")}\n`;
}

function diagnosticText(d: Diagnostic, c: ReturnType<typeof pc.createColors>): string {
  const where = d.file ? (d.line !== undefined ? `${d.file}:${d.line}:${d.column}` : d.file) : "plangate";
  const sev = d.severity === "error" ? c.red(c.bold("error")) : d.severity === "warning" ? c.yellow(c.bold("warning")) : c.cyan("info");
  const out = [`${c.bold(where)}: ${sev}: ${d.message} ${c.dim(`[${d.rule}]`)}`];
  if (d.hint) out.push(`  ${c.cyan("= hint:")} ${d.hint}`);
  return out.join("\n");
}

/** The outputs every check command offers. */
export const CHECK_OUTPUTS = ["text", "json", "sarif"] as const;

/** A check report in the format asked for: text, SPEC §5's JSON, SARIF, or (check-return) feedback. */
export function formatCheckOutputs(outputs: readonly CheckOutput[], format: string, color: boolean, cwd: string): string {
  if (format === "json") return `${JSON.stringify(checkReportJson(outputs), null, 2)}\n`;
  if (format === "sarif") return formatSarif(outputs.map((o) => ({ file: o.result.file, diagnostics: o.result.diagnostics })), { cwd });
  if (format === "feedback") return checkReportFeedback(outputs);
  return checkReportText(outputs, color);
}

/**
 * `--output feedback` for a subagent's return: Markdown the orchestrator can hand back to the subagent,
 * what is wrong and how to fix the return, never a policy key or a flag the subagent cannot see.
 */
export function checkReportFeedback(outputs: readonly CheckOutput[]): string {
  const failed = outputs.filter((o) => !o.result.valid);
  if (failed.length === 0) return `# Return check passed\n\n${outputs.map((o) => `- ${o.result.file}: accepted, no changes needed`).join("\n")}\n`;
  const out = ["# Return check failed", "", "Fix every item below and return the complete corrected JSON object.", ""];
  for (const o of failed) {
    out.push(`## ${o.result.file}: rejected`, "");
    for (const d of o.result.diagnostics) {
      if (d.severity === "info") continue;
      const tag = d.severity === "error" ? d.rule : `${d.rule}, ${d.severity}: does not block`;
      out.push(`- ${forPlanner(d.message) || d.message} (${tag})`);
      const fix = d.hint === undefined ? "" : forPlanner(d.hint);
      if (fix) out.push(`  Fix: ${fix}`);
    }
    out.push("");
  }
  return `${out.join("\n").trimEnd()}\n`;
}
