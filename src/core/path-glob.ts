import { compileSafePattern } from "./regex.js";

/*
 * `$glob` on a path, matched in linear time. picomatch compiles a glob to a backtracking RegExp: the
 * plan's `*a*a*a*a*b` against a 255-character name from a call takes over a minute. Here a glob is
 * translated to a regular expression RE2 runs (src/core/regex.ts), with picomatch's meaning for the
 * forms kept (dot files matched): `*` any run within a segment, `?` one character, `**` as a whole
 * segment any number of segments, `[abc]`, `[a-z]`, `[^abc]` (`[!abc]`, which picomatch reads as `!` or a letter, is refused), `{a,b}` (at most 64 spellings), `\x` an
 * escaped character. Extglobs (`@(…)`, `!(…)`, `+(…)`, `*(…)`, `?(…)`), POSIX classes and brace ranges
 * (`{1..3}`) are refused: a glob that cannot be read matches nothing, and validation reports it.
 */

const MAX_SPELLINGS = 64;

/** The RE2 source of a path glob (anchored), or why it cannot be read. */
export function pathGlobSource(glob: string): { source: string } | { error: string } {
  if (/[@!+*?]\(/.test(glob)) return { error: "extglobs (@(…), !(…), +(…), *(…), ?(…)) are not supported; write plain alternatives with {a,b}" };
  // "[^/]" would otherwise be split at its "/" and read as an unclosed class.
  if (/(?<!\\)\[[^\]]*\//.test(glob)) return { error: 'a class [...] cannot hold "/" (one character of a name: write ?)' };
  const spellings = expand(glob);
  if ("error" in spellings) return spellings;
  const parts: string[] = [];
  for (const g of spellings) {
    const r = translate(g);
    if ("error" in r) return r;
    parts.push(r.source);
  }
  return { source: `^(?:${parts.join("|")})$` };
}

function expand(glob: string): string[] | { error: string } {
  let todo = [glob];
  const done: string[] = [];
  while (todo.length > 0) {
    const next: string[] = [];
    for (const g of todo) {
      const m = /(?<!\\)\{([^{}]*)\}/.exec(g);
      if (!m) {
        done.push(g);
        continue;
      }
      if (m[1]!.includes("..")) return { error: "brace ranges ({1..3}) and .. inside braces are not supported" };
      if (!m[1]!.includes(",")) return { error: `the braces "{${m[1]}}" hold no alternatives` };
      for (const alt of m[1]!.split(",")) next.push(g.slice(0, m.index) + alt + g.slice(m.index + m[0].length));
      if (next.length + done.length > MAX_SPELLINGS) return { error: `its braces spell over ${MAX_SPELLINGS} globs` };
    }
    todo = next;
  }
  return done;
}

const escapeChar = (c: string) => (/[\\^$.|?*+()[\]{}/-]/.test(c) ? `\\${c}` : c);

function translate(glob: string): { source: string } | { error: string } {
  // "**/**" is "**".
  const segs = glob.split("/").filter((s, i, a) => !(s === "**" && a[i - 1] === "**"));
  if (segs.some((s, i) => s === "" && !(i === segs.length - 1 && segs.length > 1))) return { error: "an empty path segment (// or a leading /)" };
  let out = "";
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    const last = i === segs.length - 1;
    if (seg === "" && last) {
      out += "/?";
      continue;
    }
    if (seg === "**") {
      // Whole segments: any number in "a/**/b" and "**/b", one or more in "a/**" and "**" (as picomatch).
      if (segs.length === 1) out += "[^/]+(?:/[^/]+)*";
      else if (last) out += "(?:/[^/]+)+";
      else out += i === 0 ? "(?:[^/]+/)*" : "/(?:[^/]+/)*";
      continue;
    }
    if (i > 0 && segs[i - 1] !== "**") out += "/";
    const s = segment(seg);
    if ("error" in s) return s;
    out += s.source;
  }
  return { source: out };
}

function segment(seg: string): { source: string } | { error: string } {
  let out = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "\\") {
      const n = seg[i + 1];
      if (n === undefined) return { error: "a trailing backslash" };
      out += escapeChar(n);
      i++;
    } else if (c === "*") {
      while (seg[i + 1] === "*") i++;
      out += "[^/]*";
    } else if (c === "?") out += "[^/]";
    else if (c === "[") {
      const end = seg.indexOf("]", i + 2);
      if (end < 0) return { error: "an unclosed [" };
      let body = seg.slice(i + 1, end);
      // picomatch reads "[!a]" as "!" or "a" (or the literal text): refused, "[^a]" says it plainly.
      if (body.startsWith("!")) return { error: `the class [${body}] is read differently by glob libraries; write [^${body.slice(1)}]` };
      const negated = body.startsWith("^");
      if (negated) body = body.slice(1);
      if (!/^[A-Za-z0-9._~ -]+$/.test(body) || /^-|-$/.test(body)) return { error: `the class [${seg.slice(i + 1, end)}] is not supported (letters, digits, . _ ~ and ranges such as a-z)` };
      out += negated ? `[^/${body.replace(/\./g, "\\.")}]` : `[${body.replace(/\./g, "\\.")}]`;
      i = end;
    } else out += escapeChar(c);
  }
  return { source: out };
}

