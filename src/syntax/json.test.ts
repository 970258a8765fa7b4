import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import type { ReadIssue, SourceDocument } from "../core/document.js";
import { decodeText } from "./decode.js";
import fc from "fast-check";
import { fewOpenings, nestsWithin, parseJson } from "./json.js";
import { cpuBound, cpuTimed } from "../../test/cpu-time.js";
import { readFactText } from "../../test/read-text.js";

/** Parses with the fast path and with the full reader; both must agree on everything observable. */
function read(text: string, maxDepth?: number): SourceDocument {
  const doc = parseJson(text, { maxDepth });
  const full = parseJson(text, { maxDepth, fast: false });
  expect(doc.value).toEqual(full.value);
  expect(doc.issues).toEqual(full.issues);
  return full;
}

/** The one issue of a document, with its start as line:column. */
function only(doc: SourceDocument): ReadIssue & { at: string } {
  expect(doc.issues).toHaveLength(1);
  const issue = doc.issues[0]!;
  const p = doc.lines.position(issue.start);
  return { ...issue, at: `${p.line}:${p.column}` };
}

describe("parseJson: valid documents", () => {
  const samples = [
    "{}",
    "[]",
    "0",
    "-1.5e-3",
    '"text"',
    "true",
    "null",
    ' \t\r\n{ "a" : [ 1 , 2.25 , { "b" : null } ] , "c" : "x\\ny\\u00e9\\ud83d\\ude00\\"\\\\\\/\\b\\f\\r\\t" } \n',
    '{"steps":[{"tool":"fs.write","arguments":{"path":"/tmp/a","mode":420}}],"version":1}',
    '["caf\u00e9", "\u{1F600}", "\u4e2d\u6587", ""]',
    '{"1":1,"0":0,"":"empty key"}',
  ];
  test.each(samples)("%s equals JSON.parse", (text) => {
    const doc = read(text);
    expect(doc.value).toEqual(JSON.parse(text));
    expect(doc.issues).toEqual([]);
    expect(doc.syntax).toBe("json");
  });

  test("a BOM is skipped and not part of the text", () => {
    const doc = read('\uFEFF{"a": 1}');
    expect(doc.text).toBe('{"a": 1}');
    expect(doc.value).toEqual({ a: 1 });
    expect(doc.locate("/a")).toEqual({ start: 6, end: 7, keyStart: 1, keyEnd: 4 });
  });

  test("CRLF line endings count as one line break", () => {
    const doc = read('{\r\n  "a": 1,\r\n  "b": [1,,2]\r\n}');
    expect(only(doc)).toMatchObject({ rule: "parse-error", at: "3:11" });
  });
});

