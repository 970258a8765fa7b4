import type { NumberLexemes, ReadIssue, ReadRuleId, SourceDocument, ValueLocation } from "../core/document.js";
import type { MessageData } from "../core/rule.js";
import { NO_LEXEMES } from "../core/document.js";
import { DEFAULT_MAX_VALUES } from "../core/policy.js";
import { escapeToken, getAt, type Pointer, parsePointer } from "../core/pointer.js";
import { LineIndex } from "../core/source.js";
import { INVISIBLE, INVISIBLE_BEYOND_LATIN1 } from "../core/lookalike.js";
import { addIssue } from "./unsafe.js";

export interface JsonParseOptions {
  /** Deepest nesting of arrays and objects read; deeper gives `limit-exceeded`. Default 1000. */
  maxDepth?: number;
  /** false forces the full reader; tests use it to check the fast path against it. */
  fast?: boolean;
  /** Longest string value or key; longer gives `limit-exceeded`. Default 1 MiB. */
  maxStringLength?: number;
  /** Most values (containers and scalars) read; more gives `limit-exceeded` and no value. Default DEFAULT_MAX_VALUES (250,000). */
  maxValues?: number;
}

/**
 * Reads a strict RFC 8259 JSON text (what Python's json.load accepts, minus NaN and Infinity).
 * Never throws: faults are issues. A parse error or exceeded limit leaves value undefined.
 */