const compiled = new Map<string, { test(s: string): boolean } | { error: string }>();

/** A path glob as a linear-time test (cached), or why it cannot be read; `nocase` folds case as RE2 does. */
export function pathGlobMatcher(glob: string, options: { nocase?: boolean } = {}): { test(s: string): boolean } | { error: string } {
  const key = options.nocase ? `i${glob}` : `c${glob}`;
  let m = compiled.get(key);
  if (!m) {
    const r = pathGlobSource(glob);
    if ("error" in r) m = r;
    else {
      const p = compileSafePattern(r.source, options);
      m = "error" in p ? { error: p.error } : p;
    }
    if (compiled.size > 512) compiled.clear();
    compiled.set(key, m);
  }
  return m;
}

/**
 * Whether picomatch's expression for a glob can backtrack for long on a path of at most 4,096 characters
 * with names of at most 255. Each `**` segment before the last one and each `*` inside a name is a run of
 * unknown length, and the backtracking engine tries every way of cutting the path into them. Three runs
 * (a name `*a*b` under `**`), or two `**` segments before the last, cost seconds to minutes on one path:
 * `** / a / ** / a / ** / b` (spaces added) took 5 s on `a/a/.../a`, and two minutes with one more `**`.
 * The default protected globs have at most two runs and one such `**`. A glob with two or more groups of
 * alternatives (brace groups, extglobs), nested braces or a repeated extglob counts as one that backtracks
 * too (see below).
 */
export function globBacktracks(glob: string): boolean {
  // Two groups of alternatives (brace groups, extglobs), nested braces or a repeated extglob: picomatch
  // writes each group as alternatives, and alternatives that can match the same text multiply the ways to
  // try (`{a,a}` 24 times took 0.8 s on 24 a's and a c, and doubles with each more; `+(a|aa)b` is the
  // classic exponential case). RE2 expands the braces (pathGlobSource, at most 64 spellings) and refuses
  // extglobs.
  const groups = (glob.match(/(?<!\\)\{[^{}]*,/g)?.length ?? 0) + (glob.match(/[@!?]\(/g)?.length ?? 0);
  if (groups >= 2 || /[+*]\(/.test(glob) || /(?<!\\)\{[^}]*\{/.test(glob)) return true;
  // "**/**" is "**"; an empty name ("a//b") is no run.
  const segs = glob.split("/").filter((s, i, a) => s !== "" && !(s === "**" && a[i - 1] === "**"));
  let runs = 0;
  let globstars = 0;
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i]!;
    if (seg === "**") {
      if (i < segs.length - 1) {
        runs++;
        globstars++;
      }
      continue;
    }
    runs += seg.replace(/\\./g, "").match(/\*+/g)?.length ?? 0;
  }
  return runs >= 3 || globstars >= 2;
}