describe("parseJson: parse errors", () => {
  const cases: [string, string, number, number, RegExp][] = [
    ["", "1:1", 0, 0, /the file is empty: write a JSON plan/],
    ["  \n ", "1:1", 0, 0, /the file is empty/],
    ['{"a": 1,}', "1:8", 7, 8, /trailing comma is not allowed in JSON/],
    ["[1, 2,\n]", "1:6", 5, 6, /trailing comma/],
    ['{"a": 1 "b": 2}', "1:9", 8, 9, /expected ',' or '}' after object member/],
    ["[1 2]", "1:4", 3, 4, /expected ',' or ']' after array element/],
    ['{"a": [1, 2}', "1:12", 11, 12, /expected ',' or ']'/],
    ['{"a" 1}', "1:6", 5, 6, /expected ':' after object key/],
    ['{\n  "a": "abc', "2:8", 9, 13, /unterminated string/],
    ['["a\nb"]', "1:2", 1, 3, /a JSON string cannot contain a line break/],
    ['["a\tb"]', "1:4", 3, 4, /control character U\+0009 inside a string/],
    ['{"a": ', "1:7", 6, 6, /unexpected end of input: the document is incomplete/],
    ['{"a": [1, {"b": 2}', "1:19", 18, 18, /unexpected end of input/],
    ["[NaN]", "1:2", 1, 4, /NaN is not valid JSON/],
    ["[Infinity]", "1:2", 1, 9, /Infinity is not valid JSON/],
    ["[-Infinity]", "1:2", 1, 10, /-Infinity is not valid JSON/],
    ["[True]", "1:2", 1, 5, /lowercase true, false and null/],
    ["{'a': 1}", "1:2", 1, 2, /double quotes/],
    ["{a: 1}", "1:2", 1, 2, /object keys must be double-quoted strings/],
    ["[hello]", "1:2", 1, 6, /JSON strings must be in double quotes/],
    ["[01]", "1:2", 1, 3, /leading zeros/],
    ["[1.]", "1:4", 3, 4, /digit after the decimal point/],
    ["[1e]", "1:4", 3, 4, /digit in the exponent/],
    ["[-]", "1:2", 1, 3, /digit after '-'/],
    ["[+1]", "1:2", 1, 2, /cannot start with '\+'/],
    ["[.5]", "1:2", 1, 2, /must start with a digit/],
    ['["\\x"]', "1:3", 2, 4, /invalid escape '\\x'/],
    ['["\\u12G4"]', "1:3", 2, 8, /four hex digits/],
    ["// note\n{}", "1:1", 0, 1, /comments are not allowed/],
    ["{} {}", "1:4", 3, 4, /after the JSON value/],
    ["[1,]]", "1:3", 2, 3, /trailing comma/],
    ["\u0000\u0001", "1:1", 0, 1, /expected a value, found U\+0000/],
  ];
  test.each(cases)("%j", (text, at, start, end, message) => {
    const doc = read(text);
    const issue = only(doc);
    expect(issue).toMatchObject({ rule: "parse-error", at, start, end });
    expect(readFactText(issue).message).toMatch(message);
    expect(readFactText(issue).hint).toBeTruthy();
    expect(doc.value).toBeUndefined();
    expect(doc.locate("")).toBeUndefined();
  });

  test("binary junk is a parse error", () => {
    const bytes = Uint8Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256);
    const doc = read(decodeText(bytes).text);
    expect(doc.issues[0]?.rule).toBe("parse-error");
    expect(doc.value).toBeUndefined();
  });
});

describe("parseJson: duplicate keys", () => {
  test("last value wins, reported at the second key with the first key's line", () => {
    const text = '{\n  "tool": "a",\n  "x": {"k": 1, "k": 2},\n  "tool": "b"\n}';
    const doc = read(text);
    expect(doc.value).toEqual({ tool: "b", x: { k: 2 } });
    expect(Object.keys(doc.value as object)).toEqual(["tool", "x"]);
    expect(doc.issues.map((i) => [i.rule, i.at, doc.lines.position(i.start).line])).toEqual([
      ["duplicate-key", "/x/k", 3],
      ["duplicate-key", "/tool", 4],
    ]);
    const [inner, outer] = doc.issues;
    expect(text.slice(inner!.start, inner!.end)).toBe('"k"');
    expect(inner!.start).toBe(text.indexOf('"k": 2'));
    expect(readFactText(outer!).message).toBe(
      'duplicate key "tool" in one object (first at line 2): JSON and YAML consumers disagree on which wins; keep one',
    );
  });

  test("many duplicates in one object, at several levels, in arrays", () => {
    const doc = read('[{"a":1,"b":2,"a":3,"b":4,"a":5}, [{"z":{"q":0,"q":[1]}}]]');
    expect(doc.value).toEqual([{ a: 5, b: 4 }, [{ z: { q: [1] } }]]);
    expect(doc.issues.map((i) => i.at)).toEqual(["/0/a", "/0/b", "/0/a", "/1/0/z/q"]);
    expect(doc.issues.every((i) => readFactText(i).message.includes("(first at line 1)"))).toBe(true);
  });

  test("locate gives the last occurrence and drops the earlier one's children", () => {
    const text = '{"a": {"x": 1}, "b": 0, "a": {"y": 2}}';
    const doc = read(text);
    expect(doc.locate("/a")).toEqual({ start: 29, end: 37, keyStart: 24, keyEnd: 27 });
    expect(doc.locate("/a/y")).toMatchObject({ start: 35, end: 36 });
    expect(doc.locate("/a/x")).toBeUndefined();
  });

  test("a duplicate's number lexeme does not outlive it", () => {
    const doc = read('{"n": 1.0, "n": 2}');
    expect(doc.numbers.get(doc.value as object, "n")).toBeUndefined();
  });
});

