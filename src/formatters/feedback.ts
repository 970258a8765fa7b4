import type { Diagnostic } from "../core/diagnostic.js";
import type { PlanReport } from "../engine.js";
import { findRule } from "../rules/index.js";
import type { FormatOptions } from "./types.js";

const MAX_SOURCE_LINES = 3;
const MAX_LINE_WIDTH = 200;

/** Control, bidi and zero-width characters would reach the model unseen (or as terminal escapes): spell them out. */
function clean(text: string): string {
  return text.replace(/[\u0000-\u0008\u000b-\u001f\u007f\u200b-\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g, (c) =>
    `<U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** The offending lines, numbered, in a fence the lines themselves cannot close. */
function sourceLines(report: PlanReport, d: Diagnostic): string[] {
  const src = report.source;
  if (!src || d.line === undefined || d.line > src.lines.lineCount) return [];
  const last = Math.min(d.endLine ?? d.line, d.line + MAX_SOURCE_LINES - 1, src.lines.lineCount);
  const lines: string[] = [];
  for (let n = d.line; n <= last; n++) {
    let text = clean(src.lines.lineText(n).replace(/\t/g, "  "));
    if (text.length > MAX_LINE_WIDTH) {
      // Minified JSON: keep the window around the column, where the fault is.
      const from = n === d.line ? Math.max(0, (d.column ?? 1) - 1 - 40) : 0;
      text = `${from > 0 ? "…" : ""}${text.slice(from, from + MAX_LINE_WIDTH)}${from + MAX_LINE_WIDTH < text.length ? "…" : ""}`;
    }
    lines.push(`${n}: ${text}`);
  }
  if ((d.endLine ?? d.line) > last) lines.push("…");
  let fence = "```";
  while (lines.some((l) => l.includes(fence))) fence += "`";
  return [`   ${fence}${src.syntax}`, ...lines.map((l) => `   ${l}`), `   ${fence}`];
}

function item(report: PlanReport, d: Diagnostic): string[] {
  const fix = d.hint ?? findRule(d.rule)?.meta.docs.fix;
  const tag = d.severity === "error" ? d.rule : `${d.rule}, ${d.severity}: does not block the plan`;
  const out = [`- ${clean(d.message)} (${tag})`];
  if (fix) out.push(`  Fix: ${clean(fix)}`);
  return out.concat(sourceLines(report, d));
}

function stepHeading(report: PlanReport, position: number): string {
  const step = report.plan?.steps[position - 1];
  const field = report.plan?.fields.tool ?? "tool";
  return step?.tool !== undefined ? `### Step ${position} (${field} "${clean(step.tool)}")` : `### Step ${position}`;
}

function fileSection(report: PlanReport, name: string, shown: readonly Diagnostic[]): string[] {
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  const what = `${report.dialect ?? "unknown format"}, ${plural(report.steps, "step")}`;
  const out = [`## ${name}: rejected (${what}), ${plural(errors, "error")}`, ""];
  const whole = shown.filter((d) => d.step === undefined);
  if (whole.length > 0) out.push("### Whole plan", ...whole.flatMap((d) => item(report, d)), "");
  const steps = [...new Set(shown.filter((d) => d.step !== undefined).map((d) => d.step!))].sort((a, b) => a - b);
  for (const s of steps) out.push(stepHeading(report, s), ...shown.filter((d) => d.step === s).flatMap((d) => item(report, d)), "");
  return out;
}

/**
 * `--output feedback`: what a planner LLM needs to repair its plan in a re-plan loop, and nothing else:
 * per step, what is wrong, the smallest fix, and the offending source lines. Plain Markdown, deterministic.
 */
export function formatFeedback(reports: readonly PlanReport[], _options: FormatOptions = {}): string {
  const rejected = reports.filter((r) => !r.valid);
  if (rejected.length === 0) {
    return `# Plan validation passed\n\n${reports.map((r) => `- ${clean(r.file ?? "-")}: valid, no changes needed`).join("\n")}\n`;
  }
  const out = [
    "# Plan validation failed",
    "",
    "Fix every item below and return the complete corrected plan in the same format. Change only what an item asks for; keep every other step, field and value as it is.",
    "",
  ];
  for (const r of reports) {
    const name = clean(r.file ?? "-");
    // "Could not check" notices are for the operator, not something the planner can change.
    const shown = r.diagnostics.filter((d) => d.severity !== "info");
    if (r.valid) {
      out.push(`## ${name}: valid, no changes needed`, "");
      continue;
    }
    out.push(...fileSection(r, name, shown));
  }
  return `${out.join("\n").trimEnd()}\n`;
}