export function parseJson(input: string, options: JsonParseOptions = {}): SourceDocument {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const maxDepth = options.maxDepth ?? 1000;
  const maxString = options.maxStringLength ?? 1024 * 1024;
  const maxValues = options.maxValues ?? DEFAULT_MAX_VALUES;
  const lines = new LineIndex(text);
  let value: unknown;
  let ok = true;
  let issues: ReadIssue[] = [];
  let numbers: NumberLexemes = NO_LEXEMES;
  const plain = options.fast === false ? undefined : fastRead(text, maxDepth, maxString, maxValues);
  if (plain !== undefined) value = plain.value;
  else {
    const r = new Reader(text, maxDepth, lines, maxString, maxValues);
    try {
      value = r.read();
      issues = r.issues.sort((a, b) => a.start - b.start);
      if (r.lexemes !== undefined) numbers = r.lexemes;
    } catch (e) {
      ok = false;
      value = undefined;
      const reason = e instanceof Error ? e.message : String(e);
      issues = [e instanceof Stop ? e.issue : { rule: "parse-error", messageId: "jsonUnreadable", data: { reason }, start: 0, end: 0 }];
    }
  }
  let locator: Locator | undefined;
  return {
    syntax: "json",
    text,
    lines,
    value,
    issues,
    numbers,
    locate(pointer: Pointer): ValueLocation | undefined {
      // The value decides which pointers exist (and that the last of duplicate members counts).
      if (!ok || getAt(value, pointer) === undefined) return undefined;
      locator ??= new Locator(text);
      try {
        return locator.locate(pointer);
      } catch {
        return undefined; // only on exhausted memory: a location is an extra, not worth a crash
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------
// Fast path. Native JSON.parse is as strict as the reader below and about three times faster, so a clean
// document is parsed by it, plus cheap checks for what it cannot see: depth, number lexemes, unsafe keys and
// strings, and duplicates (keys counted in the text vs. keys in the value). Anything unusual goes to the full
// reader, which is the reference and produces every issue.

const SUSPECT_KEY = /"(?:__proto__|constructor|prototype)"/;
// Every number whose lexeme String(value) does not give back holds one of: a fraction ending in 0, an exponent,
// or 16+ digits. Other text matches too (it is checked). One pattern starting with \d, and an unrolled
// repeat ([\d.]{16} is many times slower in V8), keep this a fast native scan.
const LEXEME_HINT = new RegExp(String.raw`\d(?:\.\d*0(?!\d)|[eE][+-]?\d|` + "[\\d.]".repeat(16) + ")", "g");

function fastRead(t: string, maxDepth: number, maxString: number, maxValues: number): { value: unknown } | undefined {
  // On one-byte strings the character-class tests return at once.
  if (SUSPECT_KEY.test(t) || INVISIBLE_BEYOND_LATIN1.test(t) || t.includes("\u00ad") || !isWellFormed(t)) return undefined;
  const keys = keysInText(t);
  // Every key has a value: past the limit, the reader stops at it without JSON.parse building them all.
  if (keys < 0 || keys >= maxValues || !fewValues(t, maxValues)) return undefined;
  // JSON.parse holds every open container until the text ends: 8 MiB of "[" took 400 MB before it failed.
  // A long text is checked for nesting first; the reader stops at the limit.
  if (t.length > DEPTH_SCAN_FROM && !fewOpenings(t, SAFE_OPENINGS) && !nestsWithin(t, maxDepth)) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return undefined;
  }
  return keysIn(value, maxDepth, t.length > maxString ? maxString : Number.POSITIVE_INFINITY, maxValues) === keys ? { value } : undefined;
}

/**
 * Whether the text cannot hold more than `max` values, so that JSON.parse may build them all: a value takes
 * at least one character and all but the first follow a `,` or open a list or an object, so a text of
 * fewer than 2 * max characters holds at most max, and any text at most 1 + its `,`, `[` and `{` (counted
 * with native searches, strings included, stopping past max). A text that may hold more goes to the
 * reader, which stops at the value past the limit: JSON.parse built 5 million empty lists (10 MB) in
 * 480 MB before they were counted.
 */
export function fewValues(t: string, max: number): boolean {
  if (t.length < 2 * max) return true;
  let n = 1;
  for (const c of [",", "[", "{"]) for (let i = t.indexOf(c); i >= 0; i = t.indexOf(c, i + 1)) if (++n > max) return fewValuesOutsideStrings(t, max);
  return true;
}

/**
 * The same count without what lies inside strings (a plan whose arguments hold structured text, JSON
 * lists in strings, has many more commas than values): a string is read as JSON.parse reads it, from a
 * `"` to the next `"` not escaped by a backslash, so up to the first fault both read the same strings,
 * and past it JSON.parse builds nothing more. Counted only once the native count passed `max`.
 */
function fewValuesOutsideStrings(t: string, max: number): boolean {
  let n = 1;
  const len = t.length;
  for (let i = 0; i < len; i++) {
    const c = t.charCodeAt(i);
    if (c === 0x22) {
      // To the closing quote: the next `"` preceded by an even number of backslashes.
      for (;;) {
        const q = t.indexOf('"', i + 1);
        if (q < 0) return true; // an unterminated string: JSON.parse fails there, having built no more
        let b = q - 1;
        while (b > i && t.charCodeAt(b) === 0x5c) b--;
        i = q;
        if ((q - 1 - b) % 2 === 0) break;
      }
    } else if ((c === 0x2c || c === 0x5b || c === 0x7b) && ++n > max) return false;
  }
  return true;
}

/** Texts up to this length go to JSON.parse unscanned: what a too-deep one can cost there is a few MB. */
const DEPTH_SCAN_FROM = 64 * 1024;

/**
 * A text with at most this many `[` and `{` in all (in strings too) cannot nest deeper, which costs
 * JSON.parse some 10 MB at most (measured: 65,536 nested lists or objects): it goes unscanned too, and
 * the value's depth is checked after (keysIn). Counting them with native searches costs a twelfth of the
 * scan on a 10,000-step plan.
 */
const SAFE_OPENINGS = 65_536;

/** Whether the text holds at most `max` opening brackets (counted with native searches, stopping past max). */
export function fewOpenings(t: string, max: number): boolean {
  let n = 0;
  for (let i = t.indexOf("["); i >= 0; i = t.indexOf("[", i + 1)) if (++n > max) return false;
  for (let i = t.indexOf("{"); i >= 0; i = t.indexOf("{", i + 1)) if (++n > max) return false;
  return true;
}

/** Whether no bracket outside a string opens deeper than maxDepth (the brackets need not match). */
export function nestsWithin(t: string, maxDepth: number): boolean {
  let depth = 0;
  const n = t.length;
  for (let i = 0; i < n; i++) {
    const c = t.charCodeAt(i);
    if (c === 34) {
      // Skip the string with native searches: the next quote ends it unless an odd run of backslashes
      // escapes it (the opening quote stops the count); an unclosed string ends the text.
      let j = i;
      for (;;) {
        j = t.indexOf('"', j + 1);
        if (j < 0) return true;
        let k = j - 1;
        while (t.charCodeAt(k) === 92) k--;
        if ((j - 1 - k) % 2 === 0) break;
      }
      i = j;
    } else if (c === 91 || c === 123) {
      if (++depth > maxDepth) return false;
    } else if (c === 93 || c === 125) depth--;
  }
  return true;
}

/**
 * Keys in the text (strings followed by ':'), jumping from quote to quote with native searches; -1 when the
 * full reader is needed: a number whose lexeme matters, or a \u escape that may hide an unsafe char or key.
 */
function keysInText(t: string): number {
  let keys = 0;
  let nextBs = -1;
  let hint = nextHint(t, 0);
  // Each hint costs a regex call; text crowded with them (say "1e+21" repeated) is left to the linear reader.
  let budget = 64 + t.length / 256;
  for (let i = t.indexOf('"'); ; i = t.indexOf('"', i)) {
    // Hint matches between strings are in number tokens: check the whole token.
    const segmentEnd = i < 0 ? t.length : i;
    while (hint < segmentEnd) {
      let s = hint;
      let e = hint;
      while (s > 0 && isNumberChar(t.charCodeAt(s - 1))) s--;
      while (isNumberChar(t.charCodeAt(e))) e++;
      const lexeme = t.slice(s, e);
      if (lexeme !== String(Number(lexeme)) || --budget < 0) return -1;
      hint = nextHint(t, e);
    }
    if (i < 0) return keys;
    let q = t.indexOf('"', i + 1);
    if (q < 0) return -1;
    if (nextBs < i) nextBs = t.indexOf("\\", i) >>> 0; // -1 becomes 2^32-1: none ahead
    let uEscape = false;
    if (nextBs < q) {
      for (q = i + 1; q < t.length; q++) {
        const d = t.charCodeAt(q);
        if (d === 34) break;
        if (d === 92 && t.charCodeAt(++q) === 117) {
          uEscape = true;
          const u = hex4(t, q + 1);
          if ((u >= 0x61c || u === 0xad) && (u >= 0xd800 ? u <= 0xdfff : INVISIBLE.test(String.fromCharCode(u)))) return -1;
        }
      }
    }
    if (hint <= q) {
      if (--budget < 0) return -1;
      hint = nextHint(t, q + 1);
    }
    i = skipWs(t, q + 1);
    if (t.charCodeAt(i) === 58) {
      if (uEscape) return -1; // an escaped key may spell "__proto__"
      keys++;
    }
  }
}

function nextHint(t: string, from: number): number {
  LEXEME_HINT.lastIndex = from;
  return LEXEME_HINT.exec(t)?.index ?? Number.POSITIVE_INFINITY;
}

function isNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46 || c === 101 || c === 69 || c === 43 || c === 45;
}

/** Keys in a parsed value; -1 if it nests deeper than maxDepth, holds more than maxValues values or a number the reader reports. */
function keysIn(root: unknown, maxDepth: number, maxString: number, maxValues: number): number {
  let keys = 0;
  let values = 0;
  const stack: object[] = [];
  const depths: number[] = [];
  const visit = (y: unknown, depth: number): boolean => {
    if (++values > maxValues) return false;
    if (typeof y === "object" && y !== null) {
      stack.push(y);
      depths.push(depth);
      return true;
    }
    if (typeof y === "string") return y.length <= maxString;
    return typeof y !== "number" || plainNumber(y);
  };
  if (!visit(root, 1)) return -1;
  while (stack.length > 0) {
    const x = stack.pop()!;
    const depth = depths.pop()!;
    if (depth > maxDepth) return -1;
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) if (!visit(x[i], depth + 1)) return -1;
    } else {
      // for-in beats Object.values here: no array per object, and JSON.parse objects have no inherited keys.
      for (const k in x) {
        keys++;
        if (k.length > maxString) return -1;
        if (!visit((x as Record<string, unknown>)[k], depth + 1)) return -1;
      }
    }
  }
  return keys;
}

