import type { Diagnostic } from "../core/diagnostic.js";
import type { ToolRegistry } from "../core/tools.js";
import type { PlanReport } from "../core/plan-report.js";
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

/**
 * What only the operator can see or change: the policy and its keys (`tools.allow`,
 * `markdown.requireSeparators`), command-line flags, registry and policy files. The planner can change
 * its plan and nothing else, so feedback never asks it to touch these.
 */
const OPERATOR_WORDS =
  /plangate\.ya?ml|(?:^|[\s(`])--[a-z]|\btools\.(?:txt|json)\b|\bregistry\b|\blisted in\b|\b(?:tools|paths|commands|markdown|plan|limits|yaml|rules|guard|approval|returns|tasks|delegation|host)\.[a-zA-Z]+|\bapprove and guard\b/;

/** What a text must hold to speak to the operator (a `test` as a RegExp's, for forPlanner). */
interface Terms {
  test(text: string): boolean;
}

const ADD = /\badd\b/g;
const STOP = /[.;]/g;
const THERE = /\bthere\b/g;

/**
 * `/\badd\b[^.;]*\bthere\b/.test(text)` ("add … there" within a sentence part) in one pass over the text:
 * the expression scans to the end of the part from every "add" when no "there" follows, which is
 * quadratic in "add add add …". Each part is searched once, from its first "add".
 */
export function addsThere(text: string): boolean {
  ADD.lastIndex = 0;
  for (let m = ADD.exec(text); m !== null; m = ADD.exec(text)) {
    const from = m.index + 3;
    STOP.lastIndex = from;
    const end = STOP.exec(text)?.index ?? text.length;
    // The part after this "add", with the character before it, so that \b reads as in the whole text
    // (the character after the part is a stop or the end: no word character either way).
    const part = text.slice(from - 1, end);
    THERE.lastIndex = 1;
    if (THERE.exec(part) !== null) return true;
    // No "there" in this part: a later "add" of the same part finds none either.
    ADD.lastIndex = end;
  }
  return false;
}

const OPERATOR_TERMS: Terms = { test: (text) => OPERATOR_WORDS.test(text) || addsThere(text) };
/** In a fix, a clause that asks for a policy change ("or allow it in the policy") is the operator's too. */
const POLICY_WORDS = /\bpolic(?:y|ies)\b|\btrusted\b/;
const OPERATOR: Terms = { test: (text) => OPERATOR_TERMS.test(text) || POLICY_WORDS.test(text) };

/** The parts of a sentence the planner can act on: clauses and parentheses that speak to the operator go. */
export function forPlanner(text: string, operator: Terms = OPERATOR): string {
  let t = text;
  // Parentheses first (innermost, a few rounds), then clauses: "do X, or raise limits.maxDepth". A match
  // may begin only where a run of whitespace begins ((?<!\s)): the same matches, but a long run is scanned
  // once instead of once from each of its characters.
  for (let i = 0; i < 3; i++) t = t.replace(/(?<!\s)\s*\([^()]*\)/g, (m) => (operator.test(m) ? "" : m));
  const clauses = t.split(/(;\s+|,\s+or\s+|(?<!\s)\s+or\s+(?=(?:set|raise|pass|add|write tools|choose another --)\b))/);
  const kept: string[] = [];
  for (let i = 0; i < clauses.length; i += 2) {
    const clause = clauses[i]!;
    if (clause.trim() === "" || operator.test(clause)) continue;
    if (kept.length > 0) kept.push(/^;/.test(clauses[i - 1] ?? "") ? "; " : ", or ");
    kept.push(clause);
  }
  return kept.join("").trim();
}

const TOOL_RULES = new Set(["unknown-tool", "disallowed-tool", "tool-arguments", "multiple-tools"]);

function plannerFix(d: Diagnostic, tools: ToolRegistry | undefined): string | undefined {
  const candidates = [d.hint, findRule(d.rule)?.meta.docs.fix].filter((x): x is string => x !== undefined).map((c) => forPlanner(c));
  const fix = candidates.find((c) => c !== "");
  if (TOOL_RULES.has(d.rule) && tools && d.rule !== "multiple-tools") {
    const listed = "use one of the allowed tools listed under \"Allowed tools\" below, with the arguments shown there";
    return fix && /did you mean/.test(fix) ? `${fix} Otherwise ${listed}.` : `${listed[0]!.toUpperCase()}${listed.slice(1)}.`;
  }
  return fix ?? "change this part of the plan so that the problem above goes away";
}

function item(report: PlanReport, d: Diagnostic, tools: ToolRegistry | undefined): string[] {
  const fix = plannerFix(d, tools);
  const tag = d.severity === "error" ? d.rule : `${d.rule}, ${d.severity}: does not block the plan`;
  // A message may say "denied by the policy"; it must not name the policy's keys or files.
  const out = [`- ${clean(forPlanner(d.message, OPERATOR_TERMS) || d.message)} (${tag})`];
  if (fix) out.push(`  Fix: ${clean(fix)}`);
  return out.concat(sourceLines(report, d));
}

const MAX_TOOLS = 60;
const MAX_ARGS = 16;

/** A JSON Schema type, short: `string`, `integer`, `"a" | "b"`, `string[]`, `object`. */
function shortType(schema: unknown): string {
  if (schema === null || typeof schema !== "object") return "any";
  const s = schema as Record<string, unknown>;
  if (Array.isArray(s.enum)) return s.enum.slice(0, 6).map((v) => JSON.stringify(v)).join(" | ") + (s.enum.length > 6 ? " | …" : "");
  if (s.const !== undefined) return JSON.stringify(s.const);
  if (s.type === "array") return `${shortType(s.items)}[]`;
  if (typeof s.type === "string") return s.type;
  if (Array.isArray(s.type)) return s.type.join(" | ");
  return "any";
}

/** One line per allowed tool: its name and argument shape (`name(query: string, limit?: integer)`). */
export function allowedToolLines(tools: ToolRegistry): string[] {
  const out: string[] = [];
  const names = [...tools.names].sort();
  for (const name of names.slice(0, MAX_TOOLS)) {
    const schema = tools.schemas.get(name) as Record<string, unknown> | undefined;
    const props = schema && typeof schema.properties === "object" && schema.properties !== null ? Object.entries(schema.properties as Record<string, unknown>) : undefined;
    if (!props) {
      out.push(`- \`${clean(name)}\``);
      continue;
    }
    const required = new Set(Array.isArray(schema!.required) ? (schema!.required as unknown[]).filter((x): x is string => typeof x === "string") : []);
    const args = props.slice(0, MAX_ARGS).map(([k, v]) => `${clean(k)}${required.has(k) ? "" : "?"}: ${clean(shortType(v))}`);
    if (props.length > MAX_ARGS) args.push("…");
    out.push(`- \`${clean(name)}(${args.join(", ")})\``);
  }
  if (names.length > MAX_TOOLS) out.push(`- … and ${names.length - MAX_TOOLS} more`);
  for (const p of tools.patterns) out.push(`- any tool whose name matches \`${clean(p)}\``);
  return out;
}