describe("parseJson: unsafe values", () => {
  test("__proto__ becomes an own data property, never the prototype", () => {
    const doc = read('{"__proto__": {"polluted": true}, "a": {"__proto__": []}}');
    const v = doc.value as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.hasOwn(v, "__proto__")).toBe(true);
    expect(Object.getOwnPropertyDescriptor(v, "__proto__")?.value).toEqual({ polluted: true });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(v.a)).toBe(Object.prototype);
    expect(doc.issues.map((i) => [i.rule, i.at, i.start])).toEqual([
      ["unsafe-value", "/__proto__", 1],
      ["unsafe-value", "/a/__proto__", 40],
    ]);
  });

  test("constructor and prototype keys", () => {
    const doc = read('{"constructor": 1, "b": {"prototype": 2}}');
    expect(doc.issues.map((i) => i.at)).toEqual(["/constructor", "/b/prototype"]);
    expect(readFactText(doc.issues[0]!).message).toMatch(/key "constructor"/);
  });

  test("lone surrogates from escapes, in values and keys; pairs are fine", () => {
    const text = '["\\ud83d\\ude00", "a\\ud800", {"\\udc00k": "\\uDFFFx"}]';
    const doc = read(text);
    expect((doc.value as unknown[])[1]).toBe("a\ud800");
    expect(doc.issues.map((i) => [i.at, text.slice(i.start, i.end)])).toEqual([
      ["/1", '"a\\ud800"'],
      ["/2/\udc00k", '"\\udc00k"'],
      ["/2/\udc00k", '"\\uDFFFx"'],
    ]);
    expect(doc.issues.every((i) => i.rule === "unsafe-value" && /lone UTF-16 surrogate/.test(readFactText(i).message))).toBe(true);
  });

  test("keys with bidi or zero-width characters, raw or escaped", () => {
    const doc = read('{"to\u202eol": 1, "a\\u200bb": 2, "ok\u00e9": 3, "v": "zero\u200bwidth values are fine"}');
    expect(doc.issues.map((i) => i.at)).toEqual(["/to\u202eol", "/a\u200bb"]);
    expect(readFactText(doc.issues[1]!).message).toContain('"a\\u200bb"');
  });

  test("numbers that overflow, and integers beyond 2^53-1", () => {
    const text = '{"big": 1e400, "neg": -1e400, "id": 12345678901234567890, "ok": 9007199254740991, "edge": -9007199254740992}';
    const doc = read(text);
    expect(doc.value).toEqual({
      big: Infinity,
      neg: -Infinity,
      id: 12345678901234567000,
      ok: 9007199254740991,
      edge: -9007199254740992,
    });
    expect(doc.issues.map((i) => [i.at, text.slice(i.start, i.end)])).toEqual([
      ["/big", "1e400"],
      ["/neg", "-1e400"],
      ["/id", "12345678901234567890"],
      ["/edge", "-9007199254740992"],
    ]);
    expect(readFactText(doc.issues[2]!).hint).toMatch(/string/);
  });
});