/** Not -0, not beyond ±(2^53-1), not below 1e-6 (String writes those with an exponent). */
function plainNumber(n: number): boolean {
  const a = Math.abs(n);
  return a <= Number.MAX_SAFE_INTEGER && (a >= 1e-6 || (n === 0 && 1 / n > 0));
}

function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return native !== undefined ? native.call(s) : !hasLoneSurrogate(s);
}

// ---------------------------------------------------------------------------------------------------------
// Full reader: one iterative pass (an explicit stack, so any nesting is safe) that builds the value and
// reports every issue. Positions are not recorded: `locate` rebuilds them lazily, as most documents never ask.

type Container = Record<string, unknown> | unknown[];

/** Ends the reader at the first fatal fault; caught in parseJson. */
class Stop {
  constructor(readonly issue: ReadIssue) {}
}

const ESCAPES: Record<number, string> = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };

/**
 * The lexemes of numbers whose text String(value) would not give back, by container and key. An array's are
 * kept by index in an array, and equal lexemes are one string: a Map entry and two strings per number took
 * 80 bytes a number (a MiB of `1.0,` kept 20 MB).
 */
class Lexemes implements NumberLexemes {
  readonly #by = new WeakMap<object, Map<string, string> | (string | undefined)[]>();
  readonly #pool = new Map<string, string>();
  rootLexeme: string | undefined;
  get(container: object, key: string): string | undefined {
    const m = this.#by.get(container);
    if (m === undefined) return undefined;
    if (!Array.isArray(m)) return m.get(key);
    // Only an index is a key of an array's lexemes ("01", "1.0" or "-0" are not).
    return key === String(Number(key)) ? m[Number(key)] : undefined;
  }
  set(container: object, key: string, lexeme: string | undefined): void {
    let m = this.#by.get(container);
    if (lexeme === undefined) {
      if (m !== undefined && !Array.isArray(m)) m.delete(key);
      return;
    }
    let shared = this.#pool.get(lexeme);
    if (shared === undefined) {
      shared = lexeme;
      if (this.#pool.size < 4096) this.#pool.set(lexeme, lexeme);
    }
    if (m === undefined) {
      m = Array.isArray(container) ? [] : new Map();
      this.#by.set(container, m);
    }
    if (Array.isArray(m)) m[Number(key)] = shared;
    else m.set(key, shared);
  }
}

class Reader {
  readonly len: number;
  /** Offset just past the token the last helper read. */
  i = 0;
  issues: ReadIssue[] = [];
  lexemes: Lexemes | undefined;
  /** Lexeme of the number just read, when String(value) would not give it back. */
  lexeme: string | undefined;
  /** The string just read has a char >= U+061C or the soft hyphen U+00AD, so it may hold a surrogate or an invisible char. */
  high = false;
  // Containers enclosing `cur`, each with the key its pending member is read under and its bracket's offset.
  readonly conts: Container[] = [];
  readonly keys: string[] = [];
  readonly opens: number[] = [];
  cur: Container | undefined;
  key = "";
  open = 0;
  #dups: Map<object, { seen: Map<string, number>; at: number }> | undefined;

