import { isAbsolute, relative } from "node:path";
import pc from "picocolors";
import type { Diagnostic } from "../core/diagnostic.js";
import type { PlanReport } from "../core/plan-report.js";
import { codeFrame } from "./code-frame.js";
import type { FormatOptions } from "./types.js";

const colors = pc.createColors(true);
const plainColors = pc.createColors(false);

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

/** Human output: one block per diagnostic with a code frame and hint, then a summary line. */
export function formatText(reports: readonly PlanReport[], options: FormatOptions = {}): string {
  const text = textFormatter(options);
  for (const report of reports) text.add(report);
  return text.end();
}

/**
 * The text output a report at a time: each report is formatted when it is added (its source is not
 * kept), and end() returns the whole output, the same as formatText's.
 */
export function textFormatter(options: FormatOptions = {}): { add(report: PlanReport): void; end(last?: Pick<FormatOptions, "policy" | "policies">): string } {
  const c = options.color ? colors : plainColors;
  // Each piece of output, in order; a run note is kept with its own block, which is printed only when one report was added.
  const pieces: { text: string; note?: Diagnostic }[] = [];
  const totals = { files: 0, valid: 0, errors: 0, warnings: 0 };
  return {
    add(report) {
      const name = report.file ?? "<stdin>";
      for (const d of report.diagnostics) pieces.push({ text: formatDiagnostic(report, d, name, c), note: isRunNote(d) ? d : undefined });
      const errors = report.diagnostics.filter((d) => d.severity === "error").length;
      const warnings = report.diagnostics.filter((d) => d.severity === "warning").length;
      const what = [report.dialect ?? "unknown dialect", plural(report.steps, "step")].join(", ");
      if (report.valid) {
        const extra = warnings > 0 ? `, ${plural(warnings, "warning")}` : "";
        pieces.push({ text: `${c.green("✓")} ${c.bold(name)}: valid (${what}${extra})${report.planHash ? ` ${c.dim(report.planHash)}` : ""}` });
      } else {
        pieces.push({ text: `${c.red("✗")} ${c.bold(name)}: rejected (${what}): ${plural(errors, "error")}${warnings ? `, ${plural(warnings, "warning")}` : ""}` });
      }
      pieces.push({ text: "" });
      totals.files++;
      if (report.valid) totals.valid++;
      totals.errors += errors;
      totals.warnings += warnings;
    },
    end(last = {}) {
      const { policy, policies, cwd } = { ...options, ...last };
      const out: string[] = [];
      // A note about the run, not about a plan (no tool registry in force) is printed once, not once a file.
      let runNote: { d: Diagnostic; files: number } | undefined;
      for (const p of pieces) {
        if (totals.files > 1 && p.note) {
          runNote = { d: runNote?.d ?? p.note, files: (runNote?.files ?? 0) + 1 };
          continue;
        }
        out.push(p.text);
      }
      if (runNote) {
        const sev = runNote.d.severity === "error" ? c.red(c.bold("error")) : runNote.d.severity === "warning" ? c.yellow(c.bold("warning")) : c.cyan("info");
        out.push(`${sev}: ${runNote.d.message} ${c.dim(`[${runNote.d.rule}]`)} (${plural(runNote.files, "file")})`);
        if (runNote.d.hint) out.push(`  ${c.cyan("= hint:")} ${runNote.d.hint}`);
        out.push("");
      }
      const s = totals;
      out.push(
        `${plural(s.files, "file")} checked: ${s.valid} valid, ${s.files - s.valid} rejected; ${plural(s.errors, "error")}, ${plural(s.warnings, "warning")}.`,
      );
      const distinct = [...new Set(policies ?? [])];
      const name = (p: string | null) => (p === null ? "none (built-in defaults)" : shownPath(p, cwd));
      if (distinct.length > 1) out.push(`Policies: ${distinct.map(name).join("; ")} (each file's own).`);
      else if (policy !== undefined) out.push(`Policy: ${name(policy)}.`);
      return out.join("\n") + "\n";
    },
  };
}

/** The one diagnostic that is about the run rather than the plan: no tool registry or allow list in force. */
function isRunNote(d: Diagnostic): boolean {
  return d.rule === "unknown-tool" && d.step === undefined && d.severity !== "error";
}

function formatDiagnostic(report: PlanReport, d: Diagnostic, name: string, c: typeof colors): string {
  const where = d.line !== undefined ? `${name}:${d.line}:${d.column}` : name;
  const sev =
    d.severity === "error" ? c.red(c.bold("error")) : d.severity === "warning" ? c.yellow(c.bold("warning")) : c.cyan("info");
  const lines = [`${c.bold(where)}: ${sev}: ${d.message} ${c.dim(`[${d.rule}]`)}`];
  if (report.source && d.line !== undefined && d.column !== undefined) {
    const frame = codeFrame(report.source.lines, d.line, d.column, d.endLine, d.endColumn, {
      gutter: (s) => c.dim(s),
      marker: (s) => (d.severity === "error" ? c.red(s) : d.severity === "warning" ? c.yellow(s) : c.cyan(s)),
    });
    if (frame) lines.push(frame);
  }
  if (d.expected !== undefined || d.actual !== undefined) {
    if (d.expected !== undefined) lines.push(`  ${c.dim("expected:")} ${show(d.expected)}`);
    if (d.actual !== undefined) lines.push(`  ${c.dim("actual:  ")} ${show(d.actual)}`);
  }
  if (d.hint) lines.push(`  ${c.cyan("= hint:")} ${d.hint}`);
  return lines.join("\n") + "\n";
}

/** A path as the user would type it: relative to the working directory when inside it. */
function shownPath(p: string, cwd: string | undefined): string {
  if (cwd === undefined) return p;
  const r = relative(cwd, p);
  return r !== "" && !r.startsWith("..") && !isAbsolute(r) ? r : p;
}

function show(v: unknown): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}
