/*
 * Text scans that a regular expression would make quadratic. V8's expressions backtrack: an unanchored
 * `/\n+$/` or `/[. ]+$/` tries every start in a long run of its characters and scans the run from each
 * (40,000 newlines: over a second), and `/\[([^\]]*)\]/g` scans to the end of the text from every `[`
 * when no `]` follows. Plans are hostile and may be megabytes, so these are written as one pass, with
 * exactly the expressions' results (the tests compare them on random text).
 */

/** `s` without the run of `chars` (each a single UTF-16 unit) at its end: `s.replace(/[chars]+$/, "")`. */
export function trimEndOf(s: string, chars: string): string {
  let end = s.length;
  while (end > 0 && chars.includes(s[end - 1]!)) end--;
  return end === s.length ? s : s.slice(0, end);
}

/**
 * `s.replace(/\[([^\]]*)\]/g, (_, inner) => fill(inner))`: each `[` up to the first `]` after it. Once
 * no `]` follows a `[`, none follows any later one either, so the scan stops there.
 */
export function replaceBracketed(s: string, fill: (inner: string) => string): string {
  let out = "";
  let from = 0;
  for (;;) {
    const open = s.indexOf("[", from);
    if (open < 0) break;
    const close = s.indexOf("]", open + 1);
    if (close < 0) break;
    out += s.slice(from, open) + fill(s.slice(open + 1, close));
    from = close + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * `/\[([^\]]+)\]/.exec(s)?.[1]`: what the first `[…]` with something inside holds (a `[` directly followed
 * by `]` is passed over), or undefined.
 */
export function firstBracketed(s: string): string | undefined {
  for (let open = s.indexOf("["); open >= 0; open = s.indexOf("[", open + 1)) {
    const close = s.indexOf("]", open + 1);
    if (close < 0) return undefined;
    if (close > open + 1) return s.slice(open + 1, close);
  }
  return undefined;
}

/** The line terminators `.` does not match in a JavaScript expression. */
const TERMINATORS = ["\n", "\r", "\u2028", "\u2029"];

/** `s.replace(/:.*$/, "")`: from the first `:` that no line terminator follows, to the end, removed. */
export function cutFromColon(s: string): string {
  let after = 0;
  for (const t of TERMINATORS) after = Math.max(after, s.lastIndexOf(t) + 1);
  const colon = s.indexOf(":", after);
  return colon < 0 ? s : s.slice(0, colon);
}

/** Does `s` hold a line terminator (a character `.` does not match)? */
export function hasTerminator(s: string): boolean {
  return TERMINATORS.some((t) => s.includes(t));
}
