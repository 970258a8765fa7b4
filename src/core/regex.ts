import { createRequire } from "node:module";
import type { RE2JS as RE2JSClass } from "re2js";
import { escapeToken } from "./pointer.js";

/*
 * Regular expressions that come from a tool registry (JSON Schema `pattern`, `patternProperties` keys) run in
 * linear time: they are compiled by RE2 (re2js, a pure-JavaScript port), never by the backtracking engine of
 * JavaScript, where `^(a+)+$` against 35 characters takes minutes. A JSON Schema pattern is ECMAScript syntax,
 * so each one is first checked with the JavaScript parser (parsing is linear; nothing is executed), then
 * translated where the two dialects read the same text differently (`.`, `\s`, `\uXXXX`, `[^]`, `[` inside a
 * class), and compiled by RE2. What RE2 cannot run (backreferences, lookaround, repeats over 1000) is refused
 * with the reason: a registry with such a pattern does not load (fail closed).
 */

/** Longest pattern accepted: matching costs pattern length times input length, and inputs may be 1 MiB. */
export const MAX_PATTERN_LENGTH = 4096;

/**
 * What a registry pattern compiles to: something that can test a string, and the size of its program
 * (instructions), or why it cannot be used.
 */
export type SafePattern = { test(s: string): boolean; toString(): string; readonly size: number } | { error: string };

/**
 * Most program instructions the cache of compiled patterns holds. A counted repetition makes a large
 * program from a short pattern (`(x|y|z){1,1000}`: 4,000 instructions, 2 MB and 8 ms to compile), and the
 * cache kept 10,000 of them whatever their size.
 */
const MAX_CACHED_INSTRUCTIONS = 250_000;

let engine: typeof RE2JSClass | undefined;

/** re2js, loaded on first use (about 10 ms): only registries with patterns pay for it. */
function re2(): typeof RE2JSClass {
  // The CommonJS build loads synchronously, so registries can be checked where they are read.
  engine ??= (createRequire(import.meta.url)("re2js") as { RE2JS: typeof RE2JSClass }).RE2JS;
  return engine;
}

/** ECMAScript's \s, as a class body RE2 reads (RE2's own \s is ASCII only). */
const WS = "\\t\\n\\x0B\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}";
/** ECMAScript's `.` without the s flag: anything but a line terminator (RE2's stops at \n only). */
const DOT = "[^\\n\\r\\x{2028}\\x{2029}]";

class Unsupported extends Error {}

function hex(cp: number): string {
  return `\\x{${cp.toString(16).toUpperCase()}}`;
}

/**
 * The RE2 spelling of an ECMAScript (u flag) pattern that the JavaScript parser accepted, or throws
 * Unsupported saying what RE2 cannot do.
 */
