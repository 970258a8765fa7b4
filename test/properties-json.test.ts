import fc from "fast-check";
import { describe, expect, test } from "vitest";
import type { SourceDocument } from "../src/core/document.js";
import { getAt, pointerOf } from "../src/core/pointer.js";
import { decodeText } from "../src/syntax/decode.js";
import { fewValues, parseJson } from "../src/syntax/json.js";
import { readFactText } from "./read-text.js";

/*
 * parseJson against V8's JSON.parse (same grammar, RFC 8259) and against itself: the fast path (native
 * JSON.parse plus checks) must agree with the full reader on every text, valid or not.
 */

/** Reads a text both ways and checks what must hold for any input; returns the full reader's document. */
function check(input: string): SourceDocument {
  const full = parseJson(input, { fast: false });
  const fast = parseJson(input);
  expect(fast.issues).toEqual(full.issues);
  expect(fast.value).toEqual(full.value);
  const len = full.text.length;
  for (const issue of full.issues) {
    expect(issue.start).toBeGreaterThanOrEqual(0);
    expect(issue.start).toBeLessThanOrEqual(issue.end);
    expect(issue.end).toBeLessThanOrEqual(len);
    expect(readFactText(issue).message.length).toBeGreaterThan(0);
  }
  const fatal = full.issues.filter((i) => i.rule === "parse-error" || i.rule === "limit-exceeded");
  if (full.value === undefined) expect(full.issues).toEqual(fatal.slice(0, 1));
  else expect(fatal).toEqual([]);
  // V8's JSON.parse accepts exactly the same texts (these are far shallower than the depth limit).
  let native: { value: unknown } | undefined;
  try {
    native = { value: JSON.parse(full.text) };
  } catch {
    native = undefined;
  }
  expect(full.value === undefined).toBe(native === undefined);
  if (native !== undefined) expect(full.value).toEqual(native.value);
  return full;
}

/** Every pointer into a value, with the member name when the parent is an object. */
function pointers(root: unknown): { pointer: string; key?: string }[] {
  const out: { pointer: string; key?: string }[] = [];
  const stack: { v: unknown; pointer: string; key?: string }[] = [{ v: root, pointer: "" }];
  while (stack.length > 0) {
    const { v, pointer, key } = stack.pop()!;
    out.push(key === undefined ? { pointer } : { pointer, key });
    if (Array.isArray(v)) v.forEach((x, i) => stack.push({ v: x, pointer: pointer + pointerOf(i) }));
    else if (v !== null && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) stack.push({ v: x, pointer: pointer + pointerOf(k), key: k });
    }
  }
  return out;
}

// Edits that keep a text JSON-like, to reach the reader's error paths rather than fail at the first char.
const jsonish = fc
  .tuple(
    fc.json({ maxDepth: 3 }),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat(3),
        fc.constantFrom(..."{}[],:\"\\ \n\t\r0123456789-+.eEuDd8ftnrl/'x\u0000\u00e9\u200b\ud800\ufeff".split(""), "NaN", "true", "\\u", "1e400"),
      ),
      { maxLength: 4 },
    ),
  )
  .map(([text, edits]) => {
    let t = text;
    for (const [at, del, ins] of edits) {
      const i = at % (t.length + 1);
      t = t.slice(0, i) + ins + t.slice(i + del);
    }
    return t;
  });