  constructor(
    readonly t: string,
    readonly maxDepth: number,
    readonly lines: LineIndex,
    readonly maxString: number,
    readonly maxValues: number,
  ) {
    this.len = t.length;
  }

  read(): unknown {
    const t = this.t;
    let i = skipWs(t, 0);
    if (i >= this.len) throw this.stop(0, 0, "jsonEmpty");
    let depth = 0;
    let values = 0;
    for (;;) {
      let value: unknown;
      const c = t.charCodeAt(i);
      // Each turn reads one value: a container opening, an empty one or a scalar.
      if (++values > this.maxValues) throw this.stop(i, i + 1, "jsonTooManyValues", { max: this.maxValues }, "limit-exceeded");
      if (c === 123 || c === 91) {
        if (depth >= this.maxDepth) {
          throw this.stop(i, i + 1, "jsonTooDeep", { max: this.maxDepth }, "limit-exceeded");
        }
        const j = skipWs(t, i + 1);
        if (t.charCodeAt(j) === c + 2) {
          value = c === 123 ? {} : [];
          i = j + 1;
        } else {
          if (this.cur !== undefined) {
            this.conts.push(this.cur);
            this.keys.push(this.key);
            this.opens.push(this.open);
          }
          this.open = i;
          depth++;
          this.cur = c === 91 ? [] : {};
          i = c === 91 ? j : this.member(j);
          continue;
        }
      } else if (c === 34) {
        value = this.str(i);
        if (this.high) this.checkString(value as string, i, this.i, false);
        if ((value as string).length > this.maxString) this.tooLong(i, this.i, false);
        i = this.i;
      } else if (c === 45 || (c >= 48 && c <= 57)) {
        value = this.num(i);
        i = this.i;
      } else {
        value = this.word(i);
        i = this.i;
      }
      // Attach the value, then close every container that ends here.
      for (;;) {
        const cur = this.cur;
        if (cur === undefined) {
          if (this.lexeme !== undefined) {
            this.lexemes ??= new Lexemes();
            this.lexemes.rootLexeme = this.lexeme;
          }
          i = skipWs(t, i);
          if (i < this.len) {
            throw this.stop(i, i + 1, "jsonTrailingValue", { found: describe(t, i) });
          }
          return value;
        }
        const isArr = Array.isArray(cur);
        if (this.lexeme !== undefined) {
          this.lexemes ??= new Lexemes();
          this.lexemes.set(cur, isArr ? String(cur.length) : this.key, this.lexeme);
          this.lexeme = undefined;
        }
        if (isArr) cur.push(value);
        else if (this.key === "__proto__") {
          Object.defineProperty(cur, "__proto__", { value, writable: true, enumerable: true, configurable: true });
        } else cur[this.key] = value;
        i = skipWs(t, i);
        const d = t.charCodeAt(i);
        if (d === 44) {
          const j = skipWs(t, i + 1);
          if (t.charCodeAt(j) === (isArr ? 93 : 125)) {
            throw this.stop(i, i + 1, "jsonTrailingComma");
          }
          i = isArr ? j : this.member(j);
          break;
        }
        if (d !== (isArr ? 93 : 125)) throw this.afterValue(i, isArr);
        value = cur;
        i++;
        depth--;
        this.cur = this.conts.pop();
        if (this.cur !== undefined) {
          this.key = this.keys.pop()!;
          this.open = this.opens.pop()!;
        }
      }
    }
  }

