import { ShapeCache } from "./shape-cache.js";
import { createHash } from "node:crypto";
import { NO_LEXEMES, type NumberLexemes } from "../document.js";
import { sortUtf16 } from "./jcs.js";

/*
 * Reproduces CPython's `json.dumps(value, sort_keys=True)` byte for byte, because scQC plans carry a
 * SHA-256 of exactly those bytes. Python keeps what JavaScript loses when it parses JSON (integers of any
 * size, `1.0` vs `1`), so numbers are printed from their source lexemes where the reader recorded one.
 */

/** Past this depth the value is taken to be circular (a JSON reader caps nesting far below it). */
const MAX_DEPTH = 100_000;

const INTEGER_LEXEME = /^-?\d+$/;

/** True for a plain printable-ASCII string without `"` or `\`: Python prints it unchanged. */
const NEEDS_ESCAPE = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

/** Escapes for code units below 0x80, so the common control characters cost one table lookup. */
const ASCII_ESCAPES: string[] = [];
for (let c = 0; c < 0x80; c++) {
  ASCII_ESCAPES.push(
    c < 0x20 || c === 0x7f ? "\\u" + c.toString(16).padStart(4, "0") : String.fromCharCode(c),
  );
}
ASCII_ESCAPES[0x08] = "\\b";
ASCII_ESCAPES[0x09] = "\\t";
ASCII_ESCAPES[0x0a] = "\\n";
ASCII_ESCAPES[0x0c] = "\\f";
ASCII_ESCAPES[0x0d] = "\\r";
ASCII_ESCAPES[0x22] = '\\"';
ASCII_ESCAPES[0x5c] = "\\\\";

/** Set when pythonString escapes a surrogate: only then can code point order differ from UTF-16 order. */
let sawSurrogate = false;

/**
 * Python's `ensure_ascii` string literal. Escaping UTF-16 code units one by one gives exactly Python's
 * output: an astral character becomes its surrogate pair, and a lone surrogate (which Python keeps as a
 * code point of its own) its single `\udXXX` escape.
 */
export function pythonString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return '"' + s + '"';
  let out = '"';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 0x22 && c !== 0x5c) continue;
    if (i > from) out += s.slice(from, i);
    if (c < 0x80) out += ASCII_ESCAPES[c];
    else {
      if ((c & 0xf800) === 0xd800) sawSurrogate = true;
      out += "\\u" + c.toString(16).padStart(4, "0");
    }
    from = i + 1;
  }
  return out + s.slice(from) + '"';
}

/** Python's `repr(float)`: the shortest round-trip digits, laid out by Python's rules rather than ECMAScript's. */
export function pythonFloatRepr(v: number): string {
  if (Number.isNaN(v)) return "NaN";
  if (v === Infinity) return "Infinity";
  if (v === -Infinity) return "-Infinity";
  if (v === 0) return Object.is(v, -0) ? "-0.0" : "0.0";
  // Integral doubles below 1e16 print positionally in both languages; Python adds ".0".
  if (Number.isInteger(v) && v < 1e16 && v > -1e16) return String(v) + ".0";
  // ECMAScript's String(v) has the same shortest digits as Python's repr; only the layout differs, and it
  // is read off that text (toExponential, which gives the same digits, costs several times more).
  const js = String(v);
  const neg = v < 0;
  const e = js.indexOf("e");
  // ECMAScript writes an exponent below 1e-6 and from 1e21, where Python does too: its exponent has two digits at least.
  if (e >= 0) {
    const power = js.slice(e + 2);
    return js.slice(0, e) + (js.charCodeAt(e + 1) === 0x2d ? "e-" : "e+") + (power.length < 2 ? "0" + power : power);
  }
  const dot = js.indexOf(".");
  const from = neg ? 1 : 0;
  if (dot < 0) {
    // An integer from 1e16 to 1e21: Python writes d.ddde+XX without the trailing zeros.
    let last = js.length;
    while (js.charCodeAt(last - 1) === 0x30) last--;
    const digits = js.slice(from, last);
    const power = js.length - from - 1;
    return (neg ? "-" : "") + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e+" + String(power);
  }
  // Non-integral doubles are below 2^52 < 1e16, so ECMAScript's positional form is Python's unless below
  // 1e-4 ("0.0000..."), which Python writes with an exponent.
  if (!js.startsWith(neg ? "-0.0000" : "0.0000")) return js;
  let first = dot + 1;
  while (js.charCodeAt(first) === 0x30) first++;
  const digits = js.slice(first);
  const power = first - dot;
  return (neg ? "-" : "") + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e-" + (power < 10 ? "0" + power : String(power));
}

/** A number as Python would print the object `json.loads` made of its lexeme (an int or a float). */
export function pythonNumber(v: number, lexeme: string | undefined): string {
  if (lexeme !== undefined) {
    return INTEGER_LEXEME.test(lexeme) ? BigInt(lexeme).toString() : pythonFloatRepr(Number(lexeme));
  }
  // Without a lexeme the source spelled String(v), an int literal exactly when it is positional (< 1e21).
  if (Number.isInteger(v) && v < 1e21 && v > -1e21) return String(v);
  return pythonFloatRepr(v);
}