describe("parseJson never throws and stays within bounds", () => {
  test("any string", () => {
    fc.assert(fc.property(fc.string({ maxLength: 200 }), (s) => void check(s)), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 100 }), (s) => void check(s)), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: "grapheme", maxLength: 100 }), (s) => void check(s)), { numRuns: 200 });
  });

  test("JSON-like texts with random edits", () => {
    fc.assert(fc.property(jsonish, (s) => void check(s)), { numRuns: 1000 });
  });

  test("the limit of values: the fast path and the full reader stop at the same value", () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 3 }), fc.integer({ min: 1, max: 12 }), (text, max) => {
        const full = parseJson(text, { fast: false, maxValues: max });
        const fast = parseJson(text, { maxValues: max });
        expect(fast.issues).toEqual(full.issues);
        expect(fast.value).toEqual(full.value);
        const over = full.issues.some((i) => i.messageId === "jsonTooManyValues");
        // Over the limit exactly when the document holds more values than it allows.
        let n = 0;
        const count = (v: unknown): void => {
          n++;
          if (v !== null && typeof v === "object") for (const x of Object.values(v)) count(x);
        };
        const parsed = parseJson(text, { maxValues: Number.POSITIVE_INFINITY });
        if (parsed.value !== undefined && parsed.issues.every((i) => i.rule !== "duplicate-key")) {
          count(parsed.value);
          expect(over).toBe(n > max);
        }
      }),
      { numRuns: 1000 },
    );
  });
  test("fewValues never lets past a text that holds more values than the limit", () => {
    const count = (v: unknown): number => (v !== null && typeof v === "object" ? Object.values(v).reduce((n: number, x) => n + count(x), 1) : 1);
    fc.assert(
      fc.property(fc.json({ maxDepth: 4 }), fc.integer({ min: 1, max: 40 }), fc.boolean(), (text, max, compact) => {
        const value: unknown = JSON.parse(text);
        // Compact texts are the ones that put the most values in the fewest characters.
        const t = compact ? JSON.stringify(value) : text;
        if (fewValues(t, max)) expect(count(value)).toBeLessThanOrEqual(max);
      }),
      { numRuns: 2000 },
    );
    // The densest texts: lists of empty lists and of one-digit numbers, at the bound and one past it.
    for (const max of [1, 2, 3, 10, 101]) {
      for (const item of ["[]", "0", "{}"]) {
        for (const n of [max - 2, max - 1, max]) {
          if (n < 0) continue;
          const t = `[${Array(n).fill(item).join(",")}]`;
          if (fewValues(t, max)) expect(n + 1).toBeLessThanOrEqual(max);
        }
      }
    }
  });
  test("fewValues does not count what strings hold", () => {
    const count = (v: unknown): number => (v !== null && typeof v === "object" ? Object.values(v).reduce((n: number, x) => n + count(x), 1) : 1);
    // Strings dense in commas, brackets, quotes and backslashes (structured text in arguments), long
    // enough that the native count passes the limit and the count outside strings decides.
    const dense = fc.string({ unit: fc.constantFrom(",", "[", "{", '"', "\\", "a", "]"), minLength: 50, maxLength: 200 });
    const tree = fc.letrec((tie) => ({
      node: fc.oneof({ depthSize: "small", withCrossShrink: true }, dense, fc.array(tie("node"), { maxLength: 4 }), fc.dictionary(dense, tie("node"), { maxKeys: 3 })),
    })).node;
    fc.assert(
      fc.property(tree, fc.integer({ min: 1, max: 30 }), (value, max) => {
        const t = JSON.stringify(value);
        const n = count(value);
        // Never lets past more values than the limit; and a text of few values is few whatever its strings hold.
        if (fewValues(t, max)) expect(n).toBeLessThanOrEqual(max);
        if (2 * n <= max) expect(fewValues(t, max)).toBe(true);
      }),
      { numRuns: 2000 },
    );
    // An unterminated string and a quote escaped by an odd number of backslashes.
    const list = `[${Array(40).fill('"a,b,\\\\\\"[{,"').join(",")}]`;
    expect(JSON.parse(list)).toHaveLength(40);
    expect(fewValues(list, 41)).toBe(true);
    expect(fewValues(list, 39)).toBe(false);
    expect(fewValues('["' + ",".repeat(100), 5)).toBe(true);
  });
  test("random bytes through decodeText", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), (bytes) => {
        const { text, issue } = decodeText(bytes);
        if (issue !== undefined) {
          expect(issue.rule).toBe("parse-error");
          expect(issue.end).toBeLessThanOrEqual(Math.max(text.length, 1));
        }
        check(text);
      }),
      { numRuns: 300 },
    );
  });
});

