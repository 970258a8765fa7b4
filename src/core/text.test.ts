import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutFromColon, firstBracketed, hasTerminator, replaceBracketed, trimEndOf } from "./text.js";

// Text made of the characters the expressions care about, so that runs, brackets and terminators meet.
const text = fc.array(fc.constantFrom("[", "]", ":", ".", " ", "\n", "\r", "\u2028", "\u2029", "a", "x", "é", "\ud83d\ude00", "\ud800"), { maxLength: 40 }).map((p) => p.join(""));
const RUNS = { numRuns: 3000 };

describe("linear text scans give the expressions' results", () => {
  it("trimEndOf", () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(trimEndOf(s, "\n")).toBe(s.replace(/\n+$/, ""));
        expect(trimEndOf(s, ". ")).toBe(s.replace(/[. ]+$/, ""));
        expect(trimEndOf(s, "/")).toBe(s.replace(/\/+$/, ""));
      }),
      RUNS,
    );
  });
  it("replaceBracketed", () => {
    fc.assert(
      fc.property(text, (s) => {
        const fill = (b: string) => `<${b.length}${b[0] ?? "-"}>`;
        expect(replaceBracketed(s, fill)).toBe(s.replace(/\[([^\]]*)\]/g, (_, b: string) => fill(b)));
      }),
      RUNS,
    );
  });
  it("firstBracketed", () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(firstBracketed(s)).toBe(/\[([^\]]+)\]/.exec(s)?.[1]);
      }),
      RUNS,
    );
  });
  it("cutFromColon and hasTerminator", () => {
    fc.assert(
      fc.property(text, (s) => {
        expect(cutFromColon(s)).toBe(s.replace(/:.*$/, ""));
        expect(hasTerminator(s)).toBe(!/^.*$/.test(s));
      }),
      RUNS,
    );
  });
  it("a long run costs one pass (the expressions take seconds on these)", () => {
    const n = 400_000;
    expect(trimEndOf("\n".repeat(n) + "x", "\n")).toHaveLength(n + 1);
    expect(trimEndOf(".".repeat(n) + "x", ". ")).toHaveLength(n + 1);
    expect(replaceBracketed("[".repeat(n) + "x", () => "")).toHaveLength(n + 1);
    expect(firstBracketed("[".repeat(n))).toBeUndefined();
    expect(cutFromColon(":".repeat(n) + "\n")).toHaveLength(n + 1);
  });
});

describe("readers and formatters that scan text in one pass read as the expressions did", () => {
  const fenceText = fc
    .array(fc.constantFrom("~", "`", " ", "\t", "\u2028", "\r", "x", "#", "\n"), { maxLength: 30 })
    .map((p) => p.join(""));
  it("TeDDy's fence repair", async () => {
    const { teddyPreprocess } = await import("../syntax/teddy-preprocess.js");
    const FENCE = /^(\s*)(~{6,}|`{6,})(.*)$/;
    const reference = (text: string) =>
      text
        .split("\n")
        .map((line) => {
          const cr = line.endsWith("\r") ? "\r" : "";
          const m = FENCE.exec(cr ? line.slice(0, -1) : line);
          if (!m || m[3]!.trim() === "" || /[`~]/.test(m[3]!)) return line;
          return m[1]! + m[2]! + cr;
        })
        .join("\n");
    const runs = fc.tuple(fenceText, fc.constantFrom("~~~~~~", "``````", "~~~~~~~~", "~~~~~"), fenceText).map(([a, f, b]) => a + f + b);
    fc.assert(
      fc.property(fc.oneof(fenceText, runs), (t) => {
        expect(teddyPreprocess(t)).toBe(reference(t));
      }),
      RUNS,
    );
    expect(teddyPreprocess("~~~~~~" + "~".repeat(400_000) + "\u2028x")).toHaveLength(400_008);
  });
  it("the planner's feedback sentences", async () => {
    const { forPlanner } = await import("../formatters/feedback.js");
    const OPERATOR = /polic(?:y|ies)|--[a-z]|trusted/;
    const reference = (text: string) => {
      let t = text;
      for (let i = 0; i < 3; i++) t = t.replace(/\s*\([^()]*\)/g, (m) => (OPERATOR.test(m) ? "" : m));
      const clauses = t.split(/(;\s+|,\s+or\s+|\s+or\s+(?=(?:set|raise|pass|add|write tools|choose another --)\b))/);
      const kept: string[] = [];
      for (let i = 0; i < clauses.length; i += 2) {
        const clause = clauses[i]!;
        if (clause.trim() === "" || OPERATOR.test(clause)) continue;
        if (kept.length > 0) kept.push(/^;/.test(clauses[i - 1] ?? "") ? "; " : ", or ");
        kept.push(clause);
      }
      return kept.join("").trim();
    };
    const words = fc
      .array(fc.constantFrom(" ", "  ", "\n", "(", ")", "(the policy)", ";", ",", " or ", "or", "set", "raise", "x", "--x", "do it"), { maxLength: 25 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(words, (t) => {
        expect(forPlanner(t, OPERATOR)).toBe(reference(t));
      }),
      RUNS,
    );
    expect(forPlanner("a" + " ".repeat(400_000) + "b", OPERATOR)).toHaveLength(400_002);
  });
});

