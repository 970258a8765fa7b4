import type { NumberLexemes, ReadIssue, ReadRuleId, SourceDocument, ValueLocation } from "../core/document.js";
import { NO_LEXEMES } from "../core/document.js";
import { escapeToken, getAt, type Pointer, parsePointer } from "../core/pointer.js";
import { LineIndex } from "../core/source.js";
import { addIssue, MAX_ISSUES } from "./unsafe.js";

export interface JsonParseOptions {
  /** Deepest nesting of arrays and objects read; deeper gives `limit-exceeded`. Default 1000. */
  maxDepth?: number;
  /** Longest string value or key; longer gives `limit-exceeded`. Default 1 MiB. */
  maxStringLength?: number;
}

type Container = Record<string, unknown> | unknown[];

/** Stops the reader at the first fatal fault; never escapes parseJson. */
class Stop {
  constructor(readonly issue: ReadIssue) {}
}

const INVISIBLE = /[\u061C\u200B-\u200F\u202A-\u202E\u2060\u2066-\u2069\uFEFF]/;
const INVISIBLES = new RegExp(INVISIBLE.source, "g");
const ESCAPES: Record<number, string> = { 34: '"', 92: "\\", 47: "/", 98: "\b", 102: "\f", 110: "\n", 114: "\r", 116: "\t" };

class Lexemes implements NumberLexemes {
  readonly #by = new WeakMap<object, Map<string, string>>();
  rootLexeme: string | undefined;
  get(container: object, key: string): string | undefined {
    return this.#by.get(container)?.get(key);
  }
  set(container: object, key: string, lexeme: string | undefined): void {
    let m = this.#by.get(container);
    if (lexeme === undefined) m?.delete(key);
    else {
      if (m === undefined) this.#by.set(container, (m = new Map()));
      m.set(key, lexeme);
    }
  }
}

/**
 * Strict RFC 8259 reader. One iterative pass builds the value; positions are not recorded here
 * (they are rebuilt lazily by `locate`) because most documents are never asked for them.
 */
