import type { QuotedRuleId } from "../rules/quoted.js";
import type { MessageData } from "../core/rule.js";
import { pythonChecksum } from "../core/canonical/python-json.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { isoNaiveMicros } from "../core/time.js";
import { detectDialect } from "../dialects/detect.js";
import { isObject } from "../core/type-name.js";
import { decodeText } from "../syntax/decode.js";
import { parseJson } from "../syntax/json.js";
import { ruleDiagnostic, ruleText } from "../rules/read-text.js";

/** The outcome of seal or migrate: the new text, or diagnostics saying why not. */
export type EditResult = { ok: true; text: string; checksum: string } | { ok: false; diagnostics: Diagnostic[] };

/** Why the file cannot be sealed or migrated: one of a rule's messages, with its data, at a place in the file if it has one. */
function fail(rule: QuotedRuleId, messageId: string, data?: MessageData, at?: { line: number; column: number }): EditResult {
  const d = ruleDiagnostic(rule, messageId, data);
  if (at !== undefined) {
    d.line = at.line;
    d.column = at.column;
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
    if (dec.issue) return { error: fail(dec.issue.rule, dec.issue.messageId, dec.issue.data) };
    text = dec.text;
  }
  // One byte order mark is kept as written; a second is content other readers choke on (validate refuses it too).
  if (text.charCodeAt(0) === 0xfeff)
    return { error: fail("parse-error", "doubleBomAtMostOne", undefined, { line: 1, column: 1 }) };
  const doc = parseJson(text);
  // Sealing an ambiguous document would certify whichever reading we happened to choose.
  const issue = doc.issues[0];
  if (issue || doc.value === undefined) {
    const error = issue ? fail(issue.rule, issue.messageId, issue.data, doc.lines.position(issue.start)) : fail("parse-error", "unreadable");
    // A fault whose message has no hint gets the one of a file that cannot be read.
    if (!error.ok) for (const d of error.diagnostics) d.hint ??= ruleText("parse-error", "unreadable").hint;
    return { error };
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
    return fail("unknown-format", Array.isArray(root) ? "sealLegacy" : "sealNotEnvelope");
  const numbers = doc.numbers;
  const checksum = pythonChecksum(root.plan, { get: numbers.get.bind(numbers), rootLexeme: numbers.get(root, "plan") });
  const text = doc.text;
  const at = doc.locate("/checksum");
  if (at) {
    return { ok: true, checksum, text: text.slice(0, at.start) + JSON.stringify(checksum) + text.slice(at.end) };
  }
  const planAt = doc.locate("/plan");
  if (!planAt || planAt.keyStart === undefined) return fail("missing-field", "envelopeNoPlan");
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
      isObject(doc.value) ? (detectDialect("json", doc.value) === "scqc-envelope" ? "migrateEnvelope" : "migrateNotLegacyObject") : "migrateNotLegacy",
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