function stepHeading(report: PlanReport, position: number): string {
  const step = report.plan?.steps[position - 1];
  const field = report.plan?.fields.tool ?? "tool";
  return step?.tool !== undefined ? `### Step ${position} (${field} "${clean(step.tool)}")` : `### Step ${position}`;
}

function fileSection(report: PlanReport, name: string, shown: readonly Diagnostic[], tools: ToolRegistry | undefined): string[] {
  const errors = report.diagnostics.filter((d) => d.severity === "error").length;
  const what = `${report.dialect ?? "unknown format"}, ${plural(report.steps, "step")}`;
  const out = [`## ${name}: rejected (${what}), ${plural(errors, "error")}`, ""];
  const whole = shown.filter((d) => d.step === undefined);
  if (whole.length > 0) out.push("### Whole plan", ...whole.flatMap((d) => item(report, d, tools)), "");
  const steps = [...new Set(shown.filter((d) => d.step !== undefined).map((d) => d.step!))].sort((a, b) => a - b);
  for (const s of steps) out.push(stepHeading(report, s), ...shown.filter((d) => d.step === s).flatMap((d) => item(report, d, tools)), "");
  return out;
}

/**
 * `--output feedback`: what a planner LLM needs to repair its plan in a re-plan loop, and nothing else:
 * per step, what is wrong, the smallest fix, and the offending source lines; when a tool or its arguments
 * are wrong, the allowed tools with their argument shapes. Never a policy key, a flag or a file the
 * planner cannot see. Plain Markdown, deterministic.
 */
export function formatFeedback(reports: readonly PlanReport[], options: FormatOptions = {}): string {
  const feedback = feedbackFormatter(options);
  for (const r of reports) feedback.add(r);
  return feedback.end();
}

/** Most characters of feedback an agent host is handed at once (about 8,000 tokens). */
export const MAX_HOST_FEEDBACK = 32 * 1024;

/**
 * Feedback cut for an agent host's model, which reads all of it into its context: past `max` characters
 * the text ends at the last whole item (or line) before the cut, and says how much was left out and
 * what to do. A plan of thousands of faulty steps made megabytes of feedback.
 */
export function clipFeedback(text: string, max = MAX_HOST_FEEDBACK): string {
  if (text.length <= max) return text;
  const room = max - 200;
  let cut = text.lastIndexOf("\n### ", room);
  if (cut < room / 2) cut = text.lastIndexOf("\n", room);
  if (cut < 0) cut = room;
  return `${text.slice(0, cut).trimEnd()}\n\n(The feedback stops here: ${text.length - cut} more characters of problems are not shown. Fix the items above, then submit the complete plan again to see the rest.)\n`;
}

/**
 * The feedback a report at a time: each report's section is written when it is added (its source and
 * plan are not kept), and end() returns the whole output, the same as formatFeedback's.
 */
export function feedbackFormatter(options: FormatOptions = {}): { add(report: PlanReport): void; end(): string } {
  const tools = options.tools;
  const files: { name: string; valid: boolean; section?: string[] }[] = [];
  let aboutTools = false;
  return {
    add(r) {
      const name = clean(r.file ?? "-");
      if (r.valid) {
        files.push({ name, valid: true });
        return;
      }
      // "Could not check" notices are for the operator, not something the planner can change.
      const shown = r.diagnostics.filter((d) => d.severity !== "info");
      files.push({ name, valid: false, section: fileSection(r, name, shown, tools) });
      aboutTools ||= r.diagnostics.some((d) => d.severity === "error" && TOOL_RULES.has(d.rule));
    },
    end() {
      if (files.every((f) => f.valid)) {
        return `# Plan validation passed\n\n${files.map((f) => `- ${f.name}: valid, no changes needed`).join("\n")}\n`;
      }
      const out = [
        "# Plan validation failed",
        "",
        "Fix every item below and return the complete corrected plan in the same format. Change only what an item asks for; keep every other step, field and value as it is.",
        "",
      ];
      for (const f of files) {
        if (f.valid) out.push(`## ${f.name}: valid, no changes needed`, "");
        else out.push(...f.section!);
      }
      if (tools && aboutTools) out.push("## Allowed tools", "", ...allowedToolLines(tools), "");
      return `${out.join("\n").trimEnd()}\n`;
    },
  };
}
