import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EditedText } from "./edited-text.js";
import { occurrences } from "./teddy-facts.js";

/** The straightforward count on the joined bytes: every start, overlapping ones included. */
function plainOccurrences(hay: Buffer, needle: Buffer, max = Infinity): number[] {
  const out: number[] = [];
  if (needle.length === 0) return out;
  for (let i = hay.indexOf(needle); i >= 0 && out.length <= max; i = hay.indexOf(needle, i + 1)) out.push(i);
  return out;
}

const bytes = (s: string) => Buffer.from(s, "utf8");
/** Few letters, so that matches overlap and span the joins; CR and LF, a multi-byte character. */
const text = fc.array(fc.constantFrom("a", "b", "ab", "\n", "\r\n", "é", "aa"), { maxLength: 24 }).map((p) => p.join(""));

describe("EditedText", () => {
  it("finds what the joined bytes hold, across joins, after any series of replacements", () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(6), text), { maxLength: 8 }), fc.array(text, { minLength: 1, maxLength: 6 }), fc.nat(4), (start, edits, needles, max) => {
        let plain = bytes(start);
        const edited = new EditedText(bytes(start));
        for (const [at, len, replacement] of edits) {
          const index = plain.length === 0 ? 0 : at % (plain.length + 1);
          const length = Math.min(len, plain.length - index);
          plain = Buffer.concat([plain.subarray(0, index), bytes(replacement), plain.subarray(index + length)]);
          edited.replace(index, length, bytes(replacement));
          expect(edited.length).toBe(plain.length);
          for (const n of needles) {
            expect(edited.occurrences(bytes(n))).toEqual(plainOccurrences(plain, bytes(n)));
            expect(edited.occurrences(bytes(n), max)).toEqual(plainOccurrences(plain, bytes(n), max));
            expect(edited.includes(bytes(n))).toBe(plain.includes(bytes(n)) && n !== "");
          }
        }
        expect(edited.bytes().equals(plain)).toBe(true);
      }),
      { numRuns: 400 },
    );
  });

  it("agrees with the count on text, overlapping matches included, and finds nothing for an empty needle", () => {
    fc.assert(
      fc.property(text, text, (hay, needle) => {
        const onText = occurrences(hay, needle).map((i) => Buffer.byteLength(hay.slice(0, i), "utf8"));
        expect(new EditedText(bytes(hay)).occurrences(bytes(needle))).toEqual(onText);
      }),
    );
    expect(new EditedText(bytes("aaa")).occurrences(bytes("aa"))).toEqual([0, 1]);
    expect(new EditedText(bytes("abc")).occurrences(bytes(""))).toEqual([]);
  });

  it("searches for a needle as long as the text or longer", () => {
    const edited = new EditedText(bytes("abcabc"));
    edited.replace(3, 0, bytes("x"));
    expect(edited.occurrences(bytes("abcxabc"))).toEqual([0]);
    expect(edited.occurrences(bytes("abcxabcd"))).toEqual([]);
    expect(edited.occurrences(bytes("bcxab"))).toEqual([1]);
    expect(edited.length).toBe(7);
  });

  it("keeps many edits apart only up to a bound, then joins them", () => {
    const edited = new EditedText(bytes("x".repeat(200)));
    let plain = "x".repeat(200);
    for (let i = 0; i < 100; i++) {
      edited.replace(i * 2, 1, bytes("yz"));
      plain = plain.slice(0, i * 2) + "yz" + plain.slice(i * 2 + 1);
    }
    expect(edited.bytes().toString()).toBe(plain);
    expect(edited.occurrences(bytes("zy"))).toEqual(plainOccurrences(bytes(plain), bytes("zy")));
  });
});