describe("expressions rewritten to scan a run once match as they did", () => {
  const chars = (cs: string[]) => fc.array(fc.constantFrom(...cs), { maxLength: 30 }).map((p) => p.join(""));
  it("a subscript holding $ or ` (the shell's evaluated builtins)", () => {
    const s = chars(["[", "]", "$", "`", "a", "(", " "]);
    fc.assert(
      fc.property(s, (t) => {
        expect(/\[[^\][$`]*[$`]/.test(t)).toBe(/\[[^\]]*[$`]/.test(t));
      }),
      RUNS,
    );
  });
  it("numbers with a base or in hex taken out of arithmetic", () => {
    const s = chars(["0", "1", "9", "x", "X", "#", "a", "F", "@", "_", "-", " "]);
    fc.assert(
      fc.property(s, (t) => {
        expect(t.replace(/0[xX][0-9A-Fa-f]+|(?<!\d)\d+#[0-9A-Za-z@_]+/g, "")).toBe(t.replace(/0[xX][0-9A-Fa-f]+|\d+#[0-9A-Za-z@_]+/g, ""));
      }),
      RUNS,
    );
  });
  it("tool names joined by a separator", () => {
    const s = chars([" ", "\t", "&", "|", ";", ",", "+", "and", "then", "a", "x"]);
    fc.assert(
      fc.property(s, (t) => {
        expect(/&&|\|\||[;,|&+]|\s(?:and|then)\s/.test(t)).toBe(/\s*(?:&&|\|\||[;,|&+]|\s(?:and|then)\s)\s*/.test(t));
      }),
      RUNS,
    );
  });
});

describe("the feedback's \"add … there\" test", () => {
  it("answers as /\\badd\\b[^.;]*\\bthere\\b/ does, in one pass", async () => {
    const { addsThere } = await import("../formatters/feedback.js");
    const words = fc
      .array(fc.constantFrom("add", "there", "x", "a", " ", ".", ";", "_", "addthere", "theres", "re", "ad", "d"), { maxLength: 25 })
      .map((p) => p.join(""));
    fc.assert(
      fc.property(words, (t) => {
        expect(addsThere(t)).toBe(/\badd\b[^.;]*\bthere\b/.test(t));
      }),
      RUNS,
    );
    expect(addsThere("add ".repeat(100_000) + "x")).toBe(false);
    expect(addsThere("add.".repeat(100_000) + "x")).toBe(false);
    expect(addsThere("add ".repeat(100_000) + "there")).toBe(true);
  });
});
