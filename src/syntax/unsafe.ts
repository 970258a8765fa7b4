/** Bidi controls and zero-width characters: text that reads differently from what a program compares. */
export const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/u;

/** Why a key is unsafe, or undefined. */
export function unsafeKeyReason(key: string): string | undefined {
  if (key === "__proto__" || key === "constructor" || key === "prototype")
    return "can pollute object prototypes in JavaScript consumers";
  if (INVISIBLE.test(key)) return "contains invisible or bidi control characters";
  return undefined;
}