/** Python sorts str keys by code point; UTF-16 order differs only where surrogates meet U+E000..U+FFFF. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === n) return a.length - b.length;
  const ca = a.charCodeAt(i);
  const cb = b.charCodeAt(i);
  if (ca < 0xd800 && cb < 0xd800) return ca - cb;
  let at = i;
  // A low surrogate completing a pair begun by the shared high surrogate makes the pair the unit compared.
  if (i > 0 && isHigh(a.charCodeAt(i - 1)) && (isLow(ca) || isLow(cb))) at = i - 1;
  return a.codePointAt(at)! - b.codePointAt(at)!;
}

const isHigh = (c: number): boolean => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number): boolean => c >= 0xdc00 && c <= 0xdfff;

interface Frame {
  node: object;
  /** Sorted keys of an object; undefined for an array. */
  keys: string[] | undefined;
  /** What to print before each member's value: separator, key literal, colon. */
  names: string[] | undefined;
  next: number;
}

const pythonShapes = new ShapeCache((keys) => {
  const n = keys.length;
  const sorted = sortUtf16(keys.slice());
  sawSurrogate = false;
  const names: string[] = new Array(n);
  for (let i = 0; i < n; i++) names[i] = (i > 0 ? ", " : "") + pythonString(sorted[i]!) + ": ";
  // Python sorts by code point: UTF-16 order differs only when a key holds a surrogate.
  if (sawSurrogate) {
    sorted.sort(compareCodePoints);
    for (let i = 0; i < n; i++) names[i] = (i > 0 ? ", " : "") + pythonString(sorted[i]!) + ": ";
  }
  return { sorted, names };
});

function objectFrame(node: object): Frame {
  const shape = pythonShapes.shapeOf(node);
  return { node, keys: shape.sorted, names: shape.names, next: 0 };
}

/**
 * CPython's `json.dumps(value, sort_keys=True)` for a value a JSON reader produced, with the number
 * lexemes that reader recorded. Throws a TypeError for values JSON cannot hold (as Python would) and a
 * RangeError for circular values.
 */
export function pythonJsonDumps(value: unknown, numbers: NumberLexemes = NO_LEXEMES): string {
  return writePython(value, numbers);
}

const CHUNK = 1 << 16;

/** pythonJsonDumps, handing the text to `flush` in chunks as it is produced when given one (the rest is returned). */
function writePython(value: unknown, numbers: NumberLexemes, flush?: (chunk: string) => void): string {
  let out = "";
  const stack: Frame[] = [];
  let v = value;
  let lexeme = typeof v === "number" ? numbers.rootLexeme : undefined;
  for (;;) {
    if (flush !== undefined && out.length > CHUNK) {
      flush(out);
      out = "";
    }
    if (typeof v === "string") out += pythonString(v);
    else if (typeof v === "number") out += pythonNumber(v, lexeme);
    else if (v === null) out += "null";
    else if (v === true) out += "true";
    else if (v === false) out += "false";
    else if (typeof v === "object") {
      if (stack.length >= MAX_DEPTH) throw new RangeError(`value nested deeper than ${MAX_DEPTH}; circular?`);
      if (Array.isArray(v)) {
        if (v.length === 0) out += "[]";
        else {
          out += "[";
          stack.push({ node: v, keys: undefined, names: undefined, next: 0 });
        }
      } else {
        const frame = objectFrame(v);
        if (frame.keys!.length === 0) out += "{}";
        else {
          out += "{";
          stack.push(frame);
        }
      }
    } else if (typeof v === "bigint") out += v.toString();
    else throw new TypeError(`Object of type ${typeof v} is not JSON serializable`);

    // Move to the next value to print, closing every container that is done.
    for (;;) {
      const top = stack[stack.length - 1];
      if (top === undefined) return out;
      const { node, keys, names } = top;
      const i = top.next;
      if (keys === undefined) {
        const arr = node as unknown[];
        if (i === arr.length) {
          out += "]";
          stack.pop();
          continue;
        }
        if (i > 0) out += ", ";
        top.next = i + 1;
        v = arr[i];
        lexeme = typeof v === "number" ? numbers.get(arr, String(i)) : undefined;
      } else {
        if (i === keys.length) {
          out += "}";
          stack.pop();
          continue;
        }
        const key = keys[i]!;
        out += names![i];
        top.next = i + 1;
        v = (node as Record<string, unknown>)[key];
        lexeme = typeof v === "number" ? numbers.get(node, key) : undefined;
      }
      break;
    }
  }
}

/**
 * Lowercase hex SHA-256 of the UTF-8 of `pythonJsonDumps(value, numbers)`: the scQC checksum. The text is
 * hashed in chunks as it is produced, as canonicalSha256 does: a large plan's text is never built whole.
 */
export function pythonChecksum(value: unknown, numbers: NumberLexemes = NO_LEXEMES): string {
  const hash = createHash("sha256");
  hash.update(writePython(value, numbers, (chunk) => hash.update(chunk, "utf8")), "utf8");
  return hash.digest("hex");
}
