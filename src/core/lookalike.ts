import { type PathWhy, why } from "./place.js";
/**
 * Bidi controls, zero-width and other characters that show nothing: text that reads differently from what
 * a program compares. Besides the bidi and zero-width controls, the soft hyphen, the combining grapheme
 * joiner, variation selectors (Mongolian ones too), tag characters, the interlinear annotation controls,
 * the Hangul fillers, the Khmer inherent vowels, the blank braille pattern and the musical format
 * controls: each can sit inside a name unseen (`pa` U+00AD `th`, `.e` U+3164 `nv`).
 */
export const INVISIBLE =
  /[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/**
 * INVISIBLE without the soft hyphen, the one of them below U+0100. V8 answers a class with nothing below
 * U+0100 at once on a one-byte string (an ASCII or Latin-1 plan), where INVISIBLE scans it (13 us on a
 * 20 KB plan): a whole text is tested with this and `indexOf("\u00ad")`.
 */
export const INVISIBLE_BEYOND_LATIN1 =
  /[\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\u{1d173}-\u{1d17a}\u{e0000}-\u{e007f}\u{e0100}-\u{e01ef}]/u;

/** Letters of other scripts that render like Latin ones (the common homoglyphs of tool-name attacks). */
const CONFUSABLES: Record<string, string> = {
  а: "a", в: "b", е: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x", ѕ: "s", і: "i", ј: "j", ԁ: "d", ӏ: "l", һ: "h", ԛ: "q", ԝ: "w",
  А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", Х: "X", І: "I", Ј: "J", Ѕ: "S",
  α: "a", ο: "o", ρ: "p", ν: "v", τ: "t", ι: "i", κ: "k", χ: "x", υ: "u", ε: "e",
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
};

/** Plain ASCII: one script, nothing invisible, nothing to fold but case (the common case, kept fast). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;
const NOT_ASCII = /[^\x00-\x7f]/;

/** A name's skeleton: NFKC, invisible characters removed, homoglyphs folded to Latin, lower case. */
export function skeleton(name: string): string {
  return PRINTABLE_ASCII.test(name) ? name.toLowerCase() : foldLetters(name).toLowerCase();
}

/**
 * A name as a program that normalises it may read it, case kept: NFKC (`content` in full-width letters is
 * `content`), invisible characters removed, homoglyphs folded to Latin (`content` with a Cyrillic U+043E).
 */
export function foldLetters(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return name;
  const visible = name.normalize("NFKC").replace(new RegExp(INVISIBLE.source, "gu"), "");
  let out = "";
  for (const ch of visible) out += CONFUSABLES[ch] ?? ch;
  return out;
}

/**
 * A tool name with case, separators (`_`, `-`, `.`, `:`, `/`, spaces) and look-alike letters folded away:
 * `sequential-thinking`, `Sequential_Thinking` and `sequentialthinking` are one name to a reader, and to a planner.
 */
export function looseName(name: string): string {
  return skeleton(name).replace(/[\s_\-.:/]+/g, "");
}

/** The scripts of a name's letters (Latin, Cyrillic, Greek, …), digits and punctuation left out. */
export function scriptsOf(name: string): Set<string> {
  const scripts = new Set<string>();
  for (const ch of name) {
    if (!/\p{L}/u.test(ch)) continue;
    if (/\p{Script=Latin}/u.test(ch)) scripts.add("Latin");
    else if (/\p{Script=Cyrillic}/u.test(ch)) scripts.add("Cyrillic");
    else if (/\p{Script=Greek}/u.test(ch)) scripts.add("Greek");
    else if (/\p{Script=Armenian}/u.test(ch)) scripts.add("Armenian");
    else if (/\p{Script=Han}/u.test(ch)) scripts.add("Han");
    else scripts.add("other");
  }
  return scripts;
}

/** Why a tool name is a look-alike of another, or undefined when it reads as what it is. */
export function lookalikeReason(name: string): string | undefined {
  if (PRINTABLE_ASCII.test(name)) return undefined;
  if (INVISIBLE.test(name)) return "holds invisible or bidi control characters";
  const scripts = scriptsOf(name);
  if (scripts.size > 1) return `mixes scripts (${[...scripts].sort().join(" and ")})`;
  if (name !== name.normalize("NFKC")) return "uses compatibility characters (full-width or styled letters)";
  return undefined;
}

/**
 * Characters that render as `/`, `\` or `.` without being them: some executors (NFKC-normalising file
 * systems, Windows "best fit" code pages) turn them into the real separator or dot, others do not, so
 * `..∕..∕etc` can read as a name to plangate and as `../../etc` to the executor. The full-width and
 * small forms fold to ASCII under NFKC; the others (division slash, fraction slash, set minus, …) are
 * listed by hand.
 */
const PATH_LOOKALIKES = new Set([
  // solidus look-alikes
  0x2215, 0x2044, 0x29f8, 0x2571, 0xff0f, 0x0338, 0x2afd, 0x27cb,
  // reverse solidus look-alikes
  0xff3c, 0x2216, 0x29f9, 0x2572, 0xfe68, 0x20e5, 0x27cd,
  // full stop and leader look-alikes (letters of living scripts that merely resemble them are left alone)
  0x2024, 0x2025, 0x2026, 0xfe52, 0xff0e, 0x3002, 0xff61,
]);

/** Why a path text holds a look-alike of `/`, `\` or `.`, or undefined. Plain ASCII returns at once. */
export function pathLookalikeReason(text: string): PathWhy | undefined {
  if (PRINTABLE_ASCII.test(text)) return undefined;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) continue;
    if (PATH_LOOKALIKES.has(cp) || /[./\\]/.test(ch.normalize("NFKC")))
      return why("lookalike", { code: `U+${cp.toString(16).toUpperCase().padStart(4, "0")}` });
  }
  return undefined;
}

