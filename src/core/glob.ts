/** A glob's run of characters between two `*` (or an end), as code points (ANY for `?`), with what searching for it needs. */
interface Segment {
  chars: Int32Array;
  /** KMP's failure function (the longest proper border of each prefix), for a run without `?`. */
  border?: Int32Array;
}

/** `?`: any one code point. */
const ANY = -1;

function segment(run: readonly string[]): Segment {
  const chars = Int32Array.from(run, (ch) => (ch === "?" ? ANY : ch.codePointAt(0)!));
  if (chars.includes(ANY) || chars.length < 2) return { chars };
  const border = new Int32Array(chars.length);
  for (let i = 1, k = 0; i < chars.length; i++) {
    while (k > 0 && chars[i] !== chars[k]) k = border[k - 1]!;
    if (chars[i] === chars[k]) k++;
    border[i] = k;
  }
  return { chars, border };
}

/*
 * A name is read as code points: `units`, its UTF-16 code units, when it has no surrogates (the common case,
 * with no copy), else `points`.
 */

/** Does a run match the name's code points from `at`? */
function matchesAt(seg: Segment, units: string, points: Int32Array | undefined, at: number): boolean {
  const c = seg.chars;
  if (points === undefined) {
    for (let j = 0; j < c.length; j++) if (c[j] !== ANY && c[j] !== units.charCodeAt(at + j)) return false;
  } else for (let j = 0; j < c.length; j++) if (c[j] !== ANY && c[j] !== points[at + j]) return false;
  return true;
}

/**
 * The first place at or after `from` where a run matches, ending by `to`, or -1. A run without `?` is
 * searched by KMP, in time linear in the text; one with `?` at each place in turn (runs are short: the
 * policy's globs are at most 256 characters long, a plan's constraint 1,024).
 */
function find(seg: Segment, units: string, points: Int32Array | undefined, from: number, to: number): number {
  const c = seg.chars;
  const m = c.length;
  if (m === 0) return from <= to ? from : -1;
  const border = seg.border;
  if (border === undefined) {
    for (let i = from; i <= to - m; i++) if (matchesAt(seg, units, points, i)) return i;
    return -1;
  }
  if (points === undefined) {
    for (let i = from, k = 0; i < to; i++) {
      const ch = units.charCodeAt(i);
      while (k > 0 && ch !== c[k]) k = border[k - 1]!;
      if (ch === c[k] && ++k === m) return i - m + 1;
    }
  } else
    for (let i = from, k = 0; i < to; i++) {
      const ch = points[i]!;
      while (k > 0 && ch !== c[k]) k = border[k - 1]!;
      if (ch === c[k] && ++k === m) return i - m + 1;
    }
  return -1;
}

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * A tool-name glob (`*` any run, `?` one character, compared by code point) as a matcher that runs in time
 * linear in the name for globs without `?` (and name times run length with them). A backtracking RegExp
 * for a glob with two stars and a literal after them (`*a*a*b`) takes minutes on a long hostile name, and
 * one that goes back to its last star (`*aaa…ab*`, 1,000 characters) took three seconds a step on a name
 * of a MiB; this one cannot. The part before the first star must begin the name, the part after the last
 * end it, and each run between stars is found at its first place after the one before: where a name
 * matches at all, it matches there too.
 */
export function globMatcher(glob: string): { test(name: string): boolean } {
  if (!glob.includes("*") && !glob.includes("?")) return { test: (name) => name === glob };
  const runs: string[][] = [[]];
  for (const ch of glob) {
    if (ch === "*") runs.push([]);
    else runs[runs.length - 1]!.push(ch);
  }
  const segs = runs.map(segment);
  const first = segs[0]!;
  const last = segs[segs.length - 1]!;
  const middle = segs.slice(1, -1).filter((x) => x.chars.length > 0);
  const starred = segs.length > 1;
  const least = runs.reduce((n, r) => n + r.length, 0);
  return {
    test(name: string): boolean {
      // Indexed by code point: a name with no surrogates is its own array of them.
      const points = SURROGATE.test(name) ? Int32Array.from(name, (ch) => ch.codePointAt(0)!) : undefined;
      const n = points === undefined ? name.length : points.length;
      if (!starred) return n === least && matchesAt(first, name, points, 0);
      if (n < least || !matchesAt(first, name, points, 0) || !matchesAt(last, name, points, n - last.chars.length)) return false;
      let at = first.chars.length;
      const end = n - last.chars.length;
      for (const seg of middle) {
        const i = find(seg, name, points, at, end);
        if (i < 0) return false;
        at = i + seg.chars.length;
      }
      return true;
    },
  };
}