  /** Reads `"key":` at j into this.key, checking the key; returns the offset of the member's value. */
  member(j: number): number {
    const t = this.t;
    if (t.charCodeAt(j) !== 34) throw this.badKey(j);
    const key = this.str(j);
    const end = this.i;
    const obj = this.cur as Record<string, unknown>;
    this.key = key;
    if (Object.hasOwn(obj, key)) this.duplicate(obj, key, j, end);
    if (key === "__proto__" || key === "constructor" || key === "prototype") this.note("unsafe-value", j, end, "jsonPrototypeKey", { key });
    if (this.high) this.checkString(key, j, end, true);
    if (key.length > this.maxString) this.tooLong(j, end, true);
    const k = skipWs(t, end);
    if (t.charCodeAt(k) === 58) return skipWs(t, k + 1);
    if (k >= this.len) throw this.incomplete();
    throw this.stop(k, k + 1, "jsonExpectedColon", { found: describe(t, k) });
  }

  /** Reads the string whose quote is at `start`; sets this.i past the closing quote. */
  str(start: number): string {
    const t = this.t;
    let high = false;
    for (let i = start + 1; i < this.len; i++) {
      const c = t.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        this.high = high;
        return t.slice(start + 1, i);
      }
      if (c === 92) return this.escaped(start, i, high);
      if (c < 32) throw this.control(start, i);
      if (c >= 0x61c || c === 0xad) high = true;
    }
    throw this.unterminated(start);
  }

