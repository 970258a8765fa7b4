import type { RuleId } from "../core/rule-ids.js";
import { pythonChecksum } from "../core/canonical/python-json.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { isoNaiveMicros } from "../core/time.js";
import { detectDialect } from "../dialects/detect.js";
import { isObject } from "../core/type-name.js";
import { decodeText } from "../syntax/decode.js";
import { parseJson } from "../syntax/json.js";
import { readFactText, ruleText } from "../rules/read-text.js";

/** A message and its hint as `fail` takes them. */
const textOf = (t: { message: string; hint?: string }): [string, string | undefined] => [t.message, t.hint];

/** The outcome of seal or migrate: the new text, or diagnostics saying why not. */
export type EditResult = { ok: true; text: string; checksum: string } | { ok: false; diagnostics: Diagnostic[] };

function fail(rule: RuleId, message: string, hint?: string, line?: number, column?: number): EditResult {
  const d: Diagnostic = { rule, severity: "error", message };
  if (hint) d.hint = hint;
  if (line !== undefined) {
    d.line = line;
    d.column = column;
  }
  return { ok: false, diagnostics: [d] };
}

const BOM = "\ufeff";

/** Did the file start with a UTF-8 byte order mark? It is kept: the output changes nothing but the checksum. */
function hasBom(input: string | Uint8Array): boolean {
  return typeof input === "string" ? input.charCodeAt(0) === 0xfeff : input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;
}

function readStrict(input: string | Uint8Array) {
  let text: string;
  if (typeof input === "string") text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  else {
    const dec = decodeText(input);
    if (dec.issue) {
      const { message, hint } = readFactText(dec.issue);
      return { error: fail(dec.issue.rule, message, hint) };
    }
    text = dec.text;
  }
  // One byte order mark is kept as written; a second is content other readers choke on (validate refuses it too).
  if (text.charCodeAt(0) === 0xfeff)
    return { error: fail("parse-error", ...textOf(ruleText("parse-error", "doubleBomAtMostOne")), 1, 1) };
  const doc = parseJson(text);
  // Sealing an ambiguous document would certify whichever reading we happened to choose.
  const issue = doc.issues[0];
  if (issue || doc.value === undefined) {
    const pos = issue ? doc.lines.position(issue.start) : undefined;
    const text = issue ? readFactText(issue) : ruleText("parse-error", "unreadable");
    return {
      error: fail(issue?.rule ?? "parse-error", text.message, text.hint ?? "fix the file first", pos?.line, pos?.column),
    };
  }
  return { doc };
}

/**
 * Recomputes an envelope's checksum after a legitimate edit (scQC's workflow). Only the checksum's
 * value changes: every other byte (a UTF-8 byte order mark, line endings), member and order stays as
 * written. An absent checksum is inserted before "plan".
 */
export function sealEnvelope(input: string | Uint8Array): EditResult {
  const r = sealText(input);
  return r.ok && hasBom(input) ? { ...r, text: BOM + r.text } : r;
}

function sealText(input: string | Uint8Array): EditResult {
  const r = readStrict(input);
  if (r.error) return r.error;
  const doc = r.doc;
  const root = doc.value;
  if (!isObject(root) || detectDialect("json", root) !== "scqc-envelope")
    return fail(
      "unknown-format",
      Array.isArray(root) ? "This is a legacy plan (a bare list): it has no envelope to seal." : "This is not a scQC v1.0 envelope.",
      Array.isArray(root) ? "run `plangate migrate FILE` to wrap it in a sealed v1.0 envelope" : 'seal works on {"version": "1.0", …, "plan": [...]} envelopes',
    );
  const numbers = doc.numbers;
  const checksum = pythonChecksum(root.plan, { get: numbers.get.bind(numbers), rootLexeme: numbers.get(root, "plan") });
  const text = doc.text;
  const at = doc.locate("/checksum");
  if (at) {
    return { ok: true, checksum, text: text.slice(0, at.start) + JSON.stringify(checksum) + text.slice(at.end) };
  }
  const planAt = doc.locate("/plan");
  if (!planAt || planAt.keyStart === undefined) return fail("missing-field", 'The envelope has no "plan".');
  const lineStart = text.lastIndexOf("\n", planAt.keyStart - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart, planAt.keyStart))![0];
  const sameLine = text.slice(lineStart, planAt.keyStart).trim() !== "";
  const insert = sameLine ? `"checksum": ${JSON.stringify(checksum)}, ` : `"checksum": ${JSON.stringify(checksum)},\n${indent}`;
  return { ok: true, checksum, text: text.slice(0, planAt.keyStart) + insert + text.slice(planAt.keyStart) };
}

export interface MigrateOptions {
  now: Date;
  message?: string;
  intent?: string;
}

/**
 * Wraps a legacy list in a v1.0 envelope with created_at and checksum. The steps are kept as written
 * (re-indented by two spaces: JSON strings cannot hold raw newlines, so this never changes a value), and
 * so is a UTF-8 byte order mark.
 */
export function migrateLegacy(input: string | Uint8Array, options: MigrateOptions): EditResult {
  const r = migrateText(input, options);
  return r.ok && hasBom(input) ? { ...r, text: BOM + r.text } : r;
}

function migrateText(input: string | Uint8Array, options: MigrateOptions): EditResult {
  const r = readStrict(input);
  if (r.error) return r.error;
  const doc = r.doc;
  if (!Array.isArray(doc.value) || detectDialect("json", doc.value) !== "scqc-legacy")
    return fail(
      "unknown-format",
      isObject(doc.value) && detectDialect("json", doc.value) === "scqc-envelope"
        ? "This plan is already a v1.0 envelope."
        : "This is not a legacy scQC plan (a JSON array of steps).",
      isObject(doc.value) ? "run `plangate seal FILE` to recompute its checksum" : "migrate takes a JSON array of {\"tool\", …} steps",
    );
  const checksum = pythonChecksum(doc.value, doc.numbers);
  const planText = doc.text.trim().replace(/\r\n?/g, "\n").replace(/\n/g, "\n  ");
  const lines = [
    "{",
    `  "version": "1.0",`,
    `  "created_at": ${JSON.stringify(isoNaiveMicros(options.now))},`,
    `  "message": ${JSON.stringify(options.message ?? "")},`,
    `  "intent": ${JSON.stringify(options.intent ?? "")},`,
    `  "checksum": ${JSON.stringify(checksum)},`,
    `  "plan": ${planText}`,
    "}",
  ];
  return { ok: true, checksum, text: lines.join("\n") + "\n" };
}
