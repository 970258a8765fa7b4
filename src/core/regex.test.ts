import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileSafePattern, MAX_PATTERN_LENGTH, schemaPatterns, toRe2Syntax } from "./regex.js";
import { cpuBound } from "../../test/cpu-time.js";

const run = (pattern: string, s: string): boolean => {
  const c = compileSafePattern(pattern);
  if ("error" in c) throw new Error(c.error);
  return c.test(s);
};

describe("registry patterns (RE2)", () => {
  it("answers catastrophic-backtracking patterns at once", () => {
    for (const [p, s] of [
      ["^(a+)+$", `${"a".repeat(35)}!`],
      ["^(a|a)*$", `${"a".repeat(35)}!`],
      ["^(a|aa)+$", `${"a".repeat(40)}!`],
      ["^([a-zA-Z0-9]+\\s?)*$", `${"a".repeat(40)}!`],
      ["^(\\w+\\.?)+@", `${"a".repeat(5000)}`],
      ["(x+x+)+y", "x".repeat(10_000)],
    ] as const) {
      const started = process.cpuUsage();
      expect(run(p, s)).toBe(false);
      const used = process.cpuUsage(started);
      expect((used.user + used.system) / 1000, p).toBeLessThan(cpuBound(1000));
    }
  });

  it.each([
    ["(a)\\1", "backreference"],
    ["(?<x>a)\\k<x>", "named backreference"],
    ["(?=a)a", "lookahead"],
    ["(?!a)b", "lookahead"],
    ["(?<=a)b", "lookbehind"],
    ["(?<!a)b", "lookbehind"],
    ["[\\S]", "\\S inside a character class"],
    ["a{1001}", "invalid repeat count"],
    ["(a", "Invalid regular expression"],
    ["\\z", "Invalid regular expression"],
    ["[[:alpha:]]", "Invalid regular expression"],
    ["\\p{Script_Extensions=Greek}", "the property"],
    ["a".repeat(MAX_PATTERN_LENGTH + 1), "characters long"],
  ])("refuses %j (%s)", (pattern, why) => {
    const c = compileSafePattern(pattern);
    expect("error" in c && c.error).toContain(why);
  });

  it("reads what ECMAScript and RE2 spell differently as ECMAScript does", () => {
    expect(toRe2Syntax("\\u00e9\\u{1F600}\\ud83d\\ude00")).toBe("\\x{E9}\\x{1F600}\\x{1F600}");
    expect(run("^.$", "\r")).toBe(false);
    expect(run("^.$", "\u2028")).toBe(false);
    expect(run("^\\s$", "\u00a0")).toBe(true);
    expect(run("^\\S+$", "a\u00a0b")).toBe(false);
    expect(run("^[^]$", "\n")).toBe(true);
    expect(run("[]", "anything")).toBe(false);
    expect(run("^[[]$", "[")).toBe(true);
    expect(run("^[\\b]$", "\b")).toBe(true);
    expect(run("^\\cJ$", "\n")).toBe(true);
    expect(run("^.$", "😀")).toBe(true);
    expect(run("^\\p{Script=Greek}+$", "αβγ")).toBe(true);
  });

  // Patterns both engines accept: on any string they must agree with JavaScript's own reading.
  const SAME = [
    "^.*$", "^.+$", "^\\s*$", "^\\S+$", "^[\\s\\d]+$", "^[^\\s]+$", "\\bword\\b", "^\\w+$", "^\\d{2,4}$", "^[a-z0-9_-]+$",
    "^(a+)+$", "^[^]*$", "^\\u00e9+$", "^[\\u0041-\\u005a]+$", "^\\p{L}+$", "^\\P{L}*$", "^\\p{Lu}", "[.]", "a|b|", "^(?:ab|a)*b?$",
    "^[\\[\\]]+$", "^\\/path\\/", "^\\x41\\0", "^(?<name>x)y", "^.$", "^..$", "\\D\\W", "^[\\w.-]+@[\\w.-]+$", "^[^\\n]*$", "$",
  ];
  const alphabet = ["a", "b", "A", "x", "y", "1", "_", "-", ".", "@", "/", "[", "]", " ", "\t", "\n", "\r", "\v", "\f", "\u00a0", "\u2028", "\u2029", "\ufeff", "\u3000", "é", "α", "😀", "\0", "word"];
  it("agrees with JavaScript on every pattern both accept (property)", () => {
    fc.assert(
      fc.property(fc.constantFrom(...SAME), fc.array(fc.constantFrom(...alphabet), { maxLength: 12 }), (p, parts) => {
        const s = parts.join("");
        expect(run(p, s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`).toBe(new RegExp(p, "u").test(s));
      }),
      { numRuns: 3000 },
    );
  });

  it("finds pattern values and patternProperties keys, not data or property names", () => {
    const schema = {
      type: "object",
      properties: { pattern: { type: "string", pattern: "^a$" }, default: { pattern: "^b$" }, enum: { type: "string" } },
      patternProperties: { "^x-": { type: "string" } },
      propertyNames: { pattern: "^[a-z]+$" },
      items: [{ pattern: "^c$" }],
      $defs: { d: { anyOf: [{ pattern: "^d$" }] } },
      default: { pattern: "(a)\\1" },
      examples: [{ pattern: "(a)\\1" }],
      const: { pattern: "(a)\\1" },
    };
    expect(schemaPatterns(schema).map((p) => `${p.pointer} ${p.pattern}`).sort()).toEqual(
      [
        "/$defs/d/anyOf/0/pattern ^d$",
        "/items/0/pattern ^c$",
        "/patternProperties/^x- ^x-",
        "/properties/default/pattern ^b$",
        "/properties/pattern/pattern ^a$",
        "/propertyNames/pattern ^[a-z]+$",
      ].sort(),
    );
  });

  const PIECES = ["a", "b", "(", ")", "(?:", "(?=", "(?<=", "(?<n>", "+", "*", "?", "{2}", "{1000}", "{2,}", "|", ".", "^", "$", "[", "]", "[^", "-", "\\", "\\1", "\\s", "\\S", "\\d", "\\b", "\\u0041", "\\u{1F600}", "\\p{L}", "\\k<n>", "\\c", "\\0", "\\x41", "é", "😀"];
  it("never throws and always answers at once, whatever the pattern (property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 16 }), fc.array(fc.constantFrom("a", "b", "!", "\n", "😀"), { maxLength: 40 }), (parts, input) => {
        const p = parts.join("");
        const started = process.cpuUsage();
        const c = compileSafePattern(p);
        if (!("error" in c)) {
          c.test(input.join(""));
          c.test(`${"a".repeat(40)}!`);
          // What compiles for RE2 was accepted by JavaScript's parser too.
          expect(() => new RegExp(p, "u")).not.toThrow();
        } else expect(c.error.length).toBeGreaterThan(0);
        const used = process.cpuUsage(started);
        expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(500));
      }),
      { numRuns: 2000 },
    );
  });

  it("agrees with JavaScript on random patterns both accept, on short strings (differential property)", () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 12 }), fc.array(fc.constantFrom("a", "b", "A", "1", " ", "\n", "\r", "\u00a0", "\u2028", "😀", "é", "-", "["), { maxLength: 8 }), (parts, input) => {
        const p = parts.join("");
        const c = compileSafePattern(p);
        if ("error" in c) return;
        const s = input.join("");
        expect(c.test(s), `${JSON.stringify(p)} on ${JSON.stringify(s)}`).toBe(new RegExp(p, "u").test(s));
      }),
      { numRuns: 5000 },
    );
  });
});
