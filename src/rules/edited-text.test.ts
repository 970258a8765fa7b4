import { Buffer } from "node:buffer";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cpuBound, cpuTimed } from "../../test/cpu-time.js";
import { EditedText, Finder } from "./edited-text.js";
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

describe("Finder", () => {
  const needle = fc.array(fc.constantFrom("a", "b", "ab", "aa", "é"), { minLength: 0, maxLength: 8 }).map((p) => p.join(""));

  it("finds with KMP what the native search finds: every occurrence, the non-overlapping ones, below a bound", () => {
    fc.assert(
      fc.property(text, needle, fc.nat(4), fc.nat(30), (hay, n, max, until) => {
        const h = bytes(hay);
        const kmp = new Finder(bytes(n), 0);
        const native = new Finder(bytes(n));
        expect(kmp.find(h)).toEqual(plainOccurrences(h, bytes(n)));
        expect(kmp.find(h, max)).toEqual(native.find(h, max));
        expect(kmp.find(h, Infinity, until)).toEqual(native.find(h, Infinity, until));
        expect(kmp.find(h, Infinity, Infinity, false)).toEqual(native.find(h, Infinity, Infinity, false));
      }),
      { numRuns: 1000 },
    );
  });

  it("finds through an edited text with KMP as with the native search", () => {
    fc.assert(
      fc.property(text, fc.array(fc.tuple(fc.nat(), fc.nat(6), text), { maxLength: 6 }), needle, (start, edits, n) => {
        const edited = new EditedText(bytes(start));
        for (const [at, len, replacement] of edits) {
          const index = edited.length === 0 ? 0 : at % (edited.length + 1);
          edited.replace(index, Math.min(len, edited.length - index), bytes(replacement));
        }
        expect(edited.occurrences(new Finder(bytes(n), 0))).toEqual(edited.occurrences(bytes(n)));
      }),
      { numRuns: 500 },
    );
  });

  it("searches a long needle in time linear in the text: a FIND the native search took seconds over", () => {
    // 128 KiB of `a` with a `b` in the middle, against a MiB of `a`: 15 s with Buffer#indexOf.
    const hay = new EditedText(Buffer.alloc(1024 * 1024, 0x61));
    const find = Buffer.concat([Buffer.alloc(64 * 1024, 0x61), bytes("b"), Buffer.alloc(64 * 1024, 0x61)]);
    hay.occurrences(bytes("warm up"));
    const { value, ms } = cpuTimed(() => hay.occurrences(find));
    expect(value).toEqual([]);
    expect(ms).toBeLessThan(cpuBound(2000));
    // Every overlapping occurrence of a long needle, each found in constant time after the first.
    const run = Buffer.alloc(300, 0x61);
    const { value: hits, ms: hitsMs } = cpuTimed(() => hay.occurrences(run, 100_000));
    expect(hits.length).toBe(100_001);
    expect(hitsMs).toBeLessThan(cpuBound(2000));
  });
});
