import { describe, expect, it } from "vitest";
import { loadTokenCounter, setEncodingImporter } from "../../orchestration/tokens.js";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

describe("summary-too-long", () => {
  it("reports a summary of 100 tokens or more, with the count", async () => {
    const o200k = await loadTokenCounter("o200k_base");
    const summary = "Analyzed the lemma and found it false. ".repeat(12);
    const n = o200k.count(summary);
    expect(n).toBeGreaterThanOrEqual(100);
    const r = await ret(goodReturn({ summary }));
    expect(rules(r)).toEqual(["summary-too-long"]);
    expect(r.diagnostics[0]).toMatchObject({ actual: n, expected: "< 100", pointer: "/summary" });
    expect(r.return?.summaryTokens).toBe(n);
  });
  it("counts tokens, not words: exactly at the limit is too long, one under passes", async () => {
    const o200k = await loadTokenCounter("o200k_base");
    let summary = "";
    while (o200k.count(`${summary} a`) < 100) summary += " a";
    expect(o200k.count(summary)).toBe(99);
    expect(rules(await ret(goodReturn({ summary })))).toEqual([]);
    expect(rules(await ret(goodReturn({ summary: `${summary} a` })))).toEqual(["summary-too-long"]);
    // 30 words that are many tokens each: a word count would pass it.
    const dense = Array.from({ length: 30 }, () => "Σ∀∃λ→⊢⊥").join(" ");
    expect(rules(await ret(goodReturn({ summary: dense })))).toEqual(["summary-too-long"]);
  });
  it("takes the limit and encoding from the options or the policy", async () => {
    const summary = "Created the implementation plan with three phases for the parser.";
    expect(rules(await ret(goodReturn({ summary }), { maxSummaryTokens: 5 }))).toEqual(["summary-too-long"]);
    const cl = await ret(goodReturn({ summary }), { maxSummaryTokens: 5, encoding: "cl100k_base" });
    expect(cl.diagnostics[0]!.message).toContain("cl100k_base");
    expect(rules(await ret(goodReturn({ summary })))).toEqual([]);
  });
  it("counts a megabyte-long run of one character in linear time (one pre-token is quadratic to encode)", async () => {
    // Byte-pair encoding costs the square of each pre-token's length, and a run of one character is one
    // pre-token: the squared lengths of the texts handed to the encoder bound its work.
    let squares = 0;
    const prev = setEncodingImporter(async (e) => {
      const m = await prev(e);
      return {
        countTokens: (text: string, options?: { disallowedSpecial?: Set<string> }) => {
          squares += text.length ** 2;
          return m.countTokens(text, options);
        },
      };
    });
    try {
      for (const ch of ["a", " ", "漢", "😀"]) {
        const summary = ch.repeat((1 << 20) / ch.length);
        squares = 0;
        const r = await ret(goodReturn({ summary }));
        expect(rules(r)).toEqual(["summary-too-long"]);
        expect(r.return?.summaryTokens).toBeGreaterThan(1000);
        // Pieces of some 50 code units: about 50 a unit, where the run in one piece is a million.
        expect(squares / summary.length, ch).toBeLessThan(100);
      }
    } finally {
      setEncodingImporter(prev);
    }
  });
  it("counts ordinary text exactly, long URLs included", async () => {
    const o200k = await loadTokenCounter("o200k_base");
    const { countTokens } = await import("gpt-tokenizer/encoding/o200k_base");
    for (const text of ["The quick brown fox. ".repeat(2000), `see https://example.com/${"a/b-c_d".repeat(40)} for details`, "漢".repeat(3000)])
      expect(o200k.count(text)).toBe(countTokens(text));
  });
  it("counts special-token spellings as the text they are, not as an error", async () => {
    const o200k = await loadTokenCounter("o200k_base");
    expect(o200k.count("hi <|endoftext|> there")).toBeGreaterThan(5);
    const r = await ret(goodReturn({ summary: "Done. <|endoftext|><|im_start|>system" }));
    expect(rules(r)).toEqual([]);
  });
  it("refuses an unknown encoding instead of counting with another", async () => {
    await expect(loadTokenCounter("gpt5_base")).rejects.toThrow(/unknown tokenizer encoding/);
  });
});

kindRuleTester("summary-too-long", "return", {
  text: (input) => input.text,
  valid: [
    { name: "under the limit", input: returnInput(good(), { summaryTokens: 99 }) },
    { name: "not measured", input: returnInput(good()) },
    { name: "a limit of 0 measures nothing", input: returnInput(good(), { summaryTokens: 500, expect: { maxSummaryTokens: 0 } }) },
  ],
  invalid: [
    {
      name: "at or over the limit",
      input: returnInput(good(), { summaryTokens: 100 }),
      errors: [{ messageId: "tooLong", pointer: "/summary", line: 3, column: 3, message: "Summary is 100 tokens (o200k_base); it must stay under 100.", expected: "< 100", actual: 100 }],
    },
  ],
});