class Reader {
  readonly len: number;
  /** Offset just past the token the last helper read. */
  i = 0;
  issues: ReadIssue[] = [];
  lexemes: Lexemes | undefined;
  /** Source lexeme of the number just read, when String(value) would not reproduce it. */
  lexeme: string | undefined;
  /** The string just read holds a char >= U+061C, so it may hold a surrogate or an invisible char. */
  high = false;
  // Open containers outside `cur`, with the key each one's pending member is read under.
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
  ) {
    this.len = t.length;
  }

  read(): unknown {
    const t = this.t;
    let i = skipWs(t, 0);
    if (i >= this.len) throw this.stop(0, 0, "the file is empty: write a JSON plan", "a plan is a JSON object or array");
    let depth = 0;
    for (;;) {
      let value: unknown;
      const c = t.charCodeAt(i);
      if (c === 123 || c === 91) {
        if (depth >= this.maxDepth) {
          throw this.stop(i, i + 1, `nesting is deeper than ${this.maxDepth} levels`, "flatten the plan", "limit-exceeded");
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
          if (c === 91) {
            this.cur = [];
            i = j;
          } else {
            this.cur = {};
            i = this.member(j);
          }
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
      for (;;) {
        const cur = this.cur;
        if (cur === undefined) {
          if (this.lexeme !== undefined) (this.lexemes ??= new Lexemes()).rootLexeme = this.lexeme;
          i = skipWs(t, i);
          if (i < this.len) {
            throw this.stop(i, i + 1, `unexpected ${describe(t, i)} after the JSON value: a JSON document holds exactly one value`, "remove it, or wrap the values in an array");
          }
          return value;
        }
        const isArr = Array.isArray(cur);
        if (this.lexeme !== undefined) {
          (this.lexemes ??= new Lexemes()).set(cur, isArr ? String(cur.length) : this.key, this.lexeme);
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
            throw this.stop(i, i + 1, "trailing comma is not allowed in JSON", "remove the ',' before the closing bracket");
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

  /** Reads `"key" :` at j into this.key, checking the key; returns the offset of the member's value. */
  member(j: number): number {
    const t = this.t;
    if (t.charCodeAt(j) !== 34) throw this.badKey(j);
    const key = this.str(j);
    const end = this.i;
    const obj = this.cur as Record<string, unknown>;
    this.key = key;
    if (Object.hasOwn(obj, key)) this.duplicate(obj, key, j, end);
    if (key === "__proto__" || key === "constructor" || key === "prototype") {
      this.note("unsafe-value", j, end, `key "${key}" can alter object prototypes in JavaScript consumers`, "rename the key");
    }
    if (this.high) this.checkString(key, j, end, true);
    if (key.length > this.maxString) this.tooLong(j, end, true);
    const k = skipWs(t, end);
    if (t.charCodeAt(k) !== 58) {
      if (k >= this.len) throw this.incomplete();
      throw this.stop(k, k + 1, `expected ':' after object key, found ${describe(t, k)}`, "write members as \"key\": value");
    }
    return skipWs(t, k + 1);
  }

  /** Reads the string whose opening quote is at `start`; sets this.i past the closing quote. */
  str(start: number): string {
    const t = this.t;
    const len = this.len;
    let high = false;
    for (let i = start + 1; i < len; i++) {
      const c = t.charCodeAt(i);
      if (c === 34) {
        this.i = i + 1;
        this.high = high;
        return t.slice(start + 1, i);
      }
      if (c === 92) return this.escaped(start, i, high);
      if (c < 32) throw this.control(start, i);
      if (c >= 0x61c) high = true;
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
        if (e === 117) {
          const u = hex4(t, i + 2);
          if (u < 0) throw this.stop(i, Math.min(i + 6, this.len), "invalid \\u escape: it needs exactly four hex digits", "write e.g. \\u00e9");
          if (u >= 0x61c) high = true;
          out += String.fromCharCode(u);
          i += 6;
        } else {
          const s = ESCAPES[e];
          if (s === undefined) {
            if (i + 1 >= this.len) throw this.unterminated(start);
            throw this.stop(i, i + 2, `invalid escape '${t.slice(i, i + 2)}' in string`, 'JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a literal backslash as \\\\');
          }
          out += s;
          i += 2;
        }
        seg = i;
        continue;
      }
      if (c < 32) throw this.control(start, i);
      if (c >= 0x61c) high = true;
      i++;
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
        throw this.stop(start, digitsEnd(t, i), "leading zeros are not allowed in JSON numbers", "write the number without leading zeros, or quote it as a string");
      }
    } else if (c >= 49 && c <= 57) {
      do {
        v = v * 10 + c - 48;
        c = t.charCodeAt(++i);
      } while (c >= 48 && c <= 57);
    } else if (t.startsWith("Infinity", i)) throw this.word(i, start);
    else throw this.stop(start, i + 1, "expected a digit after '-'", "write a number such as -1");
    let int = true;
    if (c === 46) {
      int = false;
      c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw this.stop(i, i + 1, "expected a digit after the decimal point", "write 1.0 or 1, not 1.");
      i = digitsEnd(t, i);
      c = t.charCodeAt(i);
    }
    if (c === 101 || c === 69) {
      int = false;
      c = t.charCodeAt(++i);
      if (c === 43 || c === 45) c = t.charCodeAt(++i);
      if (!(c >= 48 && c <= 57)) throw this.stop(i, i + 1, "expected a digit in the exponent", "write an exponent such as 1e5");
      i = digitsEnd(t, i);
    }
    this.i = i;
    // Short integers are exact in the accumulator and print as written (JSON forbids leading zeros).
    if (int && i - start < 16) {
      if (neg && v === 0) this.lexeme = "-0";
      return neg ? -v : v;
    }
    const lex = t.slice(start, i);
    const n = Number(lex);
    if (!Number.isFinite(n)) {
      this.note("unsafe-value", start, i, `number ${clip(lex)} is too large and reads as ${n}`, "write it as a string, or use a smaller number");
    } else if (int && !Number.isSafeInteger(n)) {
      this.note("unsafe-value", start, i, `integer ${clip(lex)} is outside ±(2^53-1), so JavaScript reads it as ${n}`, "write it as a string");
    }
    if (lex !== String(n)) this.lexeme = lex;
    return n;
  }

  /** Reads true/false/null at i, or throws a fault explaining the bad token starting at `from`. */
  word(i: number, from = i): never | boolean | null {
    const t = this.t;
    let e = i;
    for (let c = t.charCodeAt(e); (c | 32) >= 97 && (c | 32) <= 122; c = t.charCodeAt(++e));
    const w = t.slice(i, e);
    this.i = e;
    if (from === i) {
      if (w === "true") return true;
      if (w === "false") return false;
      if (w === "null") return null;
    }
    if (w === "") throw this.badValue(i);
    const tok = t.slice(from, e);
    if (w === "NaN" || w === "Infinity") throw this.stop(from, e, `${tok} is not valid JSON`, "JSON has no NaN or Infinity: use null or a string");
    const lower = w.toLowerCase();
    if (lower === "true" || lower === "false" || lower === "null" || w === "None") {
      throw this.stop(from, e, `'${tok}' is not a JSON literal: JSON literals are lowercase true, false and null`, `write ${w === "None" ? "null" : lower}`);
    }
    throw this.stop(from, e, `unexpected word '${clip(tok)}': JSON strings must be in double quotes`, `write "${clip(tok)}" if it is text`);
  }

  checkString(s: string, start: number, end: number, isKey: boolean): void {
    if (hasLoneSurrogate(s)) {
      this.note("unsafe-value", start, end, `${isKey ? "key" : "string"} contains a lone UTF-16 surrogate (a \\uD800-style escape without its pair): it cannot be written as UTF-8 and tools disagree on it`, "remove the escape or write a complete surrogate pair");
    }
    if (isKey && INVISIBLE.test(s)) {
      this.note("unsafe-value", start, end, `key ${show(s)} contains an invisible or bidirectional control character: it can make different keys look the same`, "remove the invisible character from the key");
    }
  }

  tooLong(start: number, end: number, isKey: boolean): void {
    this.note("limit-exceeded", start, end, `${isKey ? "key" : "string"} is longer than ${this.maxString} characters`, "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted");
  }

  duplicate(obj: object, key: string, ks: number, ke: number): void {
    this.#dups ??= new Map();
    let scan = this.#dups.get(obj);
    if (scan === undefined) this.#dups.set(obj, (scan = { seen: new Map(), at: this.open + 1 }));
    // Each object's members are rescanned at most once, however many duplicates it has.
    while (!scan.seen.has(key) && scan.at < ks) {
      const s = skipWs(this.t, scan.at);
      const e = skipString(this.t, s);
      const k = keyOf(this.t, s, e);
      if (!scan.seen.has(k)) scan.seen.set(k, s);
      const v = skipWs(this.t, skipWs(this.t, e) + 1);
      scan.at = skipWs(this.t, skipValue(this.t, v)) + 1;
    }
    const first = scan.seen.get(key);
    const where = first === undefined ? "" : ` (first at line ${this.lines.position(first).line})`;
    this.note("duplicate-key", ks, ke, `duplicate key ${show(key)} in one object${where}: JSON and YAML consumers disagree on which wins; keep one`, "remove or rename one of the members");
    this.lexemes?.set(obj, key, undefined);
  }

  pointer(): Pointer {
    let p = "";
    for (let d = 0; d < this.conts.length; d++) p += "/" + escapeToken(tokenIn(this.conts[d]!, this.keys[d]!));
    return this.cur === undefined ? p : p + "/" + escapeToken(tokenIn(this.cur, this.key));
  }

  note(rule: ReadRuleId, start: number, end: number, message: string, hint: string): void {
    if (this.issues.length <= MAX_ISSUES) addIssue(this.issues, { rule, message, start, end, pointer: this.pointer(), hint });
  }

  stop(start: number, end: number, message: string, hint?: string, rule: ReadRuleId = "parse-error"): Stop {
    const issue: ReadIssue = { rule, message, start, end: Math.min(end, this.len) };
    if (hint !== undefined) issue.hint = hint;
    return new Stop(issue);
  }

  incomplete(): Stop {
    const at = this.lines.position(this.open);
    const hint = this.cur === undefined ? "add the missing value" : `close the '${this.t[this.open]}' opened at line ${at.line}, column ${at.column}`;
    return this.stop(this.len, this.len, "unexpected end of input: the document is incomplete", hint);
  }

  unterminated(start: number): Stop {
    return this.stop(start, this.len, "unterminated string: the closing '\"' is missing", "add the closing double quote");
  }

  control(start: number, i: number): Stop {
    const c = this.t.charCodeAt(i);
    if (c === 10 || c === 13) {
      return this.stop(start, i, "unterminated string: a JSON string cannot contain a line break", "close the string with '\"', or write the line break as \\n");
    }
    return this.stop(i, i + 1, `control character ${describe(this.t, i)} inside a string`, "write it as an escape such as \\t or \\u0000");
  }

  badKey(j: number): Stop {
    const c = this.t.charCodeAt(j);
    if (j >= this.len) return this.incomplete();
    if (c === 39) return this.stop(j, j + 1, "object keys must use double quotes, not single quotes", "replace ' with \"");
    if ((c | 32) >= 97 && (c | 32) <= 122) {
      const e = wordEnd(this.t, j);
      return this.stop(j, e, `object keys must be double-quoted strings, found '${clip(this.t.slice(j, e))}'`, `write "${clip(this.t.slice(j, e))}"`);
    }
    return this.stop(j, j + 1, `expected a double-quoted object key, found ${describe(this.t, j)}`, 'write members as "key": value');
  }

  badValue(i: number): Stop {
    const t = this.t;
    const c = t.charCodeAt(i);
    if (i >= this.len) return this.incomplete();
    if (c === 39) return this.stop(i, i + 1, "strings must use double quotes, not single quotes", "replace ' with \"");
    if (c === 47) return this.stop(i, i + 1, "comments are not allowed in JSON", "remove the comment");
    if (c === 43) return this.stop(i, i + 1, "JSON numbers cannot start with '+'", "remove the '+'");
    if (c === 46) return this.stop(i, i + 1, "JSON numbers must start with a digit", "write 0.5, not .5");
    let p = i - 1;
    while (p >= 0 && " \t\r\n".includes(t[p]!)) p--;
    const after = p < 0 ? "" : ` after '${t[p]}'`;
    return this.stop(i, i + 1, `expected a value${after}, found ${describe(t, i)}`, c === 0 ? "the file may be UTF-16 or binary: save it as UTF-8 text" : "a value is an object, array, string, number, true, false or null");
  }

  afterValue(i: number, isArr: boolean): Stop {
    if (i >= this.len) return this.incomplete();
    const t = this.t;
    const c = t.charCodeAt(i);
    const what = isArr ? "expected ',' or ']' after array element" : "expected ',' or '}' after object member";
    let hint = isArr ? "separate elements with ','" : "separate members with ','";
    if (c === 93 || c === 125) {
      const at = this.lines.position(this.open);
      hint = `the '${t[this.open]}' opened at line ${at.line}, column ${at.column} must be closed with '${isArr ? "]" : "}"}'`;
    }
    return this.stop(i, i + 1, `${what}, found ${describe(t, i)}`, hint);
  }
}

/**
 * Reads a JSON text into a SourceDocument. Never throws: faults are reported as issues.
 * `fast: false` forces the full reader (tests compare both paths).
 */
export function parseJson(input: string, options: JsonParseOptions & { fast?: boolean } = {}): SourceDocument {
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  const maxDepth = options.maxDepth ?? 1000;
  const maxString = options.maxStringLength ?? 1024 * 1024;
  let value: unknown;
  let ok = true;
  let issues: ReadIssue[] = [];
  let numbers: NumberLexemes = NO_LEXEMES;
  const lines = new LineIndex(text);
  const plain = options.fast === false ? undefined : fastRead(text, maxDepth, maxString);
  if (plain !== undefined) value = plain.value;
  else {
    const r = new Reader(text, maxDepth, lines, maxString);
    try {
      value = r.read();
      issues = r.issues.sort((a, b) => a.start - b.start);
      if (r.lexemes !== undefined) numbers = r.lexemes;
    } catch (e) {
      ok = false;
      value = undefined;
      const message = `the JSON could not be read (${e instanceof Error ? e.message : String(e)})`;
      issues = [e instanceof Stop ? e.issue : { rule: "parse-error", message, start: 0, end: 0 }];
    }
  }
  let index: Map<Pointer, ValueLocation> | null | undefined;
  return {
    syntax: "json",
    text,
    lines,
    value,
    issues,
    numbers,
    locate(pointer: Pointer): ValueLocation | undefined {
      if (!ok || getAt(value, pointer) === undefined) return undefined;
      // The root needs no index: the engine asks for it for whole-plan notices.
      if (pointer === "") return loc(skipWs(text, 0), skipValue(text, skipWs(text, 0)), -1, -1);
      const sparse = text.length > FULL_INDEX_CHARS;
      if (index === undefined) {
        try {
          index = buildIndex(text, sparse ? SPARSE_ENTRIES : undefined);
        } catch {
          index = null; // e.g. more values than a Map can hold: fall back to walking the text
        }
      }
      if (index === null) return walk(text, skipWs(text, 0), parsePointer(pointer));
      return sparse ? walkFrom(text, index, pointer) : index.get(pointer);
    },
  };
}

/**
 * Above this size a full index (one entry per value, ~10x the text in memory) would let one
 * diagnostic exhaust the heap: large texts index only the first containers' starts and walk from there.
 */
const FULL_INDEX_CHARS = 1024 * 1024;
const SPARSE_ENTRIES = 200_000;

const SUSPECT_KEY = /"(?:__proto__|constructor|prototype)"/;

/**
 * Fast path for the common, clean document: native JSON.parse (strict RFC 8259, like the reader) builds
 * the value, and a light scan checks what JSON.parse cannot: depth, number lexemes, suspicious keys and
 * strings, duplicates (members counted in the text vs. keys in the value). Anything unusual returns
 * undefined and the full reader, the reference, handles it. About half the cost of the full reader.
 */
function fastRead(t: string, maxDepth: number, maxString: number): { value: unknown } | undefined {
  // On one-byte strings these character-class tests return at once.
  if (SUSPECT_KEY.test(t) || INVISIBLE.test(t) || !isWellFormed(t)) return undefined;
  const members = scan(t, maxDepth, maxString);
  if (members < 0) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(t);
  } catch {
    return undefined;
  }
  return countMembers(value) === members ? { value } : undefined;
}

/** Members in the text (':' outside strings), or -1 when the full reader is needed. */
function scan(t: string, maxDepth: number, maxString: number): number {
  const len = t.length;
  let depth = 0;
  let members = 0;
  let nextBs = -1;
  for (let i = 0; i < len; ) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 44) i++;
    else if (c === 34) {
      let q = t.indexOf('"', i + 1);
      if (q < 0) return -1;
      if (nextBs < i) nextBs = t.indexOf("\\", i) >>> 0; // -1 becomes 2^32-1: "none ahead"
      if (nextBs < q) {
        // Escapes: find the real closing quote, and leave keys or escapes that need checks to the reader.
        for (q = i + 1; q < len; q++) {
          const d = t.charCodeAt(q);
          if (d === 34) break;
          if (d !== 92) continue;
          if (t.charCodeAt(++q) === 117) {
            const u = hex4(t, q + 1);
            if (u >= 0x61c && (u >= 0xd800 ? u <= 0xdfff : INVISIBLE.test(String.fromCharCode(u)))) return -1;
          }
        }
        if (t.charCodeAt(skipWs(t, q + 1)) === 58) return -1;
      }
      // The raw span bounds the decoded length from above; only a long one needs the reader's exact count.
      if (q - i - 1 > maxString) return -1;
      i = q + 1;
    } else if (c === 58) {
      members++;
      i++;
    } else if (c === 123 || c === 91) {
      if (++depth > maxDepth) return -1;
      i++;
    } else if (c === 125 || c === 93) {
      depth--;
      i++;
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      const s = i;
      let plain = true;
      for (let d = t.charCodeAt(++i); ; d = t.charCodeAt(++i)) {
        if (d === 46 || d === 101 || d === 69 || d === 43 || d === 45) plain = false;
        else if (!(d >= 48 && d <= 57)) break;
      }
      if (plain ? i - s >= 16 || (c === 45 && t.charCodeAt(s + 1) === 48) : t.slice(s, i) !== String(Number(t.slice(s, i)))) {
        return -1;
      }
    } else i++;
  }
  return members;
}