describe("valid JSON", () => {
  const indent = fc.oneof(fc.constant(undefined), fc.integer({ min: 0, max: 8 }), fc.constantFrom("\t", " \r\n"));
  const cases = fc.tuple(fc.jsonValue({ maxDepth: 5 }), indent).map(([v, ind]) => JSON.stringify(v, null, ind));

  test("values equal JSON.parse; every value and member name is located", () => {
    fc.assert(
      fc.property(cases, (text) => {
        const doc = check(text);
        // Only numbers beyond 2^53 or overflowing doubles can be reported in stringified values.
        expect(doc.issues.filter((i) => i.rule !== "unsafe-value")).toEqual([]);
        expect(doc.locate("")).toEqual({ start: 0, end: text.length });
        for (const { pointer, key } of pointers(doc.value)) {
          const loc = doc.locate(pointer)!;
          expect(JSON.parse(text.slice(loc.start, loc.end))).toEqual(getAt(doc.value, pointer));
          if (key === undefined) expect(loc.keyStart).toBeUndefined();
          else expect(JSON.parse(text.slice(loc.keyStart, loc.keyEnd))).toBe(key);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("strings with any code units: lone surrogates are reported at their value, within bounds", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3, stringUnit: "binary" }), (v) => {
        const text = JSON.stringify(v);
        const doc = check(text);
        for (const issue of doc.issues) {
          expect(issue.rule).toBe("unsafe-value");
          const loc = doc.locate(issue.at!)!;
          const inValue = issue.start >= loc.start && issue.end <= loc.end;
          const inKey = issue.start === loc.keyStart && issue.end === loc.keyEnd;
          expect(inValue || inKey).toBe(true);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("duplicate keys: last wins, one issue per repeat", () => {
    const members = fc.array(fc.tuple(fc.constantFrom("a", "b", "a/b", "~", "__x"), fc.jsonValue({ maxDepth: 1 })), {
      maxLength: 8,
    });
    fc.assert(
      fc.property(members, (ms) => {
        const text = "{" + ms.map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n") + "}";
        const doc = check(text);
        const dups = doc.issues.filter((i) => i.rule === "duplicate-key");
        expect(dups).toHaveLength(ms.length - new Set(ms.map(([k]) => k)).size);
        for (const [k] of ms) {
          const loc = doc.locate(pointerOf(k))!;
          expect(JSON.parse(text.slice(loc.start, loc.end))).toEqual((doc.value as Record<string, unknown>)[k]);
        }
      }),
      { numRuns: 200 },
    );
  });

  test("number lexemes are kept exactly when String(value) differs", () => {
    const digits = (min: number, max: number) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: min, maxLength: max });
    const lexeme = fc
      .tuple(
        fc.boolean(),
        fc.oneof(fc.constant("0"), fc.tuple(fc.constantFrom(..."123456789"), digits(0, 22)).map(([a, b]) => a + b)),
        fc.option(digits(1, 20).map((d) => "." + d)),
        fc.option(fc.tuple(fc.constantFrom("e", "E"), fc.constantFrom("", "+", "-"), digits(1, 3)).map((p) => p.join(""))),
      )
      .map(([neg, int, frac, exp]) => (neg ? "-" : "") + int + (frac ?? "") + (exp ?? ""));
    fc.assert(
      fc.property(fc.array(lexeme, { minLength: 1, maxLength: 6 }), fc.integer({ min: 0, max: 2 }), (lexemes, ws) => {
        const text = "[" + lexemes.join("," + " ".repeat(ws)) + "]";
        const doc = check(text);
        const arr = doc.value as number[];
        lexemes.forEach((lex, i) => {
          expect(Object.is(arr[i], Number(lex))).toBe(true);
          expect(doc.numbers.get(arr, String(i))).toBe(lex === String(Number(lex)) ? undefined : lex);
        });
        const root = check(lexemes[0]!);
        expect(root.numbers.rootLexeme).toBe(lexemes[0] === String(Number(lexemes[0])) ? undefined : lexemes[0]);
      }),
      { numRuns: 500 },
    );
  });
});