  escaped(start: number, i: number, high: boolean): string {
    const t = this.t;
    let out = "";
    let seg = start + 1;
    while (i < this.len) {
      const c = t.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        this.high = high;
        return out + t.slice(seg, i);
      }
      if (c === 92) {
        out += t.slice(seg, i);
        const e = t.charCodeAt(i + 1);
        const u = e === 117 ? hex4(t, i + 2) : -1;
        if (e === 117 && u < 0) {
          throw this.stop(i, i + 6, "jsonBadUnicodeEscape");
        } else if (e === 117) {
          if (u >= 0x61c || u === 0xad) high = true;
          out += String.fromCharCode(u);
          i += 6;
        } else if (ESCAPES[e] !== undefined) {
          out += ESCAPES[e];
          i += 2;
        } else if (i + 1 >= this.len) throw this.unterminated(start);
        else {
          throw this.stop(i, i + 2, "jsonBadEscape", { escape: t.slice(i, i + 2) });
        }
        seg = i;
      } else if (c < 32) throw this.control(start, i);
      else {
        if (c >= 0x61c || c === 0xad) high = true;
        i++;
      }
    }
    throw this.unterminated(start);
  }

  num(start: number): number {
    const t = this.t;
    let i = start;
    let c = t.charCodeAt(i);
    const neg = c === 45;
    if (neg) c = t.charCodeAt(++i);
    let v = 0;
    if (c === 48) {
      c = t.charCodeAt(++i);
      if (c >= 48 && c <= 57) {
        throw this.stop(start, digitsEnd(t, i), "jsonLeadingZeros");
      }
    } else if (c >= 49 && c <= 57) {
      do {
        v = v * 10 + c - 48;
        c = t.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    } else if (t.startsWith("Infinity", i)) throw this.word(i, start);
    else throw this.stop(start, i + 1, "jsonMinusDigit");
    let int = true;
    if (c === 46) {
      int = false;
      c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw this.stop(i, i + 1, "jsonFractionDigit");
      i = digitsEnd(t, i);
      c = t.charCodeAt(i);
    }
    if (c === 101 || c === 69) {
      int = false;
      c = t.charCodeAt(++i);
      if (c === 43 || c === 45) c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw this.stop(i, i + 1, "jsonExponentDigit");
      i = digitsEnd(t, i);
    }
    this.i = i;
    // Integers of up to 15 digits are exact in the accumulator and print as written (no leading zeros in JSON).
    if (int && i - start < 16) {
      if (neg && v === 0) this.lexeme = "-0";
      return neg ? -v : v;
    }
    const lex = t.slice(start, i);
    const n = Number(lex);
    if (!Number.isFinite(n)) {
      this.note("unsafe-value", start, i, "jsonNumberOverflow", { lexeme: clip(lex), value: String(n) });
    } else if (int && !Number.isSafeInteger(n)) {
      this.note("unsafe-value", start, i, "jsonUnsafeInteger", { lexeme: clip(lex), value: String(n) });
    }
    if (lex !== String(n)) this.lexeme = lex;
    return n;
  }

  /** Reads true, false or null at i; otherwise throws a fault for the bad token starting at `from`. */
  word(i: number, from = i): boolean | null {
    const t = this.t;
    let e = i;
    for (let c = t.charCodeAt(e); (c | 32) >= 97 && (c | 32) <= 122; c = t.charCodeAt(++e));
    const w = t.slice(i, e);
    this.i = e;
    if (from === i && (w === "true" || w === "false" || w === "null")) return w === "null" ? null : w === "true";
    if (w === "") throw this.badValue(i);
    const tok = clip(t.slice(from, e));
    if (w === "NaN" || w === "Infinity") throw this.stop(from, e, "jsonNonFinite", { token: tok });
    const lower = w === "None" ? "null" : w.toLowerCase();
    if (lower === "true" || lower === "false" || lower === "null") {
      throw this.stop(from, e, "jsonLiteralCase", { token: tok, lower });
    }
    throw this.stop(from, e, "jsonBareWord", { token: tok });
  }

  checkString(s: string, start: number, end: number, isKey: boolean): void {
    if (hasLoneSurrogate(s)) {
      this.note("unsafe-value", start, end, isKey ? "jsonKeyLoneSurrogate" : "jsonStringLoneSurrogate");
    }
    if (isKey && INVISIBLE.test(s)) {
      this.note("unsafe-value", start, end, "jsonInvisibleKey", { key: show(s) });
    }
  }

  duplicate(obj: object, key: string, ks: number, ke: number): void {
    this.#dups ??= new Map();
    let scan = this.#dups.get(obj);
    if (scan === undefined) {
      scan = { seen: new Map(), at: this.open + 1 };
      this.#dups.set(obj, scan);
    }
    // Rescans the object's earlier members to find the first key; each member at most once per object.
    const t = this.t;
    while (!scan.seen.has(key) && scan.at < ks) {
      const s = skipWs(t, scan.at);
      const e = skipString(t, s);
      const k = keyOf(t, s, e);
      if (!scan.seen.has(k)) scan.seen.set(k, s);
      scan.at = skipWs(t, skipValue(t, skipWs(t, skipWs(t, e) + 1))) + 1;
    }
    const first = scan.seen.get(key);
    if (first === undefined) this.note("duplicate-key", ks, ke, "jsonDuplicateKey", { key: show(key) });
    else this.note("duplicate-key", ks, ke, "jsonDuplicateKeyFirstAt", { key: show(key), line: this.lines.position(first).line });
    this.lexemes?.set(obj, key, undefined);
  }

  /** Pointer of the value being read (not yet attached to `cur`). */
  pointer(): Pointer {
    let p = "";
    for (let d = 0; d < this.conts.length; d++) p += "/" + escapeToken(tokenIn(this.conts[d]!, this.keys[d]!));
    return this.cur === undefined ? p : p + "/" + escapeToken(tokenIn(this.cur, this.key));
  }

  note(rule: ReadRuleId, start: number, end: number, messageId: string, data?: MessageData): void {
    addIssue(this.issues, data === undefined ? { rule, messageId, start, end, at: this.pointer() } : { rule, messageId, data, start, end, at: this.pointer() });
  }

  tooLong(start: number, end: number, isKey: boolean): void {
    this.note("limit-exceeded", start, end, isKey ? "jsonKeyTooLong" : "jsonStringTooLong", { max: this.maxString });
  }

  stop(start: number, end: number, messageId: string, data?: MessageData, rule: ReadRuleId = "parse-error"): Stop {
    const issue: ReadIssue = { rule, messageId, start, end: Math.min(end, this.len) };
    if (data !== undefined) issue.data = data;
    return new Stop(issue);
  }

  /** The bracket still open, and where: data for the messages that ask to close it. */
  opened(): { open: string; line: number; column: number } {
    const at = this.lines.position(this.open);
    return { open: this.t[this.open]!, line: at.line, column: at.column };
  }

  incomplete(): Stop {
    return this.cur === undefined ? this.stop(this.len, this.len, "jsonIncomplete") : this.stop(this.len, this.len, "jsonIncompleteOpen", this.opened());
  }

  unterminated(start: number): Stop {
    return this.stop(start, this.len, "jsonUnterminated");
  }

  control(start: number, i: number): Stop {
    const c = this.t.charCodeAt(i);
    if (c === 10 || c === 13) {
      return this.stop(start, i, "jsonStringLineBreak");
    }
    return this.stop(i, i + 1, "jsonControlInString", { found: describe(this.t, i) });
  }

  badKey(j: number): Stop {
    const t = this.t;
    const c = t.charCodeAt(j);
    if (j >= this.len) return this.incomplete();
    if (c === 39) return this.stop(j, j + 1, "jsonSingleQuotedKey");
    if ((c | 32) >= 97 && (c | 32) <= 122) {
      let e = j;
      while (/[\w$-]/.test(t[e] ?? "")) e++;
      const w = clip(t.slice(j, e));
      return this.stop(j, e, "jsonUnquotedKey", { word: w });
    }
    return this.stop(j, j + 1, "jsonExpectedKey", { found: describe(t, j) });
  }

  badValue(i: number): Stop {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (i >= this.len) return this.incomplete();
    if (c === 39) return this.stop(i, i + 1, "jsonSingleQuotedString");
    if (c === 47) return this.stop(i, i + 1, "jsonComment");
    if (c === 43) return this.stop(i, i + 1, "jsonPlusSign");
    if (c === 46) return this.stop(i, i + 1, "jsonLeadingDot");
    let p = i - 1;
    while (p >= 0 && " \t\r\n".includes(t[p]!)) p--;
    // A NUL where a value should be: the file is likely UTF-16 or binary.
    const id = (p < 0 ? "jsonExpectedValue" : "jsonExpectedValueAfter") + (c === 0 ? "Binary" : "");
    return this.stop(i, i + 1, id, p < 0 ? { found: describe(t, i) } : { after: t[p]!, found: describe(t, i) });
  }

  afterValue(i: number, isArr: boolean): Stop {
    if (i >= this.len) return this.incomplete();
    const c = this.t.charCodeAt(i);
    const found = describe(this.t, i);
    // A closing bracket of the other kind: the hint names the bracket it should close.
    if (c === 93 || c === 125) return this.stop(i, i + 1, isArr ? "jsonAfterElementCloser" : "jsonAfterMemberCloser", { found, ...this.opened() });
    return this.stop(i, i + 1, isArr ? "jsonAfterElement" : "jsonAfterMember", { found });
  }
}