function countMembers(v: unknown): number {
  let n = 0;
  const stack = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (Array.isArray(x)) {
      for (let i = 0; i < x.length; i++) {
        const y: unknown = x[i];
        if (typeof y === "object" && y !== null) stack.push(y);
      }
    } else if (typeof x === "object" && x !== null) {
      for (const k in x) {
        n++;
        const y = (x as Record<string, unknown>)[k];
        if (typeof y === "object" && y !== null) stack.push(y);
      }
    }
  }
  return n;
}

function isWellFormed(s: string): boolean {
  const native = (s as { isWellFormed?: () => boolean }).isWellFormed;
  return native !== undefined ? native.call(s) : !hasLoneSurrogate(s);
}

/**
 * Second, lazy pass: the location of every value, by pointer. Later duplicate members overwrite earlier ones.
 * With `sparse`, only the start of each container is recorded, and only for the first `sparse` containers.
 */
function buildIndex(t: string, sparse?: number): Map<Pointer, ValueLocation> {
  const index = new Map<Pointer, ValueLocation>();
  const stack: { ptr: Pointer; start: number; arr: boolean; n: number; ks: number; ke: number }[] = [];
  let ptr = "";
  let ks = -1;
  let ke = -1;
  let i = skipWs(t, 0);
  const member = (f: { ptr: Pointer }, j: number): number => {
    ks = j;
    ke = skipString(t, j);
    ptr = f.ptr + "/" + escapeToken(keyOf(t, ks, ke));
    return skipWs(t, skipWs(t, ke) + 1);
  };
  while (i < t.length) {
    const c = t.charCodeAt(i);
    if (c === 123 || c === 91) {
      const f = { ptr, start: i, arr: c === 91, n: 0, ks, ke };
      if (sparse !== undefined) {
        if (index.size >= sparse) return index;
        index.set(ptr, { start: i, end: -1 });
      }
      const j = skipWs(t, i + 1);
      if (t.charCodeAt(j) !== c + 2) {
        stack.push(f);
        if (f.arr) {
          ptr += "/0";
          ks = ke = -1;
          i = j;
        } else i = member(f, j);
        continue;
      }
      i = j + 1;
      if (sparse === undefined) index.set(ptr, loc(f.start, i, ks, ke));
    } else {
      const e = skipValue(t, i);
      if (sparse === undefined) index.set(ptr, loc(i, e, ks, ke));
      i = e;
    }
    for (;;) {
      const f = stack[stack.length - 1];
      if (f === undefined) return index;
      i = skipWs(t, i);
      if (t.charCodeAt(i) === 44) {
        i = skipWs(t, i + 1);
        if (f.arr) {
          ptr = f.ptr + "/" + ++f.n;
          ks = ke = -1;
        } else i = member(f, i);
        break;
      }
      i++;
      stack.pop();
      if (sparse === undefined) index.set(f.ptr, loc(f.start, i, f.ks, f.ke));
    }
  }
  return index;
}