describe("parseJson: number lexemes", () => {
  test("records lexemes String(value) would not give back, keyed by container and key", () => {
    const doc = read(
      '{"a": 1.0, "b": [1e5, 2, -0, 1E-7, 1.50, 3.25, 12345678901234567890], "c": 10, "d": 0.1, "e": {"f": 1e+21, "g": 1E+21}}',
    );
    const v = doc.value as { b: unknown[]; e: object };
    expect(doc.numbers.get(v, "a")).toBe("1.0");
    expect(doc.numbers.get(v, "c")).toBeUndefined();
    expect(doc.numbers.get(v, "d")).toBeUndefined();
    expect([0, 1, 2, 3, 4, 5, 6].map((i) => doc.numbers.get(v.b, String(i)))).toEqual([
      "1e5",
      undefined,
      "-0",
      "1E-7",
      "1.50",
      undefined,
      "12345678901234567890",
    ]);
    expect(doc.numbers.get(v.e, "f")).toBeUndefined(); // String(1e21) is "1e+21"
    expect(doc.numbers.get(v.e, "g")).toBe("1E+21");
    expect(Object.is(v.b[2], -0)).toBe(true);
    expect(doc.numbers.rootLexeme).toBeUndefined();
  });

  test("an array's lexemes are kept by index, in bounded memory", () => {
    // Two million numbers whose lexemes matter (8 MiB): a Map entry and two strings each kept 178 MB.
    const text = `{"x": [${"1.0,".repeat(2_000_000)}7, 1e5]}`;
    expect(text.includes("z")).toBe(false); // flattens the repeated string before measuring
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    gc();
    const before = process.memoryUsage().heapUsed;
    // Past the default limit of values (limits.maxValues): the reader's own bounds are what is measured.
    const doc = parseJson(text, { maxValues: Number.POSITIVE_INFINITY });
    const x = (doc.value as { x: unknown[] }).x;
    gc();
    // What the document keeps: the array (16 MB) and its lexemes.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(100 * 1024 * 1024);
    expect(x).toHaveLength(2_000_002);
    expect(["0", "1999999", "2000000", "2000001", "01", "-0", "1.0", "length"].map((k) => doc.numbers.get(x, k))).toEqual(["1.0", "1.0", undefined, "1e5", undefined, undefined, undefined, undefined]);
  });

  test("a root number's lexeme is the rootLexeme", () => {
    expect(read("1.0").numbers.rootLexeme).toBe("1.0");
    expect(read("-0").numbers.rootLexeme).toBe("-0");
    expect(read("17").numbers.rootLexeme).toBeUndefined();
  });

  test("documents without such numbers share the empty table", () => {
    const doc = parseJson('{"a": [1, 2.5, -3]}');
    expect(doc.numbers.get(doc.value as object, "a")).toBeUndefined();
  });
});

describe("parseJson: locate", () => {
  const text = '{\n  "a/b": {"c~d": [10, {"e": "x"}]},\n  "": {"": true},\n  "list": [ [ ], {} ]\n}';
  const doc = read(text);
  const slice = (p: string) => {
    const loc = doc.locate(p);
    return loc && [text.slice(loc.start, loc.end), loc.keyStart === undefined ? undefined : text.slice(loc.keyStart, loc.keyEnd)];
  };

  test("values and member names, with RFC 6901 escaping", () => {
    expect(slice("")).toEqual([text, undefined]);
    expect(slice("/a~1b")).toEqual(['{"c~d": [10, {"e": "x"}]}', '"a/b"']);
    expect(slice("/a~1b/c~0d")).toEqual(['[10, {"e": "x"}]', '"c~d"']);
    expect(slice("/a~1b/c~0d/0")).toEqual(["10", undefined]);
    expect(slice("/a~1b/c~0d/1/e")).toEqual(['"x"', '"e"']);
    expect(slice("/")).toEqual(['{"": true}', '""']);
    expect(slice("//")).toEqual(["true", '""']);
    expect(slice("/list/0")).toEqual(["[ ]", undefined]);
    expect(slice("/list/1")).toEqual(["{}", undefined]);
  });

  test("missing values give undefined", () => {
    for (const p of ["/nope", "/a~1b/c~0d/2", "/a~1b/c~0d/01", "/list/0/0", "/a/b", "/a~1b/c~0d/0/x"]) {
      expect(doc.locate(p)).toBeUndefined();
    }
  });

  test("line and column of a located value", () => {
    const loc = doc.locate("/a~1b/c~0d/1/e")!;
    expect(doc.lines.position(loc.start)).toMatchObject({ line: 2, column: 29 });
  });

  test("lookups reuse what earlier calls scanned: many lookups in a large array stay fast", () => {
    const n = 200_000;
    const text = "[" + Array.from({ length: n }, (_, i) => `{"i": ${i}, "s": "${"x".repeat(i % 20)}"}`).join(",\n") + "]";
    // 600,000 values, past the default limit (limits.maxValues): the locator is what is measured.
    const d = parseJson(text, { maxValues: Number.POSITIVE_INFINITY });
    const { ms } = cpuTimed(() => {
      for (let k = 0; k < 2000; k++) {
        const i = (k * 7919) % n;
        const loc = d.locate(`/${i}/i`)!;
        expect(text.slice(loc.start, loc.end)).toBe(String(i));
      }
    });
    // Without reuse each call would rescan the 6 MB array (seconds in all).
    expect(ms).toBeLessThan(cpuBound(3000));
    expect(d.locate("/2/s")).toEqual(d.locate("/2/s"));
  });
});