// ---------------------------------------------------------------------------------------------------------
// Locations, rebuilt on demand from the (already validated) text. Rather than one map of every value (which for
// a 50 MB plan costs seconds and hundreds of MB for one diagnostic), each container on a located path gets a
// member table once, and later calls reuse it.

interface Members {
  starts: number[];
  ends: number[];
  /** For an object: member index by key (the last of duplicates, as in the value) and key spans. */
  keys?: Map<string, number>;
  keyStarts?: number[];
  keyEnds?: number[];
}

/** Containers at least this long get their end remembered when skipped, so deep paths stay linear. */
const REMEMBER = 4096;

class Locator {
  readonly #tables = new Map<number, Members>();
  readonly #ends = new Map<number, number>();

  constructor(readonly t: string) {}

  /** Location of the value at a pointer the value is known to have. */
  locate(pointer: Pointer): ValueLocation | undefined {
    const root = skipWs(this.t, 0);
    let found: ValueLocation = { start: root, end: this.skip(root) };
    for (const token of parsePointer(pointer)) {
      const m = this.members(found.start);
      const n = m.keys !== undefined ? m.keys.get(token) : /^(0|[1-9]\d*)$/.test(token) ? Number(token) : undefined;
      if (n === undefined || n >= m.starts.length) return undefined;
      const [start, end] = [m.starts[n]!, m.ends[n]!];
      found = m.keys === undefined ? { start, end } : { start, end, keyStart: m.keyStarts![n]!, keyEnd: m.keyEnds![n]! };
    }
    return found;
  }

