/**
 * The files a patch text names: a patch given to a tool (`apply_patch {input: ...}`, `patch {patch: ...}`,
 * `git_apply {diff: ...}`) writes the files its headers name, wherever they are, so those names are path
 * arguments of the step as much as a `path` is. Read the way the common appliers read them, failing
 * closed: every header line counts wherever it stands (a hunk too short for its counts does not hide a
 * header, and a removed line that reads as a header is checked too, which costs nothing but a check).
 *
 * - unified and context diffs: `--- a/x`, `+++ b/x`, `*** x` (a tab and a timestamp cut off), GNU patch's
 *   and git's; `diff --git a/x b/y`, `rename from`/`to`, `copy from`/`to`, `Index: x`; git's C-quoted names
 *   (`"a/\t.git/config"`); each name as written and without its first folder (`-p0` and `-p1` both);
 * - the `apply_patch` format of code agents: `*** Add File: x`, `*** Update File: x`, `*** Delete File: x`,
 *   `*** Move to: x`;
 * - a symbolic link a git patch creates (`new file mode 120000`): its target, read from the link's folder,
 *   is where later writes through it would go.
 */

/** A patch header at the start of a line (HEADER_AT_START: of the text). */
const HEADER_AT_LINE = /(?:^|[\r\n])(?:\+\+\+ |--- |\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|diff --git |rename (?:from|to) |copy (?:from|to) |Index: )/;
const HEADER_AT_START = /^(?:\+\+\+ |--- |\*\*\* (?:Add|Update|Delete) File:|\*\*\* Move to:|diff --git |rename (?:from|to) |copy (?:from|to) |Index: )/;

/**
 * Does a text hold a patch header at the start of a line (a cheap test before patchPaths)? It runs on
 * every string argument of a plan: a text of one line can hold one only at its start, which an anchored
 * test rejects at the first character of prose; a longer text is searched for the headers' words first.
 */
export function mayBePatch(text: string): boolean {
  if (text.length < 8) return false;
  if (!text.includes("\n") && !text.includes("\r")) return HEADER_AT_START.test(text);
  return (
    (text.includes("+++ ") ||
      text.includes("*** ") ||
      text.includes("diff --git ") ||
      text.includes("rename to ") ||
      text.includes("copy to ") ||
      text.includes("Index: ")) &&
    HEADER_AT_LINE.test(text)
  );
}

/** Header lines whose rest is one file name. */
const NAMED = /^\*\*\* (?:Add File|Update File|Delete File|Move to): ?(.*)$|^(?:\+\+\+|---|\*\*\*) (.*)$|^(?:rename|copy) (?:from|to) (.*)$|^Index: (.*)$/;
/** A context diff's hunk ranges (`*** 1,5 ****`, `--- 1,5 ----`) and its hunk separator: no names. */
const RANGES = /^(?:\*\*\* [0-9]+(?:,[0-9]+)? \*\*\*\*|--- [0-9]+(?:,[0-9]+)? ----|\*{3,})\s*$/;
/** The `apply_patch` envelope lines, which name nothing. */
const ENVELOPE = /^\*\*\* (?:Begin Patch|End Patch|End of File)\s*$/;

/** At most this many names are read from one text: past it, one stand-in that no path check accepts. */
const MAX_NAMES = 4096;
/** Stands for the names past MAX_NAMES (a NUL: every path check refuses it). */
export const TOO_MANY_NAMES = "\0too-many-patch-names";
/** Most splits of an unquoted `diff --git` line read (the spaces its names may hold in all); past them, TOO_MANY_NAMES. */
const MAX_GIT_SPLITS = 16;

/**
 * The file names a patch text writes, each once, in order of first appearance; empty for a text that is
 * no patch. Names are given as written and, when they have one, without their first folder (the `a/`
 * and `b/` of git patches, which `patch -p1` strips and `patch -p0` keeps).
 */