export function toRe2Syntax(p: string): string {
  let out = "";
  let inClass = false;
  let i = 0;
  // A \uXXXX escape, pairing surrogates into one code point as the u flag does.
  const unicodeEscape = (): string => {
    if (p[i + 2] === "{") {
      const end = p.indexOf("}", i + 3);
      const cp = parseInt(p.slice(i + 3, end), 16);
      i = end + 1;
      return hex(cp);
    }
    let cp = parseInt(p.slice(i + 2, i + 6), 16);
    i += 6;
    if (cp >= 0xd800 && cp <= 0xdbff && p[i] === "\\" && p[i + 1] === "u" && /^[dD][c-fC-F][0-9a-fA-F]{2}$/.test(p.slice(i + 2, i + 6))) {
      const low = parseInt(p.slice(i + 2, i + 6), 16);
      cp = 0x10000 + ((cp - 0xd800) << 10) + (low - 0xdc00);
      i += 6;
    }
    if (cp >= 0xd800 && cp <= 0xdfff) throw new Unsupported("a lone surrogate escape");
    return hex(cp);
  };
  const property = (): string => {
    const end = p.indexOf("}", i + 3);
    const body = p.slice(i + 3, end);
    const eq = body.indexOf("=");
    const name = eq < 0 ? body : body.slice(eq + 1);
    const kind = eq < 0 ? "" : body.slice(0, eq);
    if (kind === "Script_Extensions" || kind === "scx") throw new Unsupported(`the property \\${p[i + 1]}{${body}}`);
    const s = `\\${p[i + 1]}{${name}}`;
    i = end + 1;
    return s;
  };
  while (i < p.length) {
    const c = p[i]!;
    if (c === "\\") {
      const n = p[i + 1]!;
      if (n === "u") out += unicodeEscape();
      else if (n === "p" || n === "P") out += property();
      else if (n === "c") {
        out += hex(p.charCodeAt(i + 2) % 32);
        i += 3;
      } else if (n === "0") {
        out += "\\x00";
        i += 2;
      } else if (n >= "1" && n <= "9") throw new Unsupported(`the backreference \\${n}`);
      else if (n === "k") throw new Unsupported("a named backreference (\\k<…>)");
      else if (n === "s" && inClass) {
        out += WS;
        i += 2;
      } else if (n === "s") {
        out += `[${WS}]`;
        i += 2;
      } else if (n === "S" && inClass) throw new Unsupported("\\S inside a character class");
      else if (n === "S") {
        out += `[^${WS}]`;
        i += 2;
      } else if (n === "b" && inClass) {
        out += "\\x08";
        i += 2;
      } else {
        out += c + n;
        i += 2;
      }
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c === "[" ? "\\[" : c;
      i++;
      continue;
    }
    if (c === "[") {
      // ECMAScript's [] matches nothing and [^] anything; to RE2 a `]` there would be a literal.
      if (p.startsWith("[]", i)) {
        out += "[^\\x00-\\x{10FFFF}]";
        i += 2;
      } else if (p.startsWith("[^]", i)) {
        out += "[\\x00-\\x{10FFFF}]";
        i += 3;
      } else {
        inClass = true;
        out += p[i + 1] === "^" ? "[^" : "[";
        i += p[i + 1] === "^" ? 2 : 1;
      }
      continue;
    }
    if (c === "(" && p[i + 1] === "?") {
      if (p[i + 2] === "=" || p[i + 2] === "!") throw new Unsupported("lookahead ((?= or (?!)");
      if (p[i + 2] === "<" && (p[i + 3] === "=" || p[i + 3] === "!")) throw new Unsupported("lookbehind ((?<= or (?<!)");
    }
    out += c === "." ? DOT : c;
    i++;
  }
  return out;
}

const compiled = new Map<string, SafePattern>();
const compiledNocase = new Map<string, SafePattern>();

/**
 * Compiles a registry pattern for linear-time matching (cached by pattern). Returns why it cannot be used:
 * not an ECMAScript pattern, too long, or something RE2 cannot run. `nocase` folds case as RE2 does
 * (Unicode simple folding: final sigma, sigma and capital sigma are one letter), as the `i` flag of JavaScript does.
 */
export function compileSafePattern(pattern: string, options: { nocase?: boolean } = {}): SafePattern {
  const cache = options.nocase ? compiledNocase : compiled;
  const hit = cache.get(pattern);
  if (hit) return hit;
  let result: SafePattern;
  if (pattern.length > MAX_PATTERN_LENGTH) result = { error: `it is ${pattern.length} characters long (at most ${MAX_PATTERN_LENGTH})` };
  else {
    try {
      // Parsed only (never run) by JavaScript, to hold it to the ECMAScript syntax JSON Schema uses.
      new RegExp(pattern, "u");
      const re = options.nocase ? re2().compile(toRe2Syntax(pattern), re2().CASE_INSENSITIVE) : re2().compile(toRe2Syntax(pattern));
      const size = programSize(re) ?? pattern.length;
      // ajv keys compiled patterns by their string form: it must differ per pattern.
      result = { test: (s: string) => re.test(s), toString: () => `/${pattern}/re2`, size };
    } catch (err) {
      const why = err instanceof Unsupported ? `it uses ${err.message}, which cannot run in linear time` : (err as Error).message.replace(/^error parsing regexp: /, "");
      result = { error: why };
    }
  }
  const size = "size" in result ? result.size : 1;
  if (compiled.size + compiledNocase.size > 10_000 || cachedInstructions + size > MAX_CACHED_INSTRUCTIONS) {
    compiled.clear();
    compiledNocase.clear();
    cachedInstructions = 0;
  }
  cache.set(pattern, result);
  cachedInstructions += size;
  return result;
}

