import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { parseJson } from "../../syntax/json.js";
import type { NumberLexemes } from "../document.js";
import {
  compareCodePoints,
  pythonChecksum,
  pythonFloatRepr,
  pythonJsonDumps,
  pythonString,
} from "./python-json.js";
import { readFactText } from "../../../test/read-text.js";

/** The project's JSON reader, which records the lexemes pythonJsonDumps needs. */
function readJson(text: string): { value: unknown; numbers: NumberLexemes } {
  const doc = parseJson(text);
  const fatal = doc.issues.find((issue) => issue.rule === "parse-error" || issue.rule === "limit-exceeded");
  if (fatal !== undefined || doc.value === undefined)
    throw new SyntaxError((fatal ? readFactText(fatal).message : "unreadable JSON"));
  return { value: doc.value, numbers: doc.numbers };
}

const dumps = (text: string): string => {
  const { value, numbers } = readJson(text);
  return pythonJsonDumps(value, numbers);
};

describe("pythonJsonDumps: structure", () => {
  test("separators, literals and empty containers", () => {
    expect(dumps('{"a":[1,true,false,null],"b":{},"c":[]}')).toBe(
      '{"a": [1, true, false, null], "b": {}, "c": []}',
    );
    expect(dumps("[]")).toBe("[]");
    expect(dumps("{}")).toBe("{}");
    expect(dumps("null")).toBe("null");
    expect(dumps('"x"')).toBe('"x"');
  });

  test("keys sort by code point, astral keys after U+FFFF", () => {
    expect(dumps('{"b":1,"a":2,"B":3,"":4,"aa":5}')).toBe('{"": 4, "B": 3, "a": 2, "aa": 5, "b": 1}');
    expect(pythonJsonDumps({ "\u{1F600}": 1, "\uFFFF": 2, "\uE000": 3, z: 4 })).toBe(
      '{"z": 4, "\\ue000": 3, "\\uffff": 2, "\\ud83d\\ude00": 1}',
    );
    // A lone high surrogate is one code point, U+D83D, below U+E000 but above U+D7FF.
    expect(pythonJsonDumps({ "\uD83D\uDE00": 1, "\uD83D\uE000": 2, "\uD7FF": 3 })).toBe(
      '{"\\ud7ff": 3, "\\ud83d\\ue000": 2, "\\ud83d\\ude00": 1}',
    );
  });

  test("compareCodePoints agrees with sorting by code point arrays", () => {
    const keys = [
      "\uD83D",
      "\uD83D\uDE00",
      "\uD83D\uE000",
      "\uE000",
      "a\uDC00",
      "a\uFFFF",
      "a",
      "\u{10FFFF}",
      "",
    ];
    const byCodePoints = [...keys].sort((a, b) => {
      const x = [...a].map((c) => c.codePointAt(0)!);
      const y = [...b].map((c) => c.codePointAt(0)!);
      for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return x[i]! - y[i]!;
      return x.length - y.length;
    });
    expect([...keys].sort(compareCodePoints)).toEqual(byCodePoints);
  });

  test("deep nesting is iterative", () => {
    // The reader stops at 1000 levels; the writer must not depend on that.
    expect(dumps("[".repeat(1000) + "]".repeat(1000))).toBe("[".repeat(1000) + "]".repeat(1000));
    const depth = 50_000;
    let o: unknown = 1.5;
    for (let d = 0; d < depth; d++) o = { k: o };
    expect(pythonJsonDumps(o)).toBe('{"k": '.repeat(depth) + "1.5" + "}".repeat(depth));
  });

  test("circular and non-JSON values throw", () => {
    const a: unknown[] = [];
    a.push(a);
    expect(() => pythonJsonDumps(a)).toThrow(RangeError);
    expect(() => pythonJsonDumps([undefined])).toThrow(TypeError);
  });
});

describe("pythonJsonDumps: strings", () => {
  test("ensure_ascii escapes", () => {
    expect(pythonString('a"b\\c/')).toBe('"a\\"b\\\\c/"');
    expect(pythonString("\n\r\t\b\f")).toBe('"\\n\\r\\t\\b\\f"');
    expect(pythonString("\u0000\u001f\u007f\u0080")).toBe('"\\u0000\\u001f\\u007f\\u0080"');
    expect(pythonString("é€\uFEFF\u2028")).toBe('"\\u00e9\\u20ac\\ufeff\\u2028"');
    expect(pythonString("~ plain ASCII ~")).toBe('"~ plain ASCII ~"');
  });

  test("astral characters as surrogate pairs, lone surrogates as themselves", () => {
    expect(pythonString("\u{1F600}")).toBe('"\\ud83d\\ude00"');
    expect(pythonString("x\uD800y\uDFFF")).toBe('"x\\ud800y\\udfff"');
    expect(dumps('"\\ud83d\\ude00|\\ud83d|\\ude00"')).toBe('"\\ud83d\\ude00|\\ud83d|\\ude00"');
  });
});

