import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { INVISIBLE, INVISIBLE_BEYOND_LATIN1, mixedScriptReason, mixedScriptWord } from "./lookalike.js";

/** Letters of one script each, none a compatibility form. */
const LATIN = [..."abcdefghijklmnopqrstuvwxyzABCXYZ\u00e9\u00e8\u00fc\u00df\u00f8\u00f1"];
const CYRILLIC = [..."\u0430\u0431\u0432\u0433\u0434\u0435\u0436\u0437\u0438\u0439\u043a\u043b\u043c\u043d\u043e\u043f\u0440\u0441\u0442\u0443\u0444\u0445\u0446\u0447\u0448\u0449\u044b\u044d\u044e\u044f\u0451\u0410\u0411\u0412\u0416\u042f\u0455\u0456\u0458"];
const GREEK = [..."\u03b1\u03b2\u03b3\u03b4\u03b5\u03b6\u03b7\u03b8\u03b9\u03ba\u03bb\u03bc\u03bd\u03be\u03bf\u03c0\u03c1\u03c3\u03c4\u03c5\u03c6\u03c7\u03c8\u03c9\u03a3\u03a9"];
const HAN_KANA = [..."\u8a2d\u5b9a\u4ed5\u69d8\u65e5\u672c\u8a9e\u30c7\u30fc\u30bf\u30d5\u30a1\u30a4\u30eb\u306e\u3092"];
/** Cyrillic and Greek letters drawn like Latin ones, with the Latin letter each passes for. */
const LOOKALIKES: [string, string][] = [["\u0430", "a"], ["\u0435", "e"], ["\u043e", "o"], ["\u0440", "p"], ["\u0441", "c"], ["\u0445", "x"], ["\u0443", "y"], ["\u0456", "i"], ["\u0455", "s"], ["\u03bf", "o"], ["\u03b1", "a"], ["\u03c1", "p"]];
/** Digits belong to a word (`v2\u0455` mixes scripts as `v\u0455` does), so they are no separators here. */
const SEPARATORS = ["/", ".", "_", "-", " ", "@"];

const word = (letters: string[]) => fc.array(fc.constantFrom(...letters), { minLength: 1, maxLength: 8 }).map((l) => l.join(""));
/** A path of words, each of one script, joined by separators. */
const oneScriptWords = fc
  .array(fc.tuple(fc.oneof(word(LATIN), word(CYRILLIC), word(GREEK), word(HAN_KANA)), fc.constantFrom(...SEPARATORS)), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.map(([w, s]) => w + s).join(""));

describe("mixedScriptReason and mixedScriptWord", () => {
  it("leave plain ASCII alone", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 40 }), (text) => {
        expect(mixedScriptReason(text)).toBeUndefined();
        expect(mixedScriptWord(text)).toBeUndefined();
      }),
    );
  });

  it("leave paths whose words are each of one script alone, Han and kana beside Latin included", () => {
    fc.assert(
      fc.property(oneScriptWords, (text) => {
        expect(mixedScriptReason(text)).toBeUndefined();
        expect(mixedScriptWord(text)).toBeUndefined();
      }),
      { numRuns: 2000 },
    );
  });

  it("find a Cyrillic or Greek look-alike put into a Latin word, and read it as the Latin word", () => {
    fc.assert(
      fc.property(oneScriptWords, fc.stringMatching(/^[a-z]{1,8}$/), fc.nat(), fc.constantFrom(...LOOKALIKES), (around, latin, at, [lookalike, plain]) => {
        const i = at % (latin.length + 1);
        const mixed = latin.slice(0, i) + lookalike + latin.slice(i);
        const text = `${around}/${mixed}.py`;
        const found = mixedScriptReason(text);
        // The first word at fault is reported: a word of `around` cannot be one.
        expect(found).toMatchObject({ word: mixed, why: "mixed" });
        expect(found!.reads.endsWith(`/${latin.slice(0, i)}${plain}${latin.slice(i)}.py`)).toBe(true);
        expect(mixedScriptWord(text)).toMatchObject({ word: mixed, reads: latin.slice(0, i) + plain + latin.slice(i) });
      }),
      { numRuns: 2000 },
    );
  });

  it("find a full-width or styled letter beside plain ones, not a name all in full-width forms", () => {
    expect(mixedScriptReason("\uff53rc/a.py")).toMatchObject({ word: "\uff53rc", why: "compatibility", reads: "src/a.py" });
    expect(mixedScriptReason("docs/\u{1d41a}pi.md")).toMatchObject({ why: "compatibility", reads: "docs/api.md" });
    expect(mixedScriptReason("\uff21\uff30\uff29\u4ed5\u69d8.md")).toBeUndefined();
    expect(mixedScriptReason("donn\u00e9es/\u00e9.txt")).toBeUndefined();
    expect(mixedScriptReason("v2\u0455/a.py")).toMatchObject({ word: "v2\u0455", why: "mixed", reads: "v2s/a.py" });
  });
});

describe("INVISIBLE_BEYOND_LATIN1", () => {
  it("with a search for the soft hyphen, finds what INVISIBLE finds", () => {
    const unit = fc.oneof(fc.constantFrom("a", " ", "\u00ad", "\u00e9", "\u034f", "\u200b", "\u3164", "\ufe0f", "\u{e0041}", "\u{e0100}", "\ud83d"), fc.string({ unit: "binary", maxLength: 2 }));
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 12 }).map((u) => u.join("")), (text) => {
        expect(INVISIBLE_BEYOND_LATIN1.test(text) || text.includes("\u00ad")).toBe(INVISIBLE.test(text));
      }),
      { numRuns: 3000 },
    );
  });
});
