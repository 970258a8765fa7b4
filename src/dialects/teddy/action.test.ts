import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { headingWord } from "./action.js";
import { cpuBound } from "../../../test/cpu-time.js";

/** The straightforward reading: the leading and trailing runs of other characters removed by one pattern. */
const byPattern = (text: string) => text.replace(/^[^\p{L}\p{N}_]+|[^\p{L}\p{N}_]+$/gu, "");

describe("headingWord", () => {
  it("reads a heading as the pattern does, lone surrogates and pairs included", () => {
    const unit = fc.constantFrom("`", "*", ":", " ", "\t", "!", "_", "a", "É", "٣", "𝐀", "🙂", "\ud835", "\udc00", "\ud83d", "READ", "FIND");
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 16 }), (parts) => {
        const text = parts.join("");
        expect(headingWord(text)).toBe(byPattern(text));
      }),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(fc.string({ unit: "binary", maxLength: 20 }), (text) => {
        expect(headingWord(text)).toBe(byPattern(text));
      }),
    );
    expect(headingWord("`READ**")).toBe("READ");
    expect(headingWord("`FIND:`")).toBe("FIND");
    expect(headingWord("** `")).toBe("");
  });

  it("takes time in proportion to the heading's length", () => {
    const long = `a${"! ".repeat(200_000)}b`;
    const start = process.cpuUsage();
    expect(headingWord(long)).toBe(long);
    const used = process.cpuUsage(start);
    expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(1000));
  });
});