describe("pythonJsonDumps: numbers", () => {
  test("integer lexemes stay exact Python ints", () => {
    expect(dumps("12345678901234567890123")).toBe("12345678901234567890123");
    expect(dumps("[-0, 0, 9007199254740993]")).toBe("[0, 0, 9007199254740993]");
    expect(dumps('{"n":-98765432109876543210}')).toBe('{"n": -98765432109876543210}');
  });

  test("float lexemes print as Python float repr", () => {
    expect(dumps("[1.0, -1.0, 100.0, 4.50, 1e5, 1E5, 1e-07, 2e-3, 1E+2, 0.0, -0.0]")).toBe(
      "[1.0, -1.0, 100.0, 4.5, 100000.0, 100000.0, 1e-07, 0.002, 100.0, 0.0, -0.0]",
    );
    expect(dumps("[1e16, 1e15, 1234567890123456.0, 12345678901234567.0, 1e-4, 1e-5, 1.5e300]")).toBe(
      "[1e+16, 1000000000000000.0, 1234567890123456.0, 1.2345678901234568e+16, 0.0001, 1e-05, 1.5e+300]",
    );
    expect(dumps("[1e400, -1e400, 1e-400, -1e-400, 5e-324]")).toBe(
      "[Infinity, -Infinity, 0.0, -0.0, 5e-324]",
    );
    expect(dumps("1.0")).toBe("1.0");
    expect(dumps("-0")).toBe("0");
  });

  test("numbers without lexemes", () => {
    expect(pythonJsonDumps([1, -2, 0.5, 1e21, 1e-7, 123.456, 0.0001, 0.00001, -0])).toBe(
      "[1, -2, 0.5, 1e+21, 1e-07, 123.456, 0.0001, 1e-05, 0]",
    );
    expect(pythonJsonDumps([NaN, Infinity, -Infinity])).toBe("[NaN, Infinity, -Infinity]");
  });

  test("pythonFloatRepr layout", () => {
    const cases: Array<[number, string]> = [
      [1, "1.0"],
      [1e15, "1000000000000000.0"],
      [9999999999999998, "9999999999999998.0"],
      [1e16, "1e+16"],
      [1.7976931348623157e308, "1.7976931348623157e+308"],
      [2.2250738585072014e-308, "2.2250738585072014e-308"],
      [0.1, "0.1"],
      [-0.00012, "-0.00012"],
      [0.000012, "1.2e-05"],
      [123e-20, "1.23e-18"],
      [-0, "-0.0"],
    ];
    for (const [v, s] of cases) expect(pythonFloatRepr(v)).toBe(s);
  });

  test("pythonFloatRepr lays out toExponential's digits as Python does, for any double", async () => {
    const fc = await import("fast-check");
    // The layout from toExponential's digits, which are String(v)'s: Python's rules written out plainly.
    const reference = (v: number): string => {
      if (Number.isInteger(v) && Math.abs(v) < 1e16) return (Object.is(v, -0) ? "-0" : String(v)) + ".0";
      const exp = Math.abs(v).toExponential();
      const e = exp.indexOf("e");
      const digits = exp[0] + exp.slice(2, e);
      const power = Number(exp.slice(e + 1));
      const sign = v < 0 ? "-" : "";
      if (power < -4 || power >= 16) return sign + exp.slice(0, e) + (power < 0 ? "e-" : "e+") + String(Math.abs(power)).padStart(2, "0");
      if (power < 0) return sign + "0." + "0".repeat(-power - 1) + digits;
      if (digits.length <= power + 1) return sign + digits + "0".repeat(power + 1 - digits.length) + ".0";
      return sign + digits.slice(0, power + 1) + "." + digits.slice(power + 1);
    };
    const scaled = fc.tuple(fc.double({ min: -10, max: 10, noNaN: true }), fc.integer({ min: -330, max: 310 })).map(([m, p]) => m * 10 ** p);
    fc.assert(
      fc.property(fc.oneof(fc.double({ noNaN: true, noDefaultInfinity: true }), scaled), (v) => {
        if (!Number.isFinite(v)) return;
        expect(pythonFloatRepr(v)).toBe(reference(v));
      }),
      { numRuns: 20_000 },
    );
  });
});

describe("pythonJsonDumps: vectors generated by CPython", () => {
  const vectors = JSON.parse(
    readFileSync(new URL("../../../test/fixtures/python-json-vectors.json", import.meta.url), "utf8"),
  ) as Array<{ json: string; dumps: string; sha256: string }>;

  test("the fixture is there", () => expect(vectors.length).toBeGreaterThanOrEqual(300));

  test.each(vectors.map((v, i) => [i, v] as const))("vector %i", (_i, v) => {
    const { value, numbers } = readJson(v.json);
    expect(pythonJsonDumps(value, numbers)).toBe(v.dumps);
    expect(pythonChecksum(value, numbers)).toBe(v.sha256);
  });

  test("checksum is the SHA-256 of the UTF-8 dumps", () => {
    const sha = createHash("sha256").update('{"a": [1.0]}').digest("hex");
    const { value, numbers } = readJson('{"a":[1.0]}');
    expect(pythonChecksum(value, numbers)).toBe(sha);
  });

  test("a text longer than the chunks it is hashed in hashes as a whole (strings, numbers, nesting across the seams)", async () => {
    const fc = await import("fast-check");
    const leaf = fc.oneof(fc.string({ unit: "binary", maxLength: 40 }), fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    const step = fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(leaf, fc.array(leaf, { maxLength: 4 })), { maxKeys: 6 });
    fc.assert(
      fc.property(fc.array(step, { minLength: 800, maxLength: 1600 }), (steps) => {
        const text = pythonJsonDumps(steps);
        expect(text.length).toBeGreaterThan(1 << 16);
        expect(pythonChecksum(steps)).toBe(createHash("sha256").update(text, "utf8").digest("hex"));
      }),
      { numRuns: 8 },
    );
  });
});