describe("parseJson: limits and size", () => {
  const deep = 100_000;

  test("100,000-deep nesting gives limit-exceeded at the offending bracket", () => {
    for (const text of ["[".repeat(deep) + "]".repeat(deep), '{"a":'.repeat(deep) + "1" + "}".repeat(deep), "[".repeat(deep)]) {
      // The reader stops at the limit, at the 1,001st bracket: nothing past it is read.
      const doc = read(text);
      const issue = only(doc);
      expect(issue.rule).toBe("limit-exceeded");
      expect(text[issue.start]).toMatch(/[[{]/);
      expect(issue.start).toBe(text.startsWith("[") ? 1000 : 5000);
      expect(doc.value).toBeUndefined();
    }
  });

  test("nestsWithin agrees with the reader's depth limit on any text, brackets in strings and escapes included", () => {
    const piece = fc.constantFrom("[", "]", "{", "}", '"', '\\"', "\\\\", "[]", '"["', '"\\""', ",", ":", "1", " ");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 6 }), (parts, max) => {
        const text = parts.join("");
        // The deepest bracket reached outside strings, by a plain reference scan.
        let depth = 0;
        let deepest = 0;
        let inString = false;
        for (let i = 0; i < text.length; i++) {
          const c = text[i];
          if (inString) {
            if (c === "\\") i++;
            else if (c === '"') inString = false;
          } else if (c === '"') inString = true;
          else if (c === "[" || c === "{") deepest = Math.max(deepest, ++depth);
          else if (c === "]" || c === "}") depth--;
        }
        expect(nestsWithin(text, max)).toBe(deepest <= max);
        // On a valid document, the reader refuses exactly what nestsWithin does.
        let valid = true;
        try {
          JSON.parse(text);
        } catch {
          valid = false;
        }
        if (valid) expect(parseJson(text, { maxDepth: max, fast: false }).issues.some((x) => x.rule === "limit-exceeded")).toBe(deepest > max);
      }),
      { numRuns: 3000 },
    );
  });

  test("fewOpenings counts every [ and { (in strings too) up to its bound", () => {
    const piece = fc.constantFrom("[", "]", "{", "}", '"["', "a", " ", "{[");
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.integer({ min: 0, max: 12 }), (parts, max) => {
        const text = parts.join("");
        const count = [...text].filter((c) => c === "[" || c === "{").length;
        expect(fewOpenings(text, max)).toBe(count <= max);
      }),
      { numRuns: 2000 },
    );
  });

  test("a long text of few brackets that nests too deep is still refused at the limit", () => {
    // Past 64 KiB a text is scanned for its depth unless it has few brackets: then the value's depth decides.
    for (const text of ["[".repeat(1500) + " ".repeat(70_000) + "]".repeat(1500), '{"a":'.repeat(1500) + " ".repeat(70_000) + "1" + "}".repeat(1500)]) {
      const issue = only(read(text));
      expect(issue.rule).toBe("limit-exceeded");
      expect(issue.start).toBe(text.startsWith("[") ? 1000 : 5000);
    }
  });

  test("maxDepth counts containers, empty ones included", () => {
    expect(read("[[1]]", 2).issues).toEqual([]);
    expect(only(read("[[[]]]", 2))).toMatchObject({ rule: "limit-exceeded", start: 2 });
    expect(only(read('{"a": {}}', 1))).toMatchObject({ rule: "limit-exceeded", start: 6 });
    expect(read("7", 0).value).toBe(7);
  });

  test("without a depth limit, 100,000-deep nesting is read without overflowing the stack", () => {
    const text = "[".repeat(deep) + "]".repeat(deep);
    for (const fast of [true, false]) {
      const doc = parseJson(text, { maxDepth: Number.POSITIVE_INFINITY, fast });
      expect(doc.issues).toEqual([]);
      let v = doc.value;
      let depth = 0;
      while (Array.isArray(v)) {
        depth++;
        v = v[0];
      }
      expect(depth).toBe(deep);
    }
    expect(parseJson(text, { maxDepth: Number.POSITIVE_INFINITY }).locate("/0/0/0")).toEqual({ start: 3, end: 2 * deep - 3 });
  });

  test("a 50 MB document is read (by the full reader: its first number needs a lexeme)", () => {
    const item = (i: number) =>
      `{"id":${i},"tool":"shell.run","args":["--flag","value ${i}"],"ok":${i % 2 === 0},"ratio":${i % 7}.5}`;
    const parts = ['{"ratio":1.0}'];
    let size = 0;
    for (let i = 1; size < 50_000_000; i++) {
      const s = item(i);
      parts.push(s);
      size += s.length + 1;
    }
    const text = "[" + parts.join(",") + "]";
    const doc = parseJson(text, { maxValues: Number.POSITIVE_INFINITY });
    expect(doc.issues).toEqual([]);
    const v = doc.value as { id: number }[];
    expect(v).toHaveLength(parts.length);
    expect(v[v.length - 1]!.id).toBe(parts.length - 1);
    expect(doc.numbers.get(v[0]!, "ratio")).toBe("1.0");
  });
});