/** Walks to a value from the closest ancestor whose start a sparse index holds. */
function walkFrom(t: string, starts: Map<Pointer, ValueLocation>, pointer: Pointer): ValueLocation | undefined {
  const tokens = parsePointer(pointer);
  const prefixes = [""];
  for (let k = 0; k < tokens.length - 1; k++) prefixes.push(prefixes[k] + "/" + escapeToken(tokens[k]!));
  // A strict ancestor, so the walk crosses the last member and learns its key's span.
  for (let k = Math.max(0, tokens.length - 1); k > 0; k--) {
    const at = starts.get(prefixes[k]!);
    if (at !== undefined) return walk(t, at.start, tokens.slice(k));
  }
  return walk(t, skipWs(t, 0), tokens);
}

/** Finds one value by following pointer tokens through the text from the value at offset i. */
function walk(t: string, from: number, tokens: readonly string[]): ValueLocation | undefined {
  let i = from;
  let ks = -1;
  let ke = -1;
  for (const token of tokens) {
    const arr = t.charCodeAt(i) === 91;
    if (!arr && t.charCodeAt(i) !== 123) return undefined;
    let j = skipWs(t, i + 1);
    let found = -1;
    for (let n = 0; t.charCodeAt(j) !== (arr ? 93 : 125) && j < t.length; n++) {
      let v = j;
      if (!arr) {
        const e = skipString(t, j);
        v = skipWs(t, skipWs(t, e) + 1);
        if (keyOf(t, j, e) === token) [found, ks, ke] = [v, j, e];
      } else if (String(n) === token) [found, ks, ke] = [v, -1, -1];
      j = skipWs(t, skipValue(t, v));
      if (t.charCodeAt(j) === 44) j = skipWs(t, j + 1);
    }
    if (found < 0) return undefined;
    i = found;
  }
  return loc(i, skipValue(t, i), ks, ke);
}

function loc(start: number, end: number, ks: number, ke: number): ValueLocation {
  return ks < 0 ? { start, end } : { start, end, keyStart: ks, keyEnd: ke };
}

function skipWs(t: string, i: number): number {
  for (;;) {
    const c = t.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

/** Offset past the string whose quote is at i (text already validated). */
function skipString(t: string, i: number): number {
  for (i++; i < t.length; i++) {
    const c = t.charCodeAt(i);
    if (c === 92) i++;
    else if (c === 34) return i + 1;
  }
  return t.length;
}

/** Offset past the value at i (text already validated); always advances. */
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

function wordEnd(t: string, i: number): number {
  for (let c = t.charCodeAt(i); /[\w$]/.test(String.fromCharCode(c)); c = t.charCodeAt(++i));
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
  const hex = "U+" + cp.toString(16).toUpperCase().padStart(4, "0");
  return cp > 32 && cp < 127 ? `'${String.fromCodePoint(cp)}'` : hex;
}

function clip(s: string): string {
  return s.length > 40 ? s.slice(0, 37) + "..." : s;
}

function show(key: string): string {
  // Escaped so the report shows the invisible character that makes the key suspicious.
  return clip(JSON.stringify(key).replace(INVISIBLES, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0")));
}