  members(open: number): Members {
    let m = this.#tables.get(open);
    if (m !== undefined) return m;
    const t = this.t;
    const isObject = t.charCodeAt(open) === 123;
    m = isObject ? { starts: [], ends: [], keys: new Map(), keyStarts: [], keyEnds: [] } : { starts: [], ends: [] };
    let j = skipWs(t, open + 1);
    while (j < t.length && t.charCodeAt(j) !== (isObject ? 125 : 93)) {
      let v = j;
      if (m.keys !== undefined) {
        const e = skipString(t, j);
        m.keys.set(keyOf(t, j, e), m.starts.length);
        m.keyStarts!.push(j);
        m.keyEnds!.push(e);
        v = skipWs(t, skipWs(t, e) + 1);
      }
      const end = this.skip(v);
      m.starts.push(v);
      m.ends.push(end);
      j = skipWs(t, end);
      if (t.charCodeAt(j) === 44) j = skipWs(t, j + 1);
    }
    this.#tables.set(open, m);
    return m;
  }

  /** Offset past the value at i. */
  skip(i: number): number {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (c !== 123 && c !== 91) return skipValue(t, i);
    const known = this.#ends.get(i);
    if (known !== undefined) return known;
    const opens: number[] = [];
    for (let j = i; j < t.length; j++) {
      const d = t.charCodeAt(j);
      if (d === 34) j = skipString(t, j) - 1;
      else if (d === 123 || d === 91) {
        const end = j === i ? undefined : this.#ends.get(j);
        if (end !== undefined) j = end - 1;
        else opens.push(j);
      } else if (d === 125 || d === 93) {
        const o = opens.pop()!;
        if (j + 1 - o >= REMEMBER) this.#ends.set(o, j + 1);
        if (opens.length === 0) return j + 1;
      }
    }
    return t.length;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Scanning helpers. The skip* functions assume text the reader has validated, but always advance.

function skipWs(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** Offset past the string whose quote is at i. */
function skipString(t: string, i: number): number {
  for (i++; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return t.length;
}

/** Offset past the value at i. */
function skipValue(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 34) return skipString(t, i);
  if (c !== 123 && c !== 91) {
    let e = i + 1;
    for (let d = t.charCodeAt(e); e < t.length && d !== 44 && d !== 93 && d !== 125 && d > 32; d = t.charCodeAt(++e));
    return e;
  }
  let depth = 0;
  for (; i < t.length; i++) {
    const d = t.charCodeAt(i);
    if (d === 34) i = skipString(t, i) - 1;
    else if (d === 123 || d === 91) depth++;
    else if ((d === 125 || d === 93) && --depth === 0) return i + 1;
  }
  return t.length;
}

function keyOf(t: string, s: number, e: number): string {
  const raw = t.slice(s + 1, e - 1);
  return raw.includes("\\") ? (JSON.parse(t.slice(s, e)) as string) : raw;
}

function tokenIn(c: Container, key: string): string | number {
  return Array.isArray(c) ? c.length : key;
}

function digitsEnd(t: string, i: number): number {
  for (let c = t.charCodeAt(i); c >= 48 && c <= 57; c = t.charCodeAt(++i));
  return i;
}

function hex4(t: string, i: number): number {
  let v = 0;
  for (let k = 0; k < 4; k++) {
    const c = t.charCodeAt(i + k);
    const d = c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

function hasLoneSurrogate(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
      else return true;
    } else if (c >= 0xdc00 && c <= 0xdfff) return true;
  }
  return false;
}

function describe(t: string, i: number): string {
  if (i >= t.length) return "end of input";
  const cp = t.codePointAt(i)!;
  return cp > 32 && cp < 127 ? `'${String.fromCodePoint(cp)}'` : "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
}

function clip(s: string): string {
  return s.length > 40 ? s.slice(0, 37) + "..." : s;
}

/** A key as JSON, with invisible characters escaped so a report shows them. */
function show(key: string): string {
  return clip(JSON.stringify(key).replace(new RegExp(INVISIBLE.source, "gu"), (c) => c.split("").map((u) => "\\u" + u.charCodeAt(0).toString(16).padStart(4, "0")).join("")));
}
