import { type PathWhy, why } from "./place.js";
/** Bidi controls and zero-width characters: text that reads differently from what a program compares. */
export const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Letters of other scripts that render like Latin ones (the common homoglyphs of tool-name attacks). */
const CONFUSABLES: Record<string, string> = {
  а: "a", в: "b", е: "e", к: "k", м: "m", н: "h", о: "o", р: "p", с: "c", т: "t", у: "y", х: "x", ѕ: "s", і: "i", ј: "j", ԁ: "d", ӏ: "l", һ: "h", ԛ: "q", ԝ: "w",
  А: "A", В: "B", Е: "E", К: "K", М: "M", Н: "H", О: "O", Р: "P", С: "C", Т: "T", Х: "X", І: "I", Ј: "J", Ѕ: "S",
  α: "a", ο: "o", ρ: "p", ν: "v", τ: "t", ι: "i", κ: "k", χ: "x", υ: "u", ε: "e",
  Α: "A", Β: "B", Ε: "E", Ζ: "Z", Η: "H", Ι: "I", Κ: "K", Μ: "M", Ν: "N", Ο: "O", Ρ: "P", Τ: "T", Υ: "Y", Χ: "X",
};

/** Plain ASCII: one script, nothing invisible, nothing to fold but case (the common case, kept fast). */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/** A name's skeleton: NFKC, invisible characters removed, homoglyphs folded to Latin, lower case. */
export function skeleton(name: string): string {
  if (PRINTABLE_ASCII.test(name)) return name.toLowerCase();
  const visible = name.normalize("NFKC").replace(new RegExp(INVISIBLE.source, "gu"), "");
  let out = "";
  for (const ch of visible) out += CONFUSABLES[ch] ?? ch;
  return out.toLowerCase();
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