let cachedInstructions = 0;

/** The number of instructions of a compiled pattern's program (re2js keeps it in its compiled form). */
function programSize(re: unknown): number | undefined {
  const n = (re as { re2Input?: { prog?: { inst?: { length?: unknown } } } }).re2Input?.prog?.inst?.length;
  return typeof n === "number" ? n : undefined;
}

/**
 * Most steps RE2 may take to match a plan's pattern (`$regex`, a `$schema` constraint's patterns) against
 * one value: the value's length times the size of the pattern's program (RE2 steps each instruction for
 * each character, about a nanosecond each). A value of a MiB from a host's call against a pattern of 1,800
 * instructions (`(?:[ab]{1,30}){1,30}`) took 2 s; past the bound the value does not match (the call is
 * refused), so no call holds the guard for long.
 */
export const MAX_REGEX_STEPS = 1 << 27;

/** Would matching `pattern` against a text of `length` take more than MAX_REGEX_STEPS? */
export function regexTooSlow(pattern: { readonly size: number }, length: number): boolean {
  return length * Math.max(pattern.size, 1) > MAX_REGEX_STEPS;
}

/** For ajv's `code.regExp` option: registry patterns compiled by RE2; throws for a pattern that cannot be used. */
export const re2Engine = Object.assign(
  (pattern: string): { test(s: string): boolean } => {
    const c = compileSafePattern(pattern);
    if ("error" in c) throw new Error(`pattern "${pattern}" cannot be used: ${c.error}`);
    return c;
  },
  { code: "plangateRe2" },
);

/** The error a bounded engine throws for a text its pattern would take too long on (boundedRe2Engine). */
export class RegexTooSlow extends Error {}

/**
 * For ajv's `code.regExp` option where a plan's schema meets a value a host's call gives (`$schema`
 * constraints): as re2Engine, but a test that would pass MAX_REGEX_STEPS throws RegexTooSlow, which the
 * caller reads as no match (never as a pattern that failed to match, which `not` would turn into a pass).
 */
export const boundedRe2Engine = Object.assign(
  (pattern: string): { test(s: string): boolean; toString(): string } => {
    const c = compileSafePattern(pattern);
    if ("error" in c) throw new Error(`pattern "${pattern}" cannot be used: ${c.error}`);
    return {
      test(s: string): boolean {
        if (regexTooSlow(c, s.length)) throw new RegexTooSlow(`pattern "${pattern}" on ${s.length} characters`);
        return c.test(s);
      },
      toString: () => c.toString(),
    };
  },
  { code: "plangateBoundedRe2" },
);

/** Keys under which a schema holds data, not subschemas: patterns there are not patterns. */
const DATA_KEYS = new Set(["const", "enum", "default", "examples", "example"]);

/** Keywords whose value maps names to subschemas: their keys are names, not keywords. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/** Every regular expression in a JSON Schema: `pattern` values and `patternProperties` keys, with their JSON pointers. */
export function schemaPatterns(schema: unknown): { pointer: string; pattern: string }[] {
  const out: { pointer: string; pattern: string }[] = [];
  // [node, pointer, whether node's keys are names of subschemas rather than keywords]
  const stack: [unknown, string, boolean][] = [[schema, "", false]];
  while (stack.length > 0) {
    const [node, at, names] = stack.pop()!;
    if (Array.isArray(node)) {
      node.forEach((v, i) => stack.push([v, `${at}/${i}`, false]));
      continue;
    }
    if (node === null || typeof node !== "object") continue;
    for (const [k, v] of Object.entries(node)) {
      const here = `${at}/${escapeToken(k)}`;
      if (!names) {
        if (DATA_KEYS.has(k)) continue;
        if (k === "pattern" && typeof v === "string") out.push({ pointer: here, pattern: v });
        else if (k === "patternProperties" && v !== null && typeof v === "object" && !Array.isArray(v))
          for (const key of Object.keys(v)) out.push({ pointer: `${here}/${escapeToken(key)}`, pattern: key });
      }
      if (typeof v === "object") stack.push([v, here, !names && SCHEMA_MAPS.has(k)]);
    }
  }
  return out.reverse();
}
