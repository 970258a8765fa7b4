import { spawnSync } from "node:child_process";
import fc from "fast-check";
import { expect, test } from "vitest";
import { pythonJsonDumps } from "../src/core/canonical/python-json.js";
import type { NumberLexemes } from "../src/core/document.js";
import { parseJson } from "../src/syntax/json.js";

/*
 * Differential test against CPython itself: random JSON texts, spelled with every number lexeme and string
 * escape a plan author might use, must come out of pythonJsonDumps exactly as json.dumps(json.loads(text),
 * sort_keys=True) prints them. Python runs once per batch of texts, not once per text.
 */

const PYTHON = "python3";
const hasPython = spawnSync(PYTHON, ["-c", "import json"], { stdio: "ignore" }).status === 0;

const SCRIPT = `
import json, sys
out = []
for text in json.load(sys.stdin):
    try:
        out.append(json.dumps(json.loads(text), sort_keys=True))
    except Exception as e:
        out.append("ERROR " + repr(e))
json.dump(out, sys.stdout)
`;
import { readFactText } from "./read-text.js";

function pythonDumps(texts: string[]): string[] {
  const run = spawnSync(PYTHON, ["-c", SCRIPT], {
    input: JSON.stringify(texts),
    encoding: "utf8",
    env: { ...process.env, PYTHONIOENCODING: "utf-8" },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`python3 failed: ${run.stderr}`);
  return JSON.parse(run.stdout) as string[];
}

/** The project's JSON reader, which records the lexemes pythonJsonDumps needs. */
function readJson(text: string): { value: unknown; numbers: NumberLexemes } {
  const doc = parseJson(text);
  const fatal = doc.issues.find((issue) => issue.rule === "parse-error" || issue.rule === "limit-exceeded");
  if (fatal !== undefined || doc.value === undefined)
    throw new SyntaxError((fatal ? readFactText(fatal).message : "unreadable JSON"));
  return { value: doc.value, numbers: doc.numbers };
}

const hex4 = (c: number, upper: boolean): string => {
  const h = c.toString(16).padStart(4, "0");
  return "\\u" + (upper ? h.toUpperCase() : h);
};

/** Raw text escaped only where JSON requires it; lone surrogates cannot be raw in UTF-8, so they are escaped. */
const rawPiece = fc.string({ unit: "binary", maxLength: 8 }).map((s) => {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) out += s[i]! + s[++i]!;
    else if (c < 0x20 || (c >= 0xd800 && c <= 0xdfff)) out += hex4(c, false);
    else out += c === 0x22 ? '\\"' : c === 0x5c ? "\\\\" : s[i];
  }
  return out;
});
const escapePiece = fc.oneof(
  fc.constantFrom(
    '\\"',
    "\\\\",
    "\\/",
    "\\b",
    "\\f",
    "\\n",
    "\\r",
    "\\t",
    "\u007f",
    "\u2028",
    "\ufeff",
    "\u{1F600}",
  ),
  fc.tuple(fc.integer({ min: 0, max: 0xffff }), fc.boolean()).map(([c, up]) => hex4(c, up)),
  fc.tuple(fc.integer({ min: 0xd800, max: 0xdfff }), fc.boolean()).map(([c, up]) => hex4(c, up)),
  fc.integer({ min: 0x10000, max: 0x10ffff }).map((cp) => {
    const v = cp - 0x10000;
    return hex4(0xd800 + (v >> 10), false) + hex4(0xdc00 + (v & 0x3ff), true);
  }),
  fc.string({ unit: "grapheme-ascii", maxLength: 6 }).filter((s) => !/["\\]/.test(s)),
);
const stringLexeme = fc
  .array(fc.oneof({ weight: 2, arbitrary: rawPiece }, { weight: 3, arbitrary: escapePiece }), {
    maxLength: 6,
  })
  .map((parts) => '"' + parts.join("") + '"');

const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
const floatLexeme = fc.oneof(
  finite.map(String),
  fc.tuple(finite, fc.integer({ min: 0, max: 16 }), fc.boolean()).map(([x, k, up]) => {
    const s = x.toExponential(k);
    return up ? s.toUpperCase() : s;
  }),
  fc
    .tuple(fc.double({ min: -1e17, max: 1e17, noNaN: true }), fc.integer({ min: 1, max: 8 }))
    .map(([x, k]) => x.toFixed(k)),
  fc.integer({ min: -(2 ** 53), max: 2 ** 53 }).map((n) => n + ".0"),
  fc
    .tuple(
      fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
      fc.nat(30),
      fc.integer({ min: -420, max: 420 }),
    )
    .map(([m, frac, e]) => `${m}${frac ? "." + "0".repeat(frac % 5) + frac : ""}e${e < 0 ? e : "+" + e}`),
  fc.constantFrom(
    "-0.0",
    "0.0",
    "-0e0",
    "0E-0",
    "1e5",
    "1E-07",
    "4.50",
    "1e400",
    "-1e400",
    "1e-400",
    "5e-324",
  ),
);
const intLexeme = fc.oneof(
  fc.integer().map(String),
  fc.bigInt({ min: -(10n ** 40n), max: 10n ** 40n }).map(String),
  fc.constantFrom("-0", "0", "9007199254740993", "-9007199254740993", "18446744073709551616"),
);
const ws = fc.constantFrom("", "", " ", "\n", "\t ", "\r\n");

const { text: jsonText } = fc.letrec<{ text: string; array: string; object: string; leaf: string }>(
  (tie) => ({
    text: fc.oneof({ depthSize: "small", withCrossShrink: true }, tie("leaf"), tie("array"), tie("object")),
    leaf: fc.oneof(floatLexeme, intLexeme, stringLexeme, fc.constantFrom("true", "false", "null")),
    array: fc
      .array(fc.tuple(ws, tie("text"), ws), { maxLength: 5 })
      .map((items) => "[" + items.map((t) => t.join("")).join(",") + "]"),
    object: fc
      .uniqueArray(fc.tuple(stringLexeme, ws, tie("text")), {
        maxLength: 5,
        selector: ([k]) => JSON.parse(k) as string,
      })
      .map((members) => "{" + members.map(([k, w, v]) => `${w}${k}${w}:${v}`).join(",") + "}"),
  }),
);

test.skipIf(!hasPython)("pythonJsonDumps matches CPython json.dumps(sort_keys=True)", () => {
  fc.assert(
    fc.property(fc.array(jsonText, { minLength: 50, maxLength: 50 }), (texts) => {
      const expected = pythonDumps(texts);
      texts.forEach((text, i) => {
        const { value, numbers } = readJson(text);
        expect({ text, dumps: pythonJsonDumps(value, numbers) }).toEqual({ text, dumps: expected[i] });
      });
    }),
    // Shrinking would rerun Python per step; the failing text is already in the assertion's diff.
    { numRuns: 10, endOnFailure: true },
  );
});