describe("decodeText", () => {
  const utf8 = (s: string) => new TextEncoder().encode(s);
  const cat = (...parts: ArrayLike<number>[]) => Uint8Array.from(parts.flatMap((p) => Array.from(p)));

  test("UTF-8, with or without a BOM", () => {
    expect(decodeText(utf8('{"a": "é"}'))).toEqual({ text: '{"a": "é"}' });
    expect(decodeText(cat([0xef, 0xbb, 0xbf], utf8("{}")))).toEqual({ text: "{}" });
    expect(decodeText(new Uint8Array())).toEqual({ text: "" });
  });

  test.each([
    ["UTF-16 LE", cat([0xff, 0xfe], [0x7b, 0, 0x7d, 0])],
    ["UTF-16 BE", cat([0xfe, 0xff], [0, 0x7b, 0, 0x7d])],
    ["UTF-32 LE", cat([0xff, 0xfe, 0, 0], [0x7b, 0, 0, 0, 0x7d, 0, 0, 0])],
    ["UTF-32 BE", cat([0, 0, 0xfe, 0xff], [0, 0, 0, 0x7b, 0, 0, 0, 0x7d])],
  ])("%s is decoded best-effort and reported", (name, bytes) => {
    const { text, issue } = decodeText(bytes);
    expect(text).toBe("{}");
    expect(issue).toMatchObject({ rule: "parse-error", start: 0 });
    expect(readFactText(issue!).message).toContain(name);
    expect(readFactText(issue!).message).toMatch(/save the file as UTF-8/);
  });

  test.each([
    ["a bad byte", cat(utf8("ab"), [0xff], utf8("cd")), 2],
    ["after a 2-byte char", cat(utf8("é"), [0xc3, 0x28]), 1],
    ["after an astral char", cat(utf8("\u{1F600}x"), [0x80]), 3],
    ["a truncated sequence at the end", cat(utf8("{}"), [0xe2, 0x82]), 2],
    ["an encoded surrogate", cat(utf8("["), [0xed, 0xa0, 0x80], utf8("]")), 1],
  ])("invalid UTF-8: %s", (_, bytes, offset) => {
    const { text, issue } = decodeText(bytes);
    expect(issue).toMatchObject({ rule: "parse-error", start: offset, end: offset + 1 });
    expect(readFactText(issue!).message).toMatch(/not valid UTF-8.*save the file as UTF-8/);
    expect(text[offset]).toBe("\ufffd");
    expect(text).toBe(new TextDecoder().decode(bytes));
  });
});