export function patchPaths(text: string): string[] {
  if (!mayBePatch(text)) return [];
  const out = new Set<string>();
  const add = (name: string | undefined, strip = true) => {
    if (name === undefined || out.size > MAX_NAMES) return;
    const n = name.trim();
    if (n === "" || n === "/dev/null") return;
    out.add(n);
    const slash = n.search(/[/\\]/);
    if (strip && slash > 0 && slash < n.length - 1) out.add(n.slice(slash + 1));
  };
  const lines = text.split(/\r\n|\r|\n/);
  let gitNames: string[] = [];
  let symlink = false;
  for (let i = 0; i < lines.length && out.size <= MAX_NAMES; i++) {
    const line = lines[i]!;
    if (line.startsWith("diff --git ")) {
      gitNames = gitDiffNames(line.slice(11));
      for (const n of gitNames) add(n);
      symlink = false;
      continue;
    }
    if (/^(?:new file mode|new mode) 120000\s*$/.test(line)) {
      symlink = true;
      continue;
    }
    if (symlink && /^\+[^+]/.test(line)) {
      // The one added line of a new symbolic link is its target, read from the link's folder.
      for (const n of gitNames) for (const link of [n, n.replace(/^[^/\\]*[/\\]/, "")]) add(linkTarget(link, line.slice(1)));
      symlink = false;
      continue;
    }
    if (RANGES.test(line) || ENVELOPE.test(line)) continue;
    const m = NAMED.exec(line);
    if (!m) continue;
    const codex = m[1];
    if (codex !== undefined) {
      // The apply_patch format names files as they are, relative to where the tool runs.
      add(codex, false);
      continue;
    }
    add(headerName(m[2] ?? m[3] ?? m[4] ?? ""));
  }
  const names = [...out];
  if (out.size > MAX_NAMES) return [...names.slice(0, MAX_NAMES), TOO_MANY_NAMES];
  return names;
}

/** A unified or context header's name: C-unquoted, without the tab and timestamp after it. */
function headerName(rest: string): string {
  if (rest.startsWith('"')) return unquote(rest) ?? rest;
  const tab = rest.indexOf("\t");
  return tab >= 0 ? rest.slice(0, tab) : rest;
}

/**
 * The names of a `diff --git a/x b/y` line: both quoted ones, or, unquoted, every split at a space
 * before `b/` (a name with spaces is ambiguous there; every reading is checked).
 */
function gitDiffNames(rest: string): string[] {
  if (rest.startsWith('"')) {
    const first = unquoteWithEnd(rest);
    if (first) {
      const second = rest.slice(first.end).trimStart();
      return [first.text, second.startsWith('"') ? (unquote(second) ?? second) : second];
    }
  }
  const out: string[] = [];
  for (let i = rest.indexOf(" "); i >= 0; i = rest.indexOf(" ", i + 1)) {
    // Each split reads the whole line again: a line of a MiB of spaces made a million names of up to a
    // MiB each (6 s for one step). A name with more spaces than that is not read, and cannot pass.
    if (out.length >= 2 * MAX_GIT_SPLITS) return [TOO_MANY_NAMES];
    const b = rest.slice(i + 1);
    out.push(rest.slice(0, i), b.startsWith('"') ? (unquote(b) ?? b) : b);
  }
  if (out.length === 0) out.push(rest);
  return out;
}

/** Where a link at `link` (a relative name) with this target points, as a name relative to the same root. */
function linkTarget(link: string, target: string): string {
  if (/^[/\\~]/.test(target) || /^[A-Za-z]:/.test(target)) return target;
  const slash = Math.max(link.lastIndexOf("/"), link.lastIndexOf("\\"));
  return slash < 0 ? target : `${link.slice(0, slash)}/${target}`;
}

function unquote(text: string): string | undefined {
  return unquoteWithEnd(text)?.text;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
const ENCODER = new TextEncoder();
const ESCAPES: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, "\\": 92 };

/** A C-quoted name as git writes one (`"a/\303\251.txt"`): its bytes read as UTF-8, and where the quote ends. */
function unquoteWithEnd(text: string): { text: string; end: number } | undefined {
  const bytes: number[] = [];
  for (let i = 1; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      // Bytes that are not UTF-8 name a file no text here can spell: a NUL makes every path check refuse it.
      let name: string;
      try {
        name = UTF8.decode(new Uint8Array(bytes));
      } catch {
        name = "\0undecodable";
      }
      return { text: name, end: i + 1 };
    }
    if (c !== "\\") {
      for (const b of ENCODER.encode(c)) bytes.push(b);
      continue;
    }
    const e = text[i + 1];
    if (e === undefined) return undefined;
    const oct = /^[0-7]{1,3}/.exec(text.slice(i + 1, i + 4));
    if (oct) {
      bytes.push(Number.parseInt(oct[0], 8) & 0xff);
      i += oct[0].length;
    } else {
      bytes.push(ESCAPES[e] ?? e.charCodeAt(0));
      i += 1;
    }
  }
  return undefined;
}