/** The scripts whose letters pass for one another (Latin `e`, Cyrillic U+0435, Greek U+03B5). */
const LOOKALIKE_SCRIPTS = ["Latin", "Cyrillic", "Greek", "Armenian"] as const;
/** Made on first use: a Unicode script class costs about half a millisecond to build, which a hook call that never meets a non-ASCII name should not pay. */
let scriptOf: readonly (readonly [string, RegExp])[] | undefined;

/** What makes a path read as another name: the word at fault, why, and the name a reviewer reads. */
export interface MixedScript {
  readonly word: string;
  readonly why: "mixed" | "compatibility";
  readonly scripts: string;
  /** The path as it reads: look-alike letters folded to Latin, compatibility forms to ASCII. */
  readonly reads: string;
}

/**
 * Why a path reads as another name to a person, or undefined: a word (a run of letters, marks and digits)
 * that mixes letters of Latin, Cyrillic, Greek or Armenian (`.env` with a Cyrillic U+0435 for its `e`,
 * which an approver reads as `.env`), or a full-width or styled letter or digit beside plain ones (`src`
 * with a full-width U+FF53 for its `s`), which some file systems fold to ASCII and others keep. Words of
 * one script each (a Cyrillic folder name beside `report.md`, even one whose letters all look Latin), and
 * scripts that pass for no Latin letter
 * (Han, kana, Arabic, ...) beside Latin, read as what they are. Plain ASCII returns at once.
 */
export function mixedScriptReason(text: string): MixedScript | undefined {
  if (PRINTABLE_ASCII.test(text)) return undefined;
  const reads = () => {
    let out = "";
    for (const ch of text.normalize("NFKC")) out += CONFUSABLES[ch] ?? ch;
    return out;
  };
  for (const word of text.match(/[\p{L}\p{M}\p{Nd}]+/gu) ?? []) {
    if (/^[A-Za-z0-9]*$/.test(word)) continue;
    // A full-width or styled letter beside plain ones; a name all in full-width forms reads as such.
    if (/[A-Za-z0-9]/.test(word))
      for (const ch of word) {
        if (ch.charCodeAt(0) >= 0x80 && /^[A-Za-z0-9]+$/.test(ch.normalize("NFKC")))
          return { word, why: "compatibility", scripts: "", reads: reads() };
      }
    const scripts = scriptsIn(word);
    if (scripts.length > 1) return { word, why: "mixed", scripts: scripts.join(" and "), reads: reads() };
  }
  return undefined;
}

function scriptsIn(word: string): string[] {
  scriptOf ??= LOOKALIKE_SCRIPTS.map((s) => [s, new RegExp(`\\p{Script=${s}}`, "u")] as const);
  return scriptOf.filter(([, re]) => re.test(word)).map(([s]) => s);
}

/**
 * The first word of a text (a run of letters, marks and digits) that mixes letters of Latin, Cyrillic,
 * Greek or Armenian (`python` with a Cyrillic U+0440 for its `p`), with those scripts and the word as it reads in Latin
 * letters; undefined when there is none. Plain ASCII returns at once.
 */
export function mixedScriptWord(text: string): { word: string; scripts: string; reads: string } | undefined {
  if (!NOT_ASCII.test(text)) return undefined;
  for (const word of text.match(/[\p{L}\p{M}\p{Nd}]+/gu) ?? []) {
    if (/^[A-Za-z0-9]*$/.test(word)) continue;
    const scripts = scriptsIn(word);
    if (scripts.length < 2) continue;
    let reads = "";
    for (const ch of word) reads += CONFUSABLES[ch] ?? ch;
    return { word, scripts: scripts.join(" and "), reads };
  }
  return undefined;
}
