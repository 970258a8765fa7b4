import picomatch from "picomatch";
import { PROTECTED_GLOB_SOURCES } from "./glob-sources.js";
import { GLOB_OPTIONS } from "./glob-options.js";
import { DEFAULT_PROTECTED_PATHS, DEFAULT_SECRET_PATHS, DEFAULT_WRITE_TOOLS } from "../../policy/defaults.js";
import { looseName } from "../../core/lookalike.js";
import { defaultStrings, fileTextArgument, isFileTextName, LINE_BREAK, nameSaysWrite, schemaDefaults, schemaReadArguments } from "../../core/writers.js";
import { type ArgLeaf, LeafTag, type StepFacts } from "../../core/facts.js";
import { inFolder, isAbsoluteAnywhere, isFolderName, isPathName, isRemoteUrl, joinedUnits, tooManyFolderPaths, isInside, mayBeFileName, mayNamePath, pathSegments, relativeInside, windowsSpelling } from "../../core/paths.js";
import { type CommandPathChecks, type DiskReach, reportCommandPathsProtected } from "../../commands/paths.js";
import { prepareCommandRule } from "../../commands/report.js";
import { isCommandArgument } from "../../commands/plan.js";
import { childPointer, type Pointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import type { FileProbe } from "../../core/file-probe.js";
import { checkedAtCallMessages } from "../checked-at-call.js";
import { namedPathText } from "../command-paths.js";
import { compiledFrom } from "../../core/compiled.js";
import { globReachesProtected } from "../../commands/constraint-check.js";
import { globBacktracks, pathGlobMatcher } from "../../core/path-glob.js";
import type { WorkMeter } from "../../core/work.js";

/** A Windows 8.3 short name: up to six characters, `~`, a number, an extension of up to three. */
const SHORT_NAME = /^[^~]{1,6}~[0-9]+(?:\.[^.]{0,3})?$/;
/** Code points HFS+ and some normalisers drop from names. */
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;


/**
 * The policy's protected globs, compiled once per list into one regular expression (one test per path),
 * behind a cheap pre-check: a path that holds none of the globs' literal names (`.git`, `.env`, `.pem`,
 * `id_rsa`, `plangate.yaml`..., without case) cannot match. A glob whose backtracking expression could take
 * seconds on one path (globBacktracks) is matched by RE2 instead, in linear time.
 */
export function matcherFor(globs: readonly string[]): (path: string) => boolean {
  return compiledFrom("protected", globs, () => {
    const plain = globs.filter((g) => !globBacktracks(g));
    const heavy = globs.filter((g) => globBacktracks(g)).map(linearGlob);
    const fast = plain.length > 0 ? anyOf(plain.map(globSource)) : () => false;
    const test = heavy.length === 0 ? fast : (path: string) => fast(path) || heavy.some((t) => t(path));
    const needles = globNeedles(globs);
    if (!needles) return (path: string) => beyondFileSystem(path) || test(path);
    // One search for all the literals, folding case as the globs' expression does (the same "i" flag).
    const any = anyOf([...new Set(needles)].map((n) => n.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&")));
    return (path: string) => beyondFileSystem(path) || (any(path) && test(path));
  });
}

const DEFAULT_GLOBS = new Set(DEFAULT_PROTECTED_PATHS);
const SECRET_GLOBS = new Set(DEFAULT_SECRET_PATHS);

/**
 * The protected globs a program that only reads its operands may not read either (`cat .env`): the
 * secrets among the defaults, and every glob the defaults do not hold.
 */
export function readProtectedGlobs(globs: readonly string[]): readonly string[] {
  return compiledFrom("read-protected", globs, () => globs.filter((g) => SECRET_GLOBS.has(g) || !DEFAULT_GLOBS.has(g)));
}

/** picomatch's expression for a glob: made at build time for the default globs, else now. */
function globSource(glob: string): string {
  return PROTECTED_GLOB_SOURCES.get(glob) ?? picomatch.makeRe(glob, GLOB_OPTIONS).source;
}

/**
 * The spelling under which a path is protected, if any: the path itself, its Windows spelling (`.git./x`,
 * `.git /x`, `.git::$INDEX_ALLOCATION/x` are `.git/x` there), its NFKC form without the invisible code
 * points HFS+ ignores, or the path itself when a name in it is a Windows 8.3 short name (`GIT~1`), which
 * may stand for any protected name (a relative path only). The plan's arguments are checked in these spellings by the rule; a
 * command's paths, in a plan and in a guarded host call, through this.
 */
export function protectedSpelling(path: string, isProtected: (path: string) => boolean, names?: readonly string[]): string | undefined {
  if (path === "") return undefined;
  const forms = spellings(path);
  // Only below the workspace: an absolute path may pass through a short name of its own (C:\Users\RUNNER~1).
  if (!/^(?:[\\/]|[A-Za-z]:)/.test(path) && forms.some((f) => (names === undefined ? hasShortName(f) : shortNameMayBeProtected(f, names, isProtected)))) return path;
  return forms.find((f) => f !== "" && isProtected(f));
}

/**
 * The names the protected globs end with, for the short-name check of command paths: hidden ones (`.git`,
 * `.env`) and last segments (`plangate.yaml`, `*.pem`, `id_rsa*`).
 */
export function protectedNames(protectedGlobs: readonly string[]): readonly string[] {
  return compiledFrom("protected-names", protectedGlobs, () => [...new Set([...hiddenNames(protectedGlobs), ...lastNames(protectedGlobs)])]);
}

/**
 * Whether a name in the path is a Windows 8.3 short name that a protected name could have been given
 * (`GIT~1` for `.git`, `PLANGA~1.YAM` for `plangate.yaml`, `SERVER~1.PEM` for `server-key.pem`): Windows
 * makes one from the first six characters of the long name without its leading dots, and the first three
 * of its extension. `HEAD~1`, a git revision, is no protected name's.
 */
function shortNameMayBeProtected(path: string, names: readonly string[], isProtected: (path: string) => boolean): boolean {
  if (!path.includes("~")) return false;
  const segs = pathSegments(path);
  return segs.some((seg, i) => {
    const m = /^([^~]{1,6})~[0-9]+(?:\.([^.]{0,3}))?$/.exec(seg);
    if (!m) return false;
    const base = m[1]!.toUpperCase();
    const ext = (m[2] ?? "").toUpperCase();
    return names.some((n) => {
      const long = n.replace(/^\.+/, "").replace(/\[[^\]]*\]|\{[^}]*\}/g, "*").toUpperCase();
      const dot = long.lastIndexOf(".");
      const stem = dot > 0 ? long.slice(0, dot) : long;
      const extension = dot > 0 ? long.slice(dot + 1) : "";
      if (!abbreviates(base, stem) || !(ext === "" ? extension === "" || extension.startsWith("*") : abbreviates(ext, extension))) return false;
      const concrete = n.replace(/\[[^\]]*\]|\{[^}]*\}|[*?]/g, "x");
      return isProtected([...segs.slice(0, i), concrete, ...segs.slice(i + 1)].join("/"));
    });
  });
}

/** Whether `short` can be the start of a name matching `pattern` (`*` and `?` stand for any characters). */
function abbreviates(short: string, pattern: string): boolean {
  for (let k = 0; k < short.length; k++) {
    const c = pattern[k];
    if (c === undefined) return false;
    if (c === "*") return true;
    if (c !== "?" && c !== short[k]) return false;
  }
  return true;
}

/**
 * A path and the other spellings a file system may write it under: its Windows spelling, and its NFKC form
 * without invisible code points (file systems that normalise names read a Kelvin sign as a K; HFS+ ignores
 * a soft hyphen or a joiner in `.g\u00ADit`).
 */
function spellings(path: string): string[] {
  const win = windowsSpelling(path);
  const forms = win === undefined ? [path] : [path, win];
  if (!/^[\x20-\x7e]*$/.test(path)) forms.push((win ?? path).normalize("NFKC").replace(IGNORABLE, ""));
  return forms;
}

/** Whether a name in the path is a Windows 8.3 short name (`GIT~1`, `PLANGA~1.YAM`). */
function hasShortName(path: string): boolean {
  return path.includes("~") && pathSegments(path).some((seg) => SHORT_NAME.test(seg));
}

/**
 * A protected glob as a linear-time test (RE2, without case), at least as broad as picomatch's reading: an
 * absolute path is also tried without its leading slashes, as picomatch lets a leading `**` match them. A
 * glob RE2 cannot be given (an extglob, a POSIX class; the policy file refuses them) matches every path:
 * fail closed. Where picomatch reads a glob more broadly than the plain forms, the glob or the path is
 * widened to match: a leading `./` is nothing; a final `/**` also matches the folder itself (`a/**` matches
 * `a`); a `**` that starts a name before braces (`**{a,b}`) runs across folders; and a path is also
 * tried without repeated slashes and without a trailing one.
 */
function linearGlob(glob: string): (path: string) => boolean {
  // What the policy file refuses (linearGlobError) matches every path here: fail closed.
  if (linearGlobError(glob) !== undefined) return () => true;
  const g = linearForm(glob);
  const m = pathGlobMatcher(g.replace(/^\/+/, ""), { nocase: true });
  if ("error" in m) return () => true;
  const absolute = g.startsWith("/");
  const folder = /\/\*\*$/.test(g);
  const one = (path: string) => {
    const rel = path.replace(/^\/+/, "");
    if (absolute) return rel !== path && m.test(rel);
    return m.test(path) || (rel !== path && m.test(rel));
  };
  const test = (path: string) => one(path) || (folder && one(`${path}/x`));
  return (original: string) => {
    const path = units(original);
    if (test(path)) return true;
    const tidy = path.replace(/\/{2,}/g, "/").replace(/(.)\/$/, "$1");
    return tidy !== path && test(tidy);
  };
}

/** A protected glob as RE2 reads it: without a leading `./`, a `**` that starts a name before braces across folders. */
function linearForm(glob: string): string {
  return units(glob.replace(/^(?:\.\/+)+/, "").replace(/(^|\/)\*\*(?=\{)/g, "$1**/*"));
}

/**
 * Why a protected glob that globBacktracks cannot be matched in linear time (the policy file refuses it),
 * or undefined: what RE2 cannot be given, and a "|", which picomatch reads as the end of one glob and the
 * start of another (RE2 would read a letter).
 */
export function linearGlobError(glob: string): string | undefined {
  const g = linearForm(glob);
  const read = pathGlobMatcher(g.replace(/^\/+/, ""), { nocase: true });
  if ("error" in read) return read.error;
  if (/(?<!\\)\|/.test(g)) return 'a "|" (picomatch reads it as two globs; write {a,b} or list them)';
  return undefined;
}

/**
 * A text with each UTF-16 surrogate as a character of its own (U+E000 to U+E7FF, private use): picomatch's
 * expression reads a character outside the Basic Multilingual Plane as two (`??` matches one emoji), RE2
 * as one. Read alike on the glob and the path, the two agree; a path that holds those private-use
 * characters itself can only match more.
 */
function units(text: string): string {
  return /[\uD800-\uDFFF]/.test(text) ? text.replace(/[\uD800-\uDFFF]/g, (c) => String.fromCharCode(0xe000 + c.charCodeAt(0) - 0xd800)) : text;
}

/**
 * A path no file system opens: longer than 4,096 characters (PATH_MAX), or with a name longer than 255
 * (NAME_MAX). It counts as protected (fail closed) without being matched: the globs' expressions
 * backtrack: a glob of `*secret*.pem` under any folder took 3.8 s on one 240 KB name (quadratic in its length).
 */
export function beyondFileSystem(path: string): boolean {
  if (path.length <= 255) return false;
  if (path.length > 4096) return true;
  let start = 0;
  for (let i = 0; i <= path.length; i++) {
    const c = path.charCodeAt(i);
    if (i === path.length || c === 47 || c === 92) {
      if (i - start > 255) return true;
      start = i + 1;
    }
  }
  return false;
}

/**
 * The hidden folder names of the protected globs, lower case (`.git`, `.claude`, `.github`, `.vscode`,
 * `.ssh`...): the names before a `/` in a glob. A value naming such a folder is read as a folder the
 * step's other names may be joined to, whatever argument holds it.
 */
export function hiddenFolderNames(protectedGlobs: readonly string[]): ReadonlySet<string> {
  return compiledFrom("hidden-folder-names", protectedGlobs, () => {
    const out = new Set<string>();
    for (const g of protectedGlobs) {
      const segs = g.split("/");
      for (let i = 0; i < segs.length - 1; i++) if (/^\.[^*?[\]{}]+$/.test(segs[i]!)) out.add(segs[i]!.toLowerCase());
    }
    return out;
  });
}

const EXTENSION_WORDS = new Set(["ext", "extension", "suffix", "format", "filetype"]);
const extensionMemo = new Map<string, boolean>();
/** Does an argument name hold a file name's extension: its last word (any case convention) is `ext`, `extension`, `suffix`, `format` or `filetype` (`file_ext`, `fileExtension`)? */
function isExtensionName(name: string): boolean {
  let hit = extensionMemo.get(name);
  if (hit === undefined) {
    const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
    hit = words.length > 0 && (EXTENSION_WORDS.has(words[words.length - 1]!) || (words.length > 1 && words[words.length - 2]! + words[words.length - 1]! === "filetype"));
    if (extensionMemo.size < 4096) extensionMemo.set(name, hit);
  }
  return hit;
}

/** How deep a tree of names under a protected folder's key is read (protectedTree). */
const MAX_TREE_DEPTH = 16;

/** The first path of a tree of names (an object's keys, below `parts`) that is protected; at the pointer of its value. */
function protectedTree(value: unknown, parts: string[], at: Pointer, hit: (text: string) => string | undefined): { at: Pointer; parts: string[]; hit: string } | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value) || parts.length > MAX_TREE_DEPTH) return undefined;
  for (const [k, v] of Object.entries(value)) {
    const here = [...parts, k];
    const where = childPointer(at, k);
    const found = hit(here.map((p) => p.trim()).join("/"));
    if (found !== undefined) return { at: where, parts: here, hit: found };
    const deeper = protectedTree(v, here, where, hit);
    if (deeper) return deeper;
  }
  return undefined;
}

/** Can a path's last name start with a dot: a leading dot or blank, or a dot after a separator? */
function mayEndInHiddenName(value: string): boolean {
  const c = value.charCodeAt(0);
  return c === 0x2e || c <= 0x20 || value.includes("/.") || value.includes("\\.");
}

/** The last name of a path, lower case, without the spaces and separators at its ends (`src/.Claude/ ` is `.claude`). */
function lastName(value: string): string {
  const v = value.trim().replace(/[/\\]+$/, "");
  const i = Math.max(v.lastIndexOf("/"), v.lastIndexOf("\\"));
  return (i < 0 ? v : v.slice(i + 1)).toLowerCase();
}

/** Globs per regular expression: compiling one alternation costs more than linear time in its length. */
const PER_EXPRESSION = 256;

/**
 * One test for many anchored regular expressions: their alternation, 256 at a time. One alternation of
 * every protected glob took 5.8 s to compile for 4,000 globs, and 8,000 were over the engine's size limit
 * (an internal error at the first path tested).
 */
function anyOf(sources: readonly string[]): (path: string) => boolean {
  const tests: ((path: string) => boolean)[] = [];
  for (let i = 0; i < sources.length; i += PER_EXPRESSION) tests.push(oneOf(sources.slice(i, i + PER_EXPRESSION)));
  if (tests.length === 1) return tests[0]!;
  return (path: string) => tests.some((t) => t(path));
}

/**
 * The alternation of a few expressions, compiled at its first test; when the engine cannot compile it, each
 * in turn, and one that cannot be compiled alone matches every path (fail closed).
 */
function oneOf(sources: readonly string[]): (path: string) => boolean {
  let all: RegExp | undefined;
  let each: (RegExp | undefined)[] | undefined;
  try {
    all = new RegExp(sources.map((s) => `(?:${s})`).join("|"), "i");
  } catch {
    all = undefined;
  }
  return (path: string) => {
    if (all !== undefined) {
      try {
        return all.test(path);
      } catch {
        all = undefined;
      }
    }
    each ??= sources.map((s) => {
      try {
        return new RegExp(s, "i");
      } catch {
        return undefined;
      }
    });
    for (const re of each) {
      if (re === undefined) return true;
      try {
        if (re.test(path)) return true;
      } catch {
        return true;
      }
    }
    return false;
  };
}

/**
 * A literal each glob's every match holds (its longest run of plain characters), lowercased; undefined when
 * some glob has none or uses syntax (classes, braces, extglobs, escapes) whose matches need not hold one.
 */
export function globNeedles(globs: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const g of globs) {
    if (/[[\]{}()!+@?\\]/.test(g)) return undefined;
    // picomatch reads a leading "./" as nothing: its "." is no literal of the matches.
    const longest = g.replace(/^(?:\.\/+)+/, "").split(/[*/]+/).reduce((a, b) => (b.length > a.length ? b : a), "");
    // Outside ASCII, lower case and the regex's case folding disagree (ς, σ and Σ; µ and μ): no pre-check.
    if (longest === "" || !/^[\x20-\x7e]+$/.test(longest)) return undefined;
    out.push(longest.toLowerCase());
  }
  return out;
}

/** The hidden names the protected globs hold, without their wildcards (`.git`, `.env`, `.ssh`, `.plangate.yaml`…). */
export function hiddenNames(protectedGlobs: readonly string[]): readonly string[] {
  return compiledFrom("hidden-names", protectedGlobs, () => {
    const out = new Set<string>();
    for (const g of protectedGlobs)
      for (const seg of g.split("/")) {
        const name = seg.replace(/\[[^\]]*\]|\{[^}]*\}|[*?]/g, "");
        if (name.startsWith(".") && name.length > 1) out.add(name);
      }
    return [...out];
  });
}

/** A shell pattern for one name, as bash matches it (`*`, `?`, `[…]`), without case; undefined when unreadable. */
function namePattern(seg: string): RegExp | undefined {
  let re = "^";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = seg.indexOf("]", i + 2);
      if (end < 0) re += "\\[";
      else {
        re += "[" + seg.slice(i + 1, end).replace(/^[!^]/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\\]]/g, "\\$&");
  }
  try {
    return new RegExp(re + "$", "i");
  } catch {
    return undefined;
  }
}

/**
 * A protected path a shell pattern below the workspace root can name, if any. Bash (without dotglob)
 * expands a pattern to a hidden name only when the pattern starts with a literal `.`: each such name
 * pattern (`.e*`, `.gi?`, `.g[i]t`) is tried with the protected globs' hidden names, so `cp a .e*`
 * names `.env` and `> .gi?/config` names `.git/config`; with `shopt -s dotglob` (`options.dotglob`)
 * any name pattern is tried with them as well (`?git`). An unreadable pattern is tried as written.
 */
export function shellGlobReachesProtected(glob: string, hidden: readonly string[], isProtected: (path: string) => boolean, options: { dotglob?: boolean } = {}): string | undefined {
  let paths = [""];
  for (const seg of glob.split("/")) {
    let names = [seg];
    if (/[*?[]/.test(seg) && (seg.startsWith(".") || options.dotglob)) {
      const re = namePattern(seg);
      if (re) names = [...(seg.startsWith(".") ? [] : [seg]), ...hidden.filter((n) => re.test(n))];
    }
    paths = paths.flatMap((p) => names.map((n) => (p === "" ? n : `${p}/${n}`))).slice(0, 64);
  }
  return paths.find((p) => p !== glob && isProtected(p));
}

/**
 * The files a command's pattern names on disk, as bash expands it (workspace-relative), or undefined when
 * they cannot be bounded: a folder on its way cannot be listed, or there are more than plangate looks
 * through. A segment without a wildcard is kept as written (a symlink on the way is followed when the
 * result is resolved); only paths that are there match, and with none bash leaves the pattern as written.
 */
export function patternMatchesOnDisk(rel: string, how: { dotglob?: boolean; globstar?: boolean }, ws: string, files: FileProbe, shared: NameBudget = { left: Infinity }): string[] | undefined {
  const abs = (r: string) => (r === "" ? ws : `${ws}/${r}`);
  const join = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);
  let budget = DISK_NAME_BUDGET;
  let at = [""];
  for (const seg of rel.split("/")) {
    if (seg === "" || seg === ".") continue;
    const re = seg === "**" && how.globstar ? undefined : /[*?[]/.test(seg) ? namePattern(seg) : undefined;
    if (re === undefined && !(seg === "**" && how.globstar)) {
      at = at.map((d) => join(d, seg));
      continue;
    }
    const next: string[] = [];
    const queue = [...at];
    while (queue.length > 0) {
      const d = queue.shift()!;
      if (seg === "**") next.push(d);
      const listing = files.list?.(abs(d));
      if (listing === undefined) {
        if (files.kind(abs(d)) === "missing" || files.kind(abs(d)) === "file") continue;
        return undefined;
      }
      for (const [n, k] of listing) {
        if (--budget < 0 || --shared.left < 0 || next.length >= DISK_EXPANSION_LIMIT) return undefined;
        if (n.startsWith(".") && !seg.startsWith(".") && !how.dotglob) continue;
        if (seg === "**") {
          if (k === "dir") queue.push(join(d, n));
          else next.push(join(d, n));
        } else if (re!.test(n)) next.push(join(d, n));
      }
    }
    at = next;
  }
  // bash expands a pattern to the paths that are there; with none, it leaves the pattern as written.
  return at.filter((a) => a !== "" && (files.kind(abs(a)) !== "missing" || files.realpath(abs(a)) !== undefined));
}

/** The bound on the paths a command's pattern is expanded to on disk, and on the entries of one folder read. */
const DISK_EXPANSION_LIMIT = 4096;
/** The bound on the names a pattern's expansion tries against its segments, over all the folders it lists. */
const DISK_NAME_BUDGET = 100_000;

/**
 * Names the expansions of several patterns may try in all (a validation's, a call's), beside each one's
 * own DISK_NAME_BUDGET: a line holds thousands of patterns, and each distinct one is expanded, so a plan
 * of 256 KiB took minutes in a workspace of 100,000 files. Past it an expansion stops as one past its own
 * bound does (the pattern counts as unbounded); `left` is then below zero.
 */
export interface NameBudget {
  left: number;
}

/** The names the protected globs hold at their last segment, with wildcards (`plangate.yaml`, `*.pem`, `.env*`). */
function lastNames(protectedGlobs: readonly string[]): string[] {
  return [...new Set(protectedGlobs.map((g) => g.split("/").filter((s) => s !== "**" && s !== "").pop() ?? "").filter((n) => n !== ""))];
}


/**
 * What a command path reaches on disk beyond its own name, relative to the workspace (`rel`, "" for the
 * root): a pattern's matches that exist, as bash expands it (`sed -i … *.yaml` writes plangate.yaml; a
 * name starting with `.` only where the pattern segment does), and, for a folder the program writes
 * everything under (`rm -r`, `find … -delete`, `chmod -R`, `git clean`), the workspace root itself or
 * a protected entry the folder holds. A folder too large to list is checked for the protected globs'
 * literal names; a pattern in a folder that cannot be listed is tried with their names. A pattern with
 * more matches, or folders holding more names, than plangate looks through counts as naming a protected
 * path (itself is the witness): what was left unseen could be one.
 */
export function reachesProtectedOnDisk(
  rel: string,
  how: { glob?: boolean; tree?: boolean; dotglob?: boolean; globstar?: boolean },
  ws: string,
  files: FileProbe,
  protectedGlobs: readonly string[],
  isProtected: (path: string) => boolean,
  shared: NameBudget = { left: Infinity },
): DiskReach | undefined {
  const abs = (r: string) => (r === "" ? ws : `${ws}/${r}`);
  const join = (dir: string, name: string) => (dir === "" ? name : `${dir}/${name}`);
  let targets = [rel];
  let budget = DISK_NAME_BUDGET;
  if (how.glob) {
    let at = [""];
    for (const seg of rel.split("/")) {
      if (seg === "" || seg === ".") continue;
      if (seg === "**" && how.globstar) {
        // With globstar, `**` is the folder itself and every folder and file below it (hidden ones with dotglob).
        const next: string[] = [];
        const queue = [...at];
        while (queue.length > 0) {
          const d = queue.shift()!;
          next.push(d);
          if (next.length >= DISK_EXPANSION_LIMIT) return { kind: "match", path: rel };
          const listing = files.list?.(abs(d));
          if (listing === undefined) {
            if (files.kind(abs(d)) === "dir") return { kind: "match", path: rel };
            continue;
          }
          for (const [n, k] of listing) {
            if (--budget < 0 || --shared.left < 0) return { kind: "match", path: rel };
            if (n.startsWith(".") && !how.dotglob) continue;
            if (k === "dir") queue.push(join(d, n));
            else next.push(join(d, n));
          }
        }
        at = next;
        continue;
      }
      const re = /[*?[]/.test(seg) ? namePattern(seg) : undefined;
      if (re === undefined) {
        at = at.map((d) => join(d, seg));
        continue;
      }
      const next: string[] = [];
      for (const d of at) {
        const listing = files.list?.(abs(d));
        // A folder that is not there holds no match: bash leaves the pattern as it is; nor does a file (`**` names files too).
        if (listing === undefined && (files.kind(abs(d)) === "missing" || files.kind(abs(d)) === "file")) continue;
        const names = listing ? [...listing.keys()] : lastNames(protectedGlobs).map((n) => n.replace(/[*?]/g, "x").replace(/\[[^\]]*\]|\{[^}]*\}/g, "x"));
        for (const n of names) {
          // More matches than plangate looks through: one of those left could be protected, so the pattern counts as one.
          if (--budget < 0 || --shared.left < 0) return { kind: "match", path: rel };
          if (!(seg.startsWith(".") || !n.startsWith(".") || how.dotglob) || !re.test(n)) continue;
          if (next.length >= DISK_EXPANSION_LIMIT) return { kind: "match", path: rel };
          next.push(join(d, n));
        }
      }
      at = next;
    }
    const hit = at.find((t) => isProtected(t));
    if (hit !== undefined) return { kind: "match", path: hit };
    targets = at;
  }
  if (!how.tree) return undefined;
  for (const t of targets) {
    if (t === "" || t === ".") return { kind: "root", folder: rel };
    if (files.kind(abs(t)) !== "dir") continue;
    const listing = files.list?.(abs(t));
    const names = listing ? [...listing.keys()] : [...hiddenNames(protectedGlobs), ...lastNames(protectedGlobs).filter((n) => !/[*?[{]/.test(n))].filter((n) => files.kind(abs(join(t, n))) !== "missing");
    if ((budget -= names.length) < 0 || (shared.left -= names.length) < 0) return { kind: "match", path: rel };
    const hit = names.find((n) => isProtected(join(t, n)));
    if (hit !== undefined) return { kind: "holds", folder: t, path: join(t, hit) };
    if (listing) {
      const deep = deepProtected(t, listing, files, abs, protectedGlobs, isProtected, shared);
      if (shared.left < 0) return { kind: "match", path: rel };
      if (deep !== undefined) return { kind: "holds", folder: t, path: deep };
    }
  }
  // What is written whole into a folder may not be on disk yet (an archive unpacked, a repository cloned,
  // a folder copied or moved there): a folder a protected glob names by its place may receive a protected file.
  for (const t of targets) {
    const under = protectedUnder(t, protectedGlobs);
    if (under !== undefined) return { kind: "under", folder: t, path: under };
  }
  return undefined;
}

/**
 * A protected glob that names files below a folder by the folder's place (.claude's settings.json at any
 * depth below `.claude`, `.github/workflows/` and all below it below `.github`), as a pattern of the
 * folder and the rest of the glob (`.claude/settings.json`), if any. A glob whose part before its last
 * segment is only `**` (any `*.pem`) names no folder: what is unpacked anywhere may hold such a file,
 * and `tar -x -C vendor` stays possible.
 */
export function protectedUnder(folder: string, protectedGlobs: readonly string[]): string | undefined {
  if (folder === "" || folder === ".") return undefined;
  const prefixes = compiledFrom("protected-prefixes", protectedGlobs, () => {
    const out: { test: (path: string) => boolean; rest: string }[] = [];
    for (const g of protectedGlobs) {
      const segs = g.split("/");
      for (let k = 1; k < segs.length; k++) {
        const head = segs.slice(0, k);
        if (head.every((s) => s === "**")) continue;
        out.push({ test: matcherFor([head.join("/")]), rest: segs.slice(k).join("/") });
      }
    }
    return out;
  });
  const hit = prefixes.find((p) => p.test(folder));
  return hit === undefined ? undefined : `${folder}/${hit.rest}`;
}

/** How many folders below a folder written whole are listed in search of a nested repository or policy. */
const DEEP_FOLDERS = 2000;

/**
 * A nested repository or policy deeper in a folder written whole (`rm -r vendor` holding
 * `vendor/lib/.git`, `find conf -delete` holding `conf/team/plangate.yaml`): the protected globs'
 * literal names (`.git`, `.ssh`, the policy's names), looked for through up to DEEP_FOLDERS folders,
 * symlinks not followed. Names matched by wildcards only (`*.pem` test keys in node_modules) are not
 * looked for this deep, so that `rm -rf node_modules` stays possible.
 */
function deepProtected(
  top: string,
  listing: ReadonlyMap<string, string | undefined>,
  files: FileProbe,
  abs: (r: string) => string,
  protectedGlobs: readonly string[],
  isProtected: (path: string) => boolean,
  shared: NameBudget,
): string | undefined {
  const literal = new Set([...hiddenNames(protectedGlobs), ...lastNames(protectedGlobs)].filter((n) => !/[*?[{]/.test(n)).map((n) => n.toLowerCase()));
  const queue = [...listing].filter(([, k]) => k === "dir").map(([n]) => `${top}/${n}`);
  for (let listed = 0; queue.length > 0 && listed < DEEP_FOLDERS; listed++) {
    const dir = queue.shift()!;
    const entries = files.list?.(abs(dir));
    if (!entries) continue;
    // Each name costs the shared budget: past it the caller counts the folder as unbounded.
    if ((shared.left -= entries.size) < 0) return undefined;
    for (const [n, k] of entries) {
      const path = `${dir}/${n}`;
      if (literal.has(n.toLowerCase()) && isProtected(path)) return path;
      if (k === "dir") queue.push(path);
    }
  }
  return undefined;
}

/**
 * Words of a reader's argument names that say the argument is what it reads (`input`, `source_file`,
 * `readFrom`, `url`) or what it looks for, not a file (`grep {pattern: ".env"}`, `glob`, `include`).
 */
const READ_WORDS = new Set(["input", "inputs", "in", "infile", "source", "sources", "src", "from", "read", "load", "open", "view", "url", "uri", "pattern", "patterns", "query", "q", "regex", "regexp", "search", "term", "glob", "include", "exclude", "excludes", "ignore", "ignores", "skip", "filter", "match", "text", "keyword", "keywords"]);
/**
 * Path argument names that name the file or folder a reader reads (`path`, `file_path`, `paths`, `notebook_path`,
 * `resource`), compared without case or separators. A reader's other path arguments (`target`, `new_path`,
 * `backup_file`, `log_file`, `cache_dir`) may name where it writes: a protected path there is refused, as an
 * argument plangate has no name for is.
 */
const READ_PATH_NAMES = new Set([
  "path", "paths", "filepath", "filepaths", "file", "files", "filename", "filenames", "fname", "resource", "resources", "notebookpath", "notebook",
  "relativepath", "relpath", "absolutepath", "abspath", "fullpath", "document", "documentpath", "docpath", "p",
]);
/** Folder names a reader reads in (`cwd`, `dir`, `root`, `working_directory`); not `cache_dir`, `log_dir`, `backup_dir`. */
const READ_FOLDER_NAMES = new Set([
  "cwd", "dir", "dirs", "directory", "directories", "folder", "folders", "root", "rootdir", "rootpath", "workdir", "workingdir", "workingdirectory",
  "basedir", "basepath", "base", "searchpath", "searchdir", "location", "repo", "repopath", "repository", "project", "projectdir", "projectroot",
]);
/** Does a reader's argument name a folder it reads in (READ_FOLDER_NAMES)? */
function readsIn(name: string): boolean {
  return isFolderName(name) && READ_FOLDER_NAMES.has(name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase());
}
/** Does a reader's path argument name what it reads (READ_PATH_NAMES)? */
function namesTheRead(name: string): boolean {
  return READ_PATH_NAMES.has(name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase());
}
/** Words of an argument name that say it holds what a tool looks for, not a file (`query`, `pattern`, `prompt`). */
const SEARCH_WORDS = new Set(["pattern", "patterns", "query", "q", "regex", "regexp", "search", "term", "terms", "keyword", "keywords", "text", "match", "filter", "prompt", "question", "selector"]);
/** Does an argument name say it holds a search term (SEARCH_WORDS)? */
function namesSearchTerm(name: string): boolean {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).some((w) => SEARCH_WORDS.has(w));
}
const EMPTY_NAMES: ReadonlySet<string> = new Set();
/** A web address's scheme: what a tool fetches from or sends to (`https:`, `ftp:`, `s3:`, `wss:`). */
const WEB_URL = /^\s*(?:https?|ftps?|sftp|s3|gs|wss?):\/\//i;
/** The first web address among a step's arguments outside content, or undefined. */
function webUrlOf(facts: StepFacts): ArgLeaf | undefined {
  const strings = facts.strings;
  for (let i = 0; i < strings.length; i++) {
    const a = strings[i]!;
    if (!a.content && a.value.length < 8192 && WEB_URL.test(a.value)) return a;
  }
  return undefined;
}
const readMemo = new Map<string, boolean>();
/** Does a reader's argument name say what it reads or looks for (see READ_WORDS)? */
function namesWhatIsRead(name: string): boolean {
  let hit = readMemo.get(name);
  if (hit === undefined) {
    const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/);
    hit = words.some((w) => READ_WORDS.has(w));
    if (readMemo.size < 4096) readMemo.set(name, hit);
  }
  return hit;
}
const READER_HINT =
  "give the file under the tool's path argument (path, file_path...), or remove the argument; if the tool only reads what that argument names, describe it so in the tool registry's inputSchema (\"description\": \"File to read\")";
const PATTERN_HINT = 'narrow the pattern so that it cannot match .git, .env*, keys or the policy (e.g. "src/[a-z]*.py" instead of "**/*"), or list the files with {"$enum": […]}';
const PROTECTED_HINT = "remove the write or choose another file; protected paths are listed in paths.protected, and a default one a plan must write can be lifted with paths.unprotect";

/**
 * Does a path match a pattern as bash reads it with globstar and without dotglob, without case: `*`, `?`
 * and `[...]` within a name, and never a name starting with `.` unless the pattern's name does; `**` any
 * number of folders, none of them hidden.
 */
function bashMatches(glob: string, path: string): boolean {
  const g = glob.split("/").filter((x) => x !== "" && x !== ".");
  const p = path.split("/").filter((x) => x !== "");
  if (g.length > 64 || p.length > 64) return false;
  const res = g.map((seg) => (seg === "**" || !/[*?[]/.test(seg) ? undefined : namePattern(seg)));
  const memo = new Map<number, boolean>();
  const go = (i: number, j: number): boolean => {
    const key = i * 65 + j;
    const known = memo.get(key);
    if (known !== undefined) return known;
    let ok: boolean;
    if (i === g.length) ok = j === p.length;
    else if (g[i] === "**") ok = go(i + 1, j) || (j < p.length && !p[j]!.startsWith(".") && go(i, j + 1));
    else if (j === p.length) ok = false;
    else {
      const seg = g[i]!;
      const name = p[j]!;
      const re = res[i];
      const here = re === undefined ? seg.toLowerCase() === name.toLowerCase() : re.test(name) && (!name.startsWith(".") || seg.startsWith("."));
      ok = here && go(i + 1, j + 1);
    }
    memo.set(key, ok);
    return ok;
  };
  return go(0, 0);
}

/**
 * Tools known to write though no policy list names them (the agent hosts' own writers, the common editor
 * tools), compared without case or separators: a protected path one of them is given is reported as a
 * write, not as a tool plangate cannot tell about.
 */
const KNOWN_WRITERS = new Set(
  [...DEFAULT_WRITE_TOOLS, "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "Task", "Agent", "str_replace_editor", "str_replace_based_edit_tool", "text_editor", "apply_diff", "insert_content", "write_to_file", "search_and_replace"].map(looseName),
);

/**
 * The protected globs that name a place (`.github/workflows/` and all below it, `.claude/settings.json` at
 * any depth, `.git/` and all below it), without those that name a file by its name alone, at the root or at
 * any depth (`.env*`, any `*.pem`, any `plangate.yaml`): a pattern below a protected folder is judged by
 * the places it can reach; names anywhere, by what is on disk.
 */
function placeGlobs(protectedGlobs: readonly string[]): readonly string[] {
  return compiledFrom("place-globs", protectedGlobs, () => protectedGlobs.filter((g) => !/^(?:\*\*\/)*[^/]+$/.test(g)));
}

/** Argument names under which a writer is given a pattern of the files it writes (`glob`, `include`, `files`). */
const FILE_PATTERN_NAMES = new Set(["glob", "globs", "include", "includes", "files", "filepattern", "filepatterns", "fileglob", "fileglobs", "pathpattern", "pathglob", "paths", "targets"]);
/** Names that hold a pattern of files when the step names no path otherwise, and a pattern of text (a regex) beside one. */
const MAYBE_FILE_PATTERN_NAMES = new Set(["pattern", "patterns", "match", "filter", "select", "selector"]);
/** How many alternatives of a pattern's braces are expanded; past it the pattern counts as naming a protected path. */
const MAX_BRACE_EXPANSIONS = 32;

/** The patterns a text with braces stands for (`*.{yml,yaml}`), at most MAX_BRACE_EXPANSIONS; undefined past it. */
function expandBraces(text: string): string[] | undefined {
  let out = [text];
  for (let round = 0; round < 8; round++) {
    const next: string[] = [];
    let changed = false;
    for (const t of out) {
      const m = /\{([^{}]*,[^{}]*)\}/.exec(t);
      if (!m) {
        next.push(t);
        continue;
      }
      changed = true;
      for (const alt of m[1]!.split(",")) next.push(t.slice(0, m.index) + alt + t.slice(m.index + m[0].length));
      if (next.length > MAX_BRACE_EXPANSIONS) return undefined;
    }
    out = next;
    if (!changed) return out;
  }
  return undefined;
}

/**
 * The first protected path a pattern a writing step is given names, with the argument holding it: a
 * path-like value with wildcards (`.e*`, `.github/**`), a value under a name of file patterns (`glob`,
 * `include`, `files`), or under `pattern`, `match`, `filter` when the step names no path otherwise (beside
 * a path they are a search of text). Read as bash with globstar reads it: a name starting with `.` expands
 * to the protected hidden names (`.e*` is `.env`), `*` and `**` skip hidden names; below a folder where
 * protected paths lie (`.github/**`) the protected paths it can match count, elsewhere the matches that
 * are on disk (`**` beside `lefthook.yml`); a pattern with more matches than plangate looks through, or
 * more brace alternatives than it expands, counts as naming one. Also read from each folder the step names.
 */
function writtenPatternHit(
  facts: StepFacts,
  isProtected: (path: string) => boolean,
  hidden: readonly string[],
  protectedGlobs: readonly string[],
  files: FileProbe,
  ws: string,
  meter: NameBudget,
  witnesses: WorkMeter,
): { leaf: ArgLeaf; witness: string } | undefined {
  // The path arguments, and the other strings; a constraint (`{"$glob": ...}`) is judged as one, by the rule.
  // Indexed over both lists without joining them: this runs for every writing step.
  const pathArgs = facts.pathArgs;
  const others = facts.strings;
  let folders: readonly ArgLeaf[] | undefined;
  for (let i = 0; i < pathArgs.length + others.length; i++) {
    const a = i < pathArgs.length ? pathArgs[i]! : others[i - pathArgs.length]!;
    if (a.content || a.constraint !== undefined || !/[*?[{]/.test(a.value) || isCommandArgument(a.name)) continue;
    if (i >= pathArgs.length && facts.isPathArgument(a, true)) continue;
    const bare = a.name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase();
    const named = FILE_PATTERN_NAMES.has(bare) || (MAYBE_FILE_PATTERN_NAMES.has(bare) && facts.pathArgs.length === 0);
    if (!named && !(a.has(LeafTag.PathLike) && mayNamePath(a.name, a.value))) continue;
    const value = a.value.trim();
    if (value.includes("\n")) continue;
    const expanded = expandBraces(value);
    if (expanded === undefined) return { leaf: a, witness: value };
    folders ??= facts.folders().filter((f) => !isAbsoluteAnywhere(f.value.trim()));
    for (const e of expanded) {
      const texts = [e, ...folders.map((f) => inFolder(f.value, e)).filter((t): t is string => t !== undefined)];
      for (const t of texts) {
        let rel = t.replace(/^(?:\.\/+)+/, "");
        if (rel.startsWith("/")) {
          if (!isInside(rel, ws)) continue;
          rel = relativeInside(rel, ws);
        } else if (isAbsoluteAnywhere(rel) || rel.startsWith("~")) continue;
        if (rel === "" || !/[*?[]/.test(rel)) {
          if (rel !== "" && rel !== value && isProtected(rel)) return { leaf: a, witness: rel };
          continue;
        }
        const shell = shellGlobReachesProtected(rel, hidden, isProtected);
        if (shell !== undefined) return { leaf: a, witness: shell };
        // Below a folder where protected paths lie (`.github/**`, `.claude/*/x`), whatever is on disk now.
        const segs = rel.split("/");
        const first = segs.findIndex((x) => /[*?[]/.test(x));
        const prefix = segs.slice(0, first).join("/");
        if (prefix !== "" && (isProtected(prefix) || protectedUnder(prefix, protectedGlobs) !== undefined)) {
          const witness = globReachesProtected(rel, placeGlobs(protectedGlobs), (w) => isProtected(w) && bashMatches(rel, w), witnesses);
          if (witness) return { leaf: a, witness };
        }
        const disk = reachesProtectedOnDisk(rel, { glob: true, globstar: true }, ws, files, protectedGlobs, isProtected, meter);
        if (disk !== undefined && disk.kind === "match") return { leaf: a, witness: disk.path };
      }
    }
  }
  return undefined;
}

export default defineRule({
  meta: {
    id: "protected-path-write",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      globReachesProtected: { message: "Step {{step}}: \"{{tool}}\" may write to a protected path through the $glob \"{{pattern}}\" in \"{{argument}}\" (it matches \"{{witness}}\").", hint: PATTERN_HINT },
      unreadableGlob: { message: "Step {{step}}: \"{{tool}}\" may write to a protected path through the $glob \"{{pattern}}\" in \"{{argument}}\" (the glob cannot be read).", hint: PATTERN_HINT },
      patternMayReachProtected: { message: "Step {{step}}: \"{{tool}}\" may write to a protected path through the {{constraint}} \"{{pattern}}\" in \"{{argument}}\".", hint: PATTERN_HINT },
      readerUnknownArgument: {
        message: "Step {{step}}: \"{{tool}}\" reads, but its argument \"{{argument}}\" names the protected path \"{{path}}\"{{resolved}}, and plangate cannot tell that the tool only reads what that argument names.",
        hint: READER_HINT,
      },
      readerTextBesideProtected: {
        message: "Step {{step}}: \"{{tool}}\" reads, but is given text in \"{{argument}}\" beside the protected path \"{{path}}\"{{resolved}} in \"{{pathArgument}}\": it may write that text there.",
        hint: "give a tool that reads a protected path no file text (body, data, text, lines...); if that argument is what it searches for, name it so (query, pattern) or describe it so in the tool registry's inputSchema (\"description\": \"Text to search for\")",
      },
      readerProtectedDefault: {
        message: "Step {{step}}: \"{{tool}}\" reads, but leaves out its argument \"{{argument}}\", which the tool's registry schema defaults to the protected path \"{{path}}\"{{resolved}}, and plangate cannot tell that the tool only reads what that argument names.",
        hint: "give that argument a file outside protected paths; if the tool only reads what it names, describe it so in the tool registry's inputSchema (\"description\": \"File to read\")",
      },
      protectedPath: { message: "Step {{step}}: \"{{tool}}\" would write to the protected path \"{{path}}\"{{resolved}}.", hint: PROTECTED_HINT },
      protectedBesideUrl: {
        message: "Step {{step}}: \"{{tool}}\" reaches the web address \"{{url}}\", and its argument \"{{argument}}\" names the protected path \"{{path}}\"{{resolved}}: the file may be sent there, or what is fetched saved in it.",
        hint: "fetch and read files in separate steps, and leave protected paths (.env, keys, .git, the policy) out of a step that reaches a URL; protected paths are listed in paths.protected",
      },
      protectedDefault: {
        message: "Step {{step}}: \"{{tool}}\" leaves out its argument \"{{argument}}\", which the tool's registry schema defaults to the protected path \"{{path}}\"{{resolved}}: the tool would write there.",
        hint: "give that argument a file outside protected paths; protected paths are listed in paths.protected",
      },
      patternArgumentReachesProtected: {
        message: "Step {{step}}: \"{{tool}}\" writes, and the pattern \"{{pattern}}\" in \"{{argument}}\" names the protected path \"{{witness}}\".",
        hint: "narrow the pattern so that it cannot name .git, .env*, keys or the policy, or name the files one by one; protected paths are listed in paths.protected",
      },
      protectedPathUnknownTool: {
        message: "Step {{step}}: plangate cannot tell whether \"{{tool}}\" writes (neither tools.read, tools.write nor the tool registry says), so it is taken to write to the protected path \"{{path}}\"{{resolved}}.",
        hint: "if the tool only reads, say so: list it in tools.read in the policy, or mark it read-only in the tool registry (annotations.readOnlyHint: true); if it writes, remove the write or choose another file (paths.protected; paths.unprotect lifts a default glob)",
      },
      protectedPathWriteArgument: {
        message: "Step {{step}}: \"{{tool}}\" is a reader, but its argument \"{{argument}}\" {{how}}: it would write to the protected path \"{{path}}\"{{resolved}}.",
        hint: "remove that argument or choose another file; if the tool really only reads whatever that argument says, mark it read-only in the tool registry (annotations.readOnlyHint: true)",
      },
      tooManyFolderPaths: { message: "Step {{step}}: the step names {{folders}} folders and {{paths}} paths that may be read from them, more than plangate checks ({{maxFolders}} folders, {{max}} pairs).", hint: "split the step, or name fewer folders (cwd, dir, root...) in it" },
      protectedJoined: { message: "Step {{step}}: \"{{tool}}\" would write to the protected path \"{{resolved}}\": the parts {{parts}} in \"{{argument}}\" joined into one path.", hint: "remove the write, or name a file outside protected paths; a list of names is read as the parts of one path, as an executor that joins them writes it; protected paths are listed in paths.protected" },
      protectedInFolder: { message: "Step {{step}}: \"{{tool}}\" would write to the protected path \"{{resolved}}\": \"{{path}}\" read from the folder \"{{folder}}\" in \"{{folderArgument}}\".", hint: "remove the write, or name a file outside protected paths; a relative path is read from the folder the step names (cwd, dir, root...); protected paths are listed in paths.protected" },
      shortName: { message: "Step {{step}}: \"{{tool}}\" would write to the protected path \"{{path}}\"{{resolved}}, a Windows 8.3 short name that may stand for .git, .env or the policy.", hint: PROTECTED_HINT },
      commandTreeProtected: { message: "Step {{step}}: the command in \"{{argument}}\" writes everything under {{path}}, which holds the protected path \"{{witness}}\".", hint: "name the files or folders below it that the step changes, leaving protected paths out; protected paths are listed in paths.protected" },
      commandTreeUnder: {
        message: "Step {{step}}: the command in \"{{argument}}\" writes everything under {{path}}, a folder where protected paths lie (\"{{witness}}\"), so what it puts there may be one.",
        hint: "unpack, clone or copy into another folder and write the files below it that the step needs by name; protected paths are listed in paths.protected",
      },
      commandTreeRoot: { message: "Step {{step}}: the command in \"{{argument}}\" writes everything under {{path}}, the workspace root, which holds .git and the policy.", hint: "name the files or folders below the root that the step changes; unpack an archive or apply a patch in a folder below the root (tar -C build, unzip -d build, patch -d build)" },
      commandProtectedPath: { message: "Step {{step}}: the command in \"{{argument}}\" names the protected path {{path}}{{resolved}}.", hint: "remove that part of the command or choose another file; protected paths are listed in paths.protected" },
      // A host's shell call, checked by the guard when it is made (src/approval/host-command.ts).
      hostCommandProtectedPath: { message: 'The {{tool}} command names the protected path "{{path}}".', hint: "leave protected paths alone (paths.protected)" },
      hostCommandTreeUnder: {
        message: 'The {{tool}} command writes everything under "{{path}}", a folder where protected paths lie ("{{witness}}"), so what it puts there may be one.',
        hint: "unpack, clone or copy into another folder and write the files below it that the command needs by name (paths.protected)",
      },
      hostCommandTreeProtected: { message: 'The {{tool}} command writes everything under "{{path}}", which holds the protected path "{{witness}}".', hint: "name the files or folders below it that the command changes, leaving protected paths out (paths.protected)" },
      hostCommandTreeRoot: { message: 'The {{tool}} command writes everything under "{{path}}", the workspace root, which holds .git and the policy.', hint: "name the files or folders below the root that the command changes; unpack an archive or apply a patch in a folder below the root (tar -C build, unzip -d build, patch -d build)" },
      // A call's paths, checked by the guard when the call is made (src/approval/call-paths.ts).
      ...checkedAtCallMessages,
    },
    summary: "A write tool targets a protected path.",
    docs: {
      description:
        "Reports a path of a write tool that matches a protected glob (`paths.protected`; defaults `.git` at any depth, `.env*`, `**/*.pem`, `**/*.key`, SSH keys, the host's hook configuration that runs the guard (`.claude/settings.json`, `.claude/settings.local.json`, `.claude/hooks/**`), the plangate policy under every name at any depth, and what runs code or widens what the agent may do outside the approved plan: at any depth, the agent hosts' MCP servers (`.mcp.json`, `.cursor/mcp.json`, `.vscode/mcp.json`, `.gemini/settings.json`), Claude Code's `.claude/commands/**`, `.claude/agents/**` and `.claude/skills/**`, the editor's `.vscode/tasks.json`, `settings.json`, `launch.json` and `*.code-workspace`, `.devcontainer/**` and `.husky/**`; at the workspace root, CI workflows (`.github/workflows/**`, `.gitlab-ci.yml`, `.circleci/**`, `.travis.yml`, `Jenkinsfile`...) and git hook managers (`.pre-commit-config.yaml`, `lefthook.yml`...); `paths.unprotect` lets writers touch a default glob after all, `CLAUDE.md` stays writable). Writers are decided by effect, failing closed: a tool in `tools.write`, or marked `readOnlyHint: false` or `destructiveHint: true` in the registry, writes; a tool marked `readOnlyHint: true` in the registry, or in `tools.read` (defaults `read_file`, `list_dir`, `grep`, `Read`, `Glob`, `Grep`, `LS`, the Markdown `READ`, …), reads; any other tool, unknown ones included, is taken to write (`notebook_edit`, `fs`, `file`, `WriteFile`, `fs.write`: the name is not read), and a protected path given to one whose name says nothing of writing is reported as such (`protectedPathUnknownTool`), with how to declare a tool that only reads (tools.read, or readOnlyHint: true); an annotation that is not a JSON boolean makes a writer. Whatever its tool, a step given a content argument (`content`, `file_text`, `new_string`, …, in any case and with any separators: `fileText`, `newString`; `edits`, `new_source`, `replacement` holding text, a list or an object) or a path-like output argument (`output`, `out_file`, `save_as`, `dest`, `to`, …) writes; so does a step of a tool that reads by `tools.read` alone given an argument that says it writes (`protectedPathWriteArgument`): an open mode or permissions (`mode: \"w\"`, `\"a\"`, `\"r+\"`, `flags: \"wx\"` or a non-zero number, `permissions: \"0755\"`), an operation (`command: \"create\"`, `op: \"write\"`, `action: \"str_replace\"`, `method: \"PUT\"`), a switch that is on (`overwrite: true`, `create_if_missing: \"yes\"`, `in_place: 1`, `truncate`, `delete`, `save`, `replace: \"text\"`), or a URL beside a path argument (`WebFetch {url, file: \".env\"}`: where the download is saved), or an argument it leaves out whose default in the registry schema says it writes (`mode: {default: \"w\"}`); a tool the registry marks `readOnlyHint: true` is taken at its word for modes, operations and switches. A writer's pattern of the files it writes (a path argument with wildcards, or a value under `glob`, `include`, `files`, or under `pattern`, `match`, `filter` when the step names no path otherwise) is read as bash with globstar reads it (`patternArgumentReachesProtected`): a name starting with `.` expands to the protected hidden names (`{pattern: \".git/**\", delete: true}`, `{path: \".e*\", content: ...}`), a pattern below a folder where protected paths lie names what it can match there (`{include: \".github/**\"}`), and elsewhere the matches on disk count (`{glob: \"**/*.yml\"}` beside `lefthook.yml`); braces are expanded (`{docs,.claude}/**`). Its paths are its path arguments (see `path-outside-workspace`: listed names, names ending in `path`, `file`, `dir`, `to`, `out`, `output`, …, `format: \"path\"` in the registry, `file:` URLs and local database URLs, `sqlite:///app.db`) and any other argument value or object key that looks like a path (holds a `/` or starts with `.`; spaces at its ends, which an executor may trim, do not count, and a name with spaces inside counts when it holds a separator: `deploy keys/prod key.pem`) or is a bare name a protected glob matches (`{\"name\": \"plangate.yaml\"}`) or that names a symbolic link in the workspace root (`{\"name\": \"hooks\"}` with `hooks` linked to `.git/hooks`), also spelt with percent escapes (`%2egit%2fconfig`), the keys of a map under a path name included (`files: {\".git/config\": …}`), and the files a patch names in its headers (`apply_patch {input: \"*** Update File: .git/config ...\"}`, `+++ b/.git/hooks/pre-commit`). A relative path or bare word is also read from each folder the step names (`cwd`, `workdir`, `workingDirectory`, `dir`, `directory`, `folder`, `root`, `base_path`, `location`, `prefix`, `parent`, `into`, `options.cwd`...; see `path-outside-workspace`), as an executor that joins them writes it: `{cwd: \".github\", path: \"workflows/ci.yml\"}` and `{dir: \".claude\", name: \"settings.json\"}` are protected, and so is a command line's path read from such a folder. A value that names a folder of protected paths (`.claude`, `.github`, `.vscode`, `.husky`...) is such a folder under any name (`{parent: \".claude\", name: \"settings.json\"}`, `{container: \".github\", entry: \"workflows/ci.yml\"}`); a list of names is the parts of one path, as an executor that joins them writes it (`{path: [\".claude\", \"settings.json\"]}`, `{segments: [\".github\", \"workflows\", \"ci.yml\"]}`: `protectedJoined`), and so is a map whose keys name such a folder and the names in it (`{files: {\".claude\": {\"settings.json\": ...}}}`), and a name with its extension given apart (`ext`, `extension`, `suffix`, `format`, `file_type`: `{stem: \"plangate\", extension: \"yaml\"}`, `{name: \"server\", format: \"pem\"}`); and the values inside structured text of an argument (a JSON object or list, `key: value` and `key=value` pairs of YAML, TOML or option text: `{config: \"{\\\"path\\\": \\\".git/config\\\"}\"}`, `{flags: \"--output=.env\"}`) and the URLs of other schemes that name a local file (`git+file:`, `svn+file:`, `vscode://file/`, `cursor://file/`) are paths too. Globs match the path relative to the workspace root, as written and after following symlinks, without case (a case-insensitive file system writes `.GIT/config` into `.git`), in its Windows spelling (`.git./config`, `.git /config`, `.git::$INDEX_ALLOCATION/config` are `.git/config` there) and in NFKC form without the invisible code points HFS+ ignores (a Kelvin sign in `.\u212Aey` is a `K`). A Windows 8.3 short name (`GIT~1`, `PLANGA~1.YAM`) may stand for any protected name and counts as protected (in a command line, one a protected name could have been given: its first six characters without leading dots, and three of its extension; `HEAD~1` is a git revision). The paths a command line names (a plan's, and a guarded host's shell call) are read in the same spellings, but for what a program that only reads its operands is given (`cat`, `head`, `tail`, `wc`, `ls`, `grep`, `diff`, `cmp`, `stat`, `du`, the checksum programs, `realpath`, `readlink`, `nl`, `od`, named by their names alone: `./cat` may be anything) and a `< file` redirection, which are reads: a read is refused only for a path that holds secrets (`.git`, `.env*`, keys, `.ssh`, the hosts' settings and MCP configurations, and any glob the policy adds), so `cat .github/workflows/ci.yml` passes and `cat .env` does not (a redirection or a pipe into a writer on the same line still writes); in a command line, a pattern bash expands to a hidden protected name (`cp a .e*` names `.env`, `> .gi?/config` names `.git/config`; after `shopt -s dotglob` any pattern, `lib/?git/config`; after `shopt -s globstar` a `**` through any number of folders) is protected too, and so is a pattern whose existing matches on disk hold one (`sed -i … *.yaml` beside plangate.yaml), or that has more matches than plangate looks through (4096). A command that writes everything under a folder (`rm -r`, `chmod -R` and the like, long options abbreviated too (`--recurs`), `cp -r` and its `--target-directory`, `rsync -a`, `mv`, `rimraf`, `find` with `-delete` or `-exec`, `git clean`; and an archive or patch unpacked there, which may name any file: `tar -x`, `unzip`, `7z x`, `cpio -i`, `ar x`, `patch`, `git apply`, `git am`) is reported when the folder is the workspace root (`rm -rf .`, `find . -delete`, `git clean -fdx`) or holds a protected entry directly (`rm -rf vendor/lib` beside `vendor/lib/.git`); deeper, through up to 2,000 folders, a nested repository or policy is looked for by the protected globs' literal names (`rm -rf vendor` holding `vendor/lib/.git`), not by wildcards (test keys in `node_modules`); a folder a protected glob names by its place (`.claude`, `.vscode`, `.github`), written whole by an archive, a clone, a copy or a move, whatever it holds now; a folder too large to list is checked for the protected globs' literal names only. Read tools may read protected paths; but a reader (by `tools.read`, or marked `readOnlyHint: true` by the registry: its author's claim), given a protected path-like value or a bare protected name (`plangate.yaml`, `id_rsa`) under an argument that is neither the path it reads (`path`, `file_path`, `paths`, `notebook_path`, `resource`...; `name` for a bare name), a folder it reads in (`cwd`, `dir`, `root`), an input (`input`, `source`, `from`, `url`), a search term (`pattern`, `query`, `glob`, `include`, `exclude`, `ignore`, `filter`...) nor an argument its registry schema describes as read (`\"description\": \"File to read\"`, `\"Input file\"`, `\"Text to search for\"`; not when a description or title of it also says it is changed, `\"Input file to read and then overwrite\"`, or is longer than 4,096 characters), is reported (another path argument, `target`, `report`, `new_path`, `backup_file`, `log_file`, `cache_dir`, may be where it writes) (`read_file {path: a.txt, export: .env}`, a list of names there that joins into one, `export: [\".claude\", \"settings.json\"]`, and a map's key there, `results: {\".env\": …}`): nothing tells that it only reads what that argument names. A reader given a file's text beside a path writes it there (`protectedPathWriteArgument`): any text under `body`, `source_code`, `file_content`, `file_data`, `payload`, `template`, `snippet`, `blob`, encoded text (`contents_b64`, `dataBase64`), a list of lines under `lines` (not line numbers, `lines: \"1-20\"`), and text of several lines under `text`, `data`, `code`, `source`, `value`, `message`, `script`, `json`, `yaml`, `markdown`, `html`... (a path under such a name is where the text is written: `{source: \".env\", data: \"A=1\\nB=2\"}`; one line there is a search term or a value: `{path: \"src\", text: \"TODO\"}` reads); one line of such text beside a protected path is refused too (`readerTextBesideProtected`: `{path: \".env\", data: \"TOKEN=x\"}`), unless the registry schema describes the argument as what the tool looks for. An argument a step leaves out is judged with the default the tool's registry schema gives it (a `default`, a `const` or a one-member `enum`, through `$ref`, `allOf`, `anyOf`, `oneOf`, `then` and `else`, and inside an object argument, given or left out), as if given: a protected path there is refused for a writer under any name (`protectedDefault`), and for a reader under a name that says nothing of reading (`readerProtectedDefault`: `report: {default: \".env\"}`). A write tool's argument constraint is judged by its worst case: each `$enum` member as a path; a `$glob` is reported when some path it matches is protected (a witness search both ways: `**/*` or `src/*` can name `.git/x` or `src/.env`); a `$regex` on its path always.",
      rationale:
        "The intake protocol §4: no protected paths in write operations. Version control internals, secrets and the policy itself must not be changed by a plan, nor what runs on its own later (the host's MCP servers and hooks, the editor's tasks, CI on the next push, git hooks on the next commit) or widens what the agent may do: a plan that wrote them would run code, or grant tools, that no one approved.",
      fix: "Remove the write, or target another file; for a default glob the plan really must write (a plan that edits CI), list it in `paths.unprotect`, in an `overrides` entry for those plan files only.",
      bad: "steps: [{tool: write_file, arguments: {path: .git/hooks/pre-commit, content: …}, intent: …}]",
      good: "steps: [{tool: read_file, arguments: {path: .git/HEAD}, intent: …}]",
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    const paths = ctx.facts.paths;
    const isProtected = matcherFor(ctx.policy.paths.protected);
    const witnesses = ctx.facts.work.meter("patternWitnesses");
    // The names a Windows 8.3 short name could stand for, once per validation (not per step or argument).
    const shortNames = protectedNames(ctx.policy.paths.protected);
    const absolute = ctx.policy.paths.protected.some((g) => g.startsWith("/"));
    // The folder names of protected paths (`.claude`, `.github`): a value naming one is a folder under any name.
    const hidden = hiddenFolderNames(ctx.policy.paths.protected);
    const hiddenProtected = hiddenNames(ctx.policy.paths.protected);
    const ws = paths.workspace;
    const wsReal = paths.workspaceReal;
    // A bare name (no separator, no leading dot) under another name counts when it names a protected
    // file: `{"name": "plangate.yaml"}` given to a writer may be the policy beside the plan. Each value
    // is looked up once per validation (plans repeat their words).
    const bareSeen = new Map<string, boolean>();
    const bare = (name: string, leaf: ArgLeaf) => {
      if (!mayBeFileName(name, leaf.value, leaf.isPlainWord())) return false;
      const value = leaf.value;
      let hit = bareSeen.get(value);
      // Spaces at either end may be trimmed by the executor: ` plangate.yaml` is the policy there. A
      // symbolic link of that name in the workspace (`git` to `.git`) is resolved like a path.
      if (hit === undefined) bareSeen.set(value, (hit = protectedSpelling(value.trim(), isProtected, shortNames) !== undefined || paths.isLinkName(value.trim())));
      return hit;
    };
    // Whether a path text is protected in some reading: the candidate it is protected as, and whether
    // that is for a Windows 8.3 short name.
    const protectedHit = (value: string, matches: (path: string) => boolean = isProtected): { hit: string; short: boolean } | undefined => {
      const candidates: string[] = [];
      const add = (c: string) => {
        if (c !== "" && !candidates.includes(c)) candidates.push(c);
      };
      const readings = paths.resolve(value);
      for (let i = 0; i < readings.length; i++) {
        const r = readings[i]!;
        if ("unsafe" in r) continue;
        const lexInside = isInside(r.lexical, ws);
        const realInside = isInside(r.real, wsReal);
        if (lexInside) add(relativeInside(r.lexical, ws));
        if (realInside) add(relativeInside(r.real, wsReal));
        // Absolute forms matter for absolute globs, and for a path outside (no relative form to match).
        if (absolute || !lexInside) add(r.lexical);
        if (absolute || !realInside) add(r.real);
      }
      for (let i = 0, n = candidates.length; i < n; i++) {
        const forms = spellings(candidates[i]!);
        for (let j = 0; j < forms.length; j++) add(forms[j]!);
      }
      // A Windows 8.3 short name (`GIT~1`, `ENV~1`, `PLANGA~1.YAM`) names whichever long name the
      // file system gave it, protected or not: it cannot be shown to be safe, so it counts as protected.
      const short = candidates.find(hasShortName);
      const hit = short ?? candidates.find((c) => matches(c));
      return hit === undefined ? undefined : { hit, short: short !== undefined };
    };
    // The first protected path among the strings of a registry default (schemaDefaults): one under a path
    // name, one that looks like a path, or a bare name a protected glob matches.
    const protectedDefaultIn = (d: { name: string; value: unknown }): { path: string; hit: string } | undefined => {
      for (const v of defaultStrings(d.value)) {
        if (v.trim() === "" || !(isPathName(d.name, EMPTY_NAMES) || mayNamePath(d.name, v) || mayBeFileName(d.name, v))) continue;
        const found = protectedHit(v);
        if (found !== undefined) return { path: v, hit: found.hit };
      }
      return undefined;
    };
    // The secrets among the protected globs: what a tool that reaches a URL may not be given even to read.
    let secrets: ((path: string) => boolean) | undefined;
    // The loops over steps and leaves are indexed: for-of allocates in code V8 has not optimised yet (one
    // large plan validated once runs mostly there).
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      // Past the validation's bound on distinct paths the rest is not checked (limit-exceeded says so).
      if (ctx.facts.work.spent("pathTexts")) break;
      if (step.tool === undefined) continue;
      const facts = ctx.facts.step(step);
      if (!facts.writes) {
        const vouched = ctx.facts.tools?.annotations?.get(step.tool)?.readOnlyHint === true;
        // A reader that reaches a web address and is given a protected file under any name but a search
        // term's (`WebFetch {url: "https://x", input: ".env"}`) may send the file there, or save what it
        // fetches in it: refused. A tool the registry marks read-only is taken at its word that it writes
        // nothing, not that it sends nothing: a secret (.env, keys, .git...) beside a URL is refused for it too.
        const url = webUrlOf(facts);
        if (url !== undefined) {
          const matches = vouched ? (secrets ??= matcherFor(readProtectedGlobs(ctx.policy.paths.protected))) : isProtected;
          let sent = false;
          for (const a of facts.strings) {
            if (a.content || a.constraint !== undefined || !a.has(LeafTag.PathLike) || namesSearchTerm(a.name) || isRemoteUrl(a.value.trim())) continue;
            const found = protectedHit(a.value, matches);
            if (found === undefined) continue;
            ctx.report({ at: a.at, step: step.position, messageId: "protectedBesideUrl", data: { step: step.position, tool: step.tool, path: a.value, argument: a.name, resolved: found.hit !== a.value ? ` (${found.hit})` : "", url: url.value }, actual: a.value });
            sent = true;
            break;
          }
          if (sent) continue;
        }
        // A reader, whatever says it reads (tools.read, or the registry's readOnlyHint: its author's claim),
        // may still write through an argument whose name says nothing of reading (`read_file {path: a.txt,
        // export: .env}`, `{report: "plangate.yaml"}`): a protected path there is refused, as what may be
        // written, unless the tool's registry schema describes that argument as what it reads.
        const schema = ctx.facts.tools?.schemas.get(step.tool);
        const readArgs = schemaReadArguments(schema);
        const reads = (name: string, isPath: boolean) => readArgs.has(name) || namesWhatIsRead(name) || readsIn(name) || (isPath && namesTheRead(name));
        const embedded = facts.embedded();
        let reported = false;
        for (const a of embedded.length === 0 ? facts.strings : [...facts.strings, ...embedded.filter((e) => !isCommandArgument(e.outer)).map((e) => e.leaf)]) {
          if (a.content || a.constraint !== undefined) continue;
          // A path argument, a folder the reader reads in (`cwd`, `dir`), an argument named as its input or
          // what it looks for (`input`, `source`, `pattern`) names what it reads.
          const isPath = facts.isPathArgument(a);
          if (reads(a.name, isPath)) continue;
          // A path-like value, or a bare name a protected glob matches (`plangate.yaml`, `id_rsa`) under
          // another name than `name` (`read_file {name: "plangate.yaml"}` names what it reads).
          if (a.has(LeafTag.PathLike) ? !isPath && !mayNamePath(a.name, a.value) : a.name.toLowerCase() === "name" || !bare(a.name, a)) continue;
          const found = protectedHit(a.value);
          if (found === undefined) continue;
          ctx.report({ at: a.at, step: step.position, messageId: "readerUnknownArgument", data: { step: step.position, tool: step.tool, path: a.value, argument: a.name, resolved: found.hit !== a.value ? ` (${found.hit})` : "" }, actual: a.value });
          reported = true;
          break;
        }
        // A map's key there names a path too (`results: {".env": "x"}`), judged by the map's argument name.
        if (!reported)
          for (const k of facts.keys) {
            let up = k.slot.parent;
            while (up !== undefined && typeof up.token !== "string") up = up.parent;
            const owner = up?.token;
            if (typeof owner !== "string" || owner === "" || reads(owner, isPathName(owner, facts.pathNames))) continue;
            if (k.has(LeafTag.PathLike) ? !mayNamePath("", k.value) : !bare("", k)) continue;
            const found = protectedHit(k.value);
            if (found === undefined) continue;
            ctx.report({ at: k.at, step: step.position, messageId: "readerUnknownArgument", data: { step: step.position, tool: step.tool, path: k.value, argument: owner, resolved: found.hit !== k.value ? ` (${found.hit})` : "" }, actual: k.value });
            reported = true;
            break;
          }
        // A list of names there is the parts of one path (`export: [".claude", "settings.json"]`).
        if (!reported)
          for (const list of facts.stringLists()) {
            if (reads(list.name, isPathName(list.name, facts.pathNames))) continue;
            const joined = list.parts.map((p) => p.trim()).join("/");
            const found = protectedHit(joined);
            if (found === undefined) continue;
            ctx.report({ at: list.at, step: step.position, messageId: "readerUnknownArgument", data: { step: step.position, tool: step.tool, path: joined, argument: list.name, resolved: found.hit !== joined ? ` (${found.hit})` : "" } });
            reported = true;
            break;
          }
        // A file's text beside a protected path (`{path: ".env", data: "TOKEN=x"}`): one line of it is no
        // write by itself (a search term is one line), but beside a protected path it may be written there.
        if (!reported) {
          const text = facts.mayHoldFileText() ? fileTextArgument(step.args, readArgs, true, facts.notAPath()) : undefined;
          if (text !== undefined)
            for (const p of facts.pathArgs) {
              if (p.fromPatch || p.constraint !== undefined || (isFileTextName(p.name) && LINE_BREAK.test(p.value)) || p.value.trim() === "") continue;
              const found = protectedHit(p.value);
              if (found === undefined) continue;
              ctx.report({ at: p.at, step: step.position, messageId: "readerTextBesideProtected", data: { step: step.position, tool: step.tool, argument: text, path: p.value, pathArgument: p.name, resolved: found.hit !== p.value ? ` (${found.hit})` : "" }, actual: p.value });
              reported = true;
              break;
            }
        }
        // An argument the step leaves out is used with its registry default: a protected path there under a
        // name that says nothing of reading (`report: {default: ".env"}`) is refused as one given.
        if (!reported)
          for (const d of schemaDefaults(schema, step.args)) {
            if (reads(d.name, isPathName(d.name, facts.pathNames))) continue;
            const hit = protectedDefaultIn(d);
            if (hit === undefined) continue;
            ctx.report({ at: step.argsAt, step: step.position, messageId: "readerProtectedDefault", data: { step: step.position, tool: step.tool, argument: d.argument, path: hit.path, resolved: hit.hit !== hit.path ? ` (${hit.hit})` : "" } });
            break;
          }
        continue;
      }
      // An argument the step leaves out that the tool's registry schema defaults to a path where it writes
      // (`output: {default: ".git/hooks/pre-commit"}`): the step shows no path, the tool writes there.
      const why = facts.writeReason;
      if (why !== undefined && "value" in why && why.value !== undefined) {
        let hit: { path: string; found: { hit: string } } | undefined;
        for (const v of defaultStrings(why.value)) {
          const found = protectedHit(v);
          if (found !== undefined) {
            hit = { path: v, found };
            break;
          }
        }
        if (hit !== undefined) {
          ctx.report({ at: step.argsAt, step: step.position, messageId: "protectedDefault", data: { step: step.position, tool: step.tool, argument: why.argument, path: hit.path, resolved: hit.found.hit !== hit.path ? ` (${hit.found.hit})` : "" } });
          continue;
        }
      }
      // Any other argument left out is used with its registry default, as if given (`backup: {default: ".env"}`).
      let defaulted = false;
      for (const d of schemaDefaults(ctx.facts.tools?.schemas.get(step.tool), step.args)) {
        const hit = protectedDefaultIn(d);
        if (hit === undefined) continue;
        ctx.report({ at: step.argsAt, step: step.position, messageId: "protectedDefault", data: { step: step.position, tool: step.tool, argument: d.argument, path: hit.path, resolved: hit.hit !== hit.path ? ` (${hit.hit})` : "" } });
        defaulted = true;
        break;
      }
      if (defaulted) continue;
      const args = facts.pathArguments();
      const strings = facts.strings;
      for (let i = 0; i < strings.length; i++) {
        const a = strings[i]!;
        if (!a.content && !facts.isPathArgument(a, true) && (a.has(LeafTag.PathLike) ? mayNamePath(a.name, a.value) : a.constraint === undefined && bare(a.name, a)))
          args.push(a);
      }
      // Values inside structured text (`{"config": "{\"path\": \".claude/settings.json\"}"}`, `"path: .git/config"`).
      const embedded = facts.embedded();
      for (let i = 0; i < embedded.length; i++) {
        const { outer, leaf: a } = embedded[i]!;
        if (!isCommandArgument(outer) && (a.has(LeafTag.PathLike) ? isPathName(a.name, facts.pathNames) || mayNamePath(a.name, a.value) : bare(a.name, a))) args.push(a);
      }
      const keys = facts.keys;
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!;
        if (!facts.isPathArgument(k, true) && (k.has(LeafTag.PathLike) ? mayNamePath("", k.value) : bare("", k))) args.push(k);
      }
      // A patch names several files at one place: the first protected one is reported there.
      let patches: Set<object> | undefined;
      let done: Set<ArgLeaf> | undefined;
      for (let i = 0; i < args.length; i++) {
        const arg = args[i]!;
        if (arg.fromPatch && patches?.has(arg.slot)) continue;
        if (arg.constraint !== undefined) {
          // A pattern for a writer: refused when some path it admits is protected (a regex always: its
          // paths cannot be bounded; path-outside-workspace says so too).
          const witness = arg.constraint === "$glob" ? globReachesProtected(arg.value, ctx.policy.paths.protected, isProtected, witnesses) : "";
          // Past the validation's bound the constraint is not judged: limit-exceeded says so, here.
          if (ctx.facts.work.overrun("patternWitnesses", () => ({ step: step.position, at: arg.at }))) continue;
          if (witness === undefined) continue;
          (done ??= new Set()).add(arg);
          ctx.report({
            at: arg.at,
            step: step.position,
            messageId: witness ? "globReachesProtected" : arg.constraint === "$glob" ? "unreadableGlob" : "patternMayReachProtected",
            data: { step: step.position, tool: step.tool, constraint: arg.constraint, pattern: arg.value, argument: arg.name, witness },
            actual: arg.value,
          });
          continue;
        }
        // A URL under a path name is still a path to an executor that opens files (`x://../.git/config`).
        if (arg.value === "") continue;
        const found = protectedHit(arg.value);
        if (found === undefined) continue;
        (done ??= new Set()).add(arg);
        if (arg.fromPatch) (patches ??= new Set()).add(arg.slot);
        ctx.report({
          at: arg.at,
          step: step.position,
          messageId: found.short ? "shortName" : why?.kind === "unknown" && !KNOWN_WRITERS.has(looseName(step.tool)) && !nameSaysWrite(step.tool) ? "protectedPathUnknownTool" : (why?.kind === "argument" || why?.kind === "download" || why?.kind === "text") && why.reader ? "protectedPathWriteArgument" : "protectedPath",
          data: {
            step: step.position,
            tool: step.tool,
            path: arg.value,
            resolved: found.hit !== arg.value ? ` (${found.hit})` : "",
            argument: why !== undefined && "argument" in why ? why.argument : "",
            how: why?.kind === "download" ? "names where what it fetches is saved" : why?.kind === "text" ? "holds a file's text, which a tool given a path writes there" : "says it writes",
          },
          actual: arg.value,
        });
      }
      // A pattern of the files the writer writes (`{glob: ".github/**"}`, `{path: ".e*", content: ...}`,
      // `{pattern: ".git/**", delete: true}`): the protected paths it names, as bash with globstar expands it.
      if (done === undefined) {
        const hit = writtenPatternHit(facts, isProtected, hiddenProtected, ctx.policy.paths.protected, paths.files, ws, ctx.facts.work.meter("diskNames"), witnesses);
        if (hit !== undefined) {
          ctx.report({
            at: hit.leaf.at,
            step: step.position,
            messageId: "patternArgumentReachesProtected",
            data: { step: step.position, tool: step.tool, pattern: hit.leaf.value, argument: hit.leaf.name, witness: hit.witness },
            actual: hit.leaf.value,
          });
          continue;
        }
      }
      // A list of names is the parts of one path to an executor that joins them (`{path: [".claude",
      // "settings.json"]}`, `{segments: [".github", "workflows", "ci.yml"]}`).
      if (done === undefined) {
        let joined = false;
        for (const list of facts.stringLists()) {
          const hit = protectedHit(list.parts.map((p) => p.trim()).join("/"))?.hit;
          if (hit === undefined) continue;
          ctx.report({
            at: list.at,
            step: step.position,
            messageId: "protectedJoined",
            data: { step: step.position, tool: step.tool, parts: list.parts.map((p) => JSON.stringify(p)).join(", "), argument: list.name, resolved: hit },
          });
          joined = true;
          break;
        }
        if (joined) continue;
        // A name and its extension given apart (`{stem: "plangate", extension: "yaml"}`, `{name: "server",
        // format: "pem"}`) make one file name to an executor that joins them. Each pair is a path read: a
        // step of a thousand of each took 3 s, and the bound is the validation's (limit-exceeded past it).
        let charged = false;
        let refused = false;
        for (let e = 0; e < strings.length; e++) {
          const ext = strings[e]!;
          if (ext.content || ext.constraint !== undefined || !isExtensionName(ext.name)) continue;
          if (!charged) {
            charged = true;
            const extensions = facts.strings.filter((x) => !x.content && x.constraint === undefined && isExtensionName(x.name));
            if ((refused = !ctx.facts.work.spend("pathReadings", joinedUnits(extensions, facts.strings), { step: step.position, at: ext.at }))) break;
          }
          const suffix = ext.value.trim().replace(/^\.+/, "");
          if (suffix === "" || /[\s/\\:]/.test(suffix)) continue;
          for (let t = 0; t < strings.length; t++) {
            const stem = strings[t]!;
            if (stem === ext || stem.content || stem.constraint !== undefined || !mayBeFileName(stem.name, stem.value, stem.isPlainWord()) || isExtensionName(stem.name)) continue;
            const hit = protectedHit(`${stem.value.trim()}.${suffix}`)?.hit;
            if (hit === undefined) continue;
            ctx.report({
              at: stem.at,
              step: step.position,
              messageId: "protectedJoined",
              data: { step: step.position, tool: step.tool, parts: `${JSON.stringify(stem.value)}, ${JSON.stringify(ext.value)}`, argument: `${stem.name}" and "${ext.name}`, resolved: hit },
            });
            joined = true;
            break;
          }
          if (joined) break;
        }
        if (joined || refused) continue;
        // A map whose keys name a folder of protected paths and the names in it (`{files: {".claude":
        // {"settings.json": "..."}}}`) is a tree of files to an executor that writes it out.
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          if (!k.has(LeafTag.PathLike) || !mayEndInHiddenName(k.value) || !hidden.has(lastName(k.value))) continue;
          const found = protectedTree(facts.valueAt(k), [k.value], k.at, (text) => protectedHit(text)?.hit);
          if (found === undefined) continue;
          ctx.report({
            at: found.at,
            step: step.position,
            messageId: "protectedJoined",
            data: { step: step.position, tool: step.tool, parts: found.parts.map((p) => JSON.stringify(p)).join(", "), argument: k.value, resolved: found.hit },
          });
          joined = true;
          break;
        }
        if (joined) continue;
      }
      // A relative path read from a folder the step names (`{cwd: ".github", path: "workflows/ci.yml"}`,
      // `{dir: ".claude", name: "settings.json"}`) is where an executor that joins them writes; so is one
      // read from a value that names a folder holding protected paths (`.claude`, `.github`, `.vscode`),
      // whatever argument holds it (`{parent: ".claude", name: "settings.json"}`, `{in: ".github", ...}`).
      // A folder protected itself is reported above, as written.
      const named = facts.folders();
      let extra: ArgLeaf[] | undefined;
      for (let i = 0; i < strings.length; i++) {
        const a = strings[i]!;
        if (a.has(LeafTag.PathLike) && !a.content && a.constraint === undefined && mayEndInHiddenName(a.value) && hidden.has(lastName(a.value)) && !named.some((f) => f === a || f.value === a.value)) (extra ??= []).push(a);
      }
      if (named.length === 0 && extra === undefined) continue;
      const folders = (extra === undefined ? named : [...named, ...extra]).filter((f) => protectedHit(f.value) === undefined);
      if (folders.length === 0) continue;
      // A path protected as written is reported above.
      const joined = facts.joinable(args, (a) => !done?.has(a));
      const over = tooManyFolderPaths(step.position, folders.length, joined.size);
      if (over) {
        ctx.report({ at: folders[0]!.at, step: step.position, messageId: "tooManyFolderPaths", data: over });
        continue;
      }
      // Bounded for the whole validation too (limit-exceeded past it): see core/work.ts.
      if (!ctx.facts.work.spend("pathReadings", joinedUnits(folders, joined), () => ({ step: step.position, at: folders[0]!.at }))) continue;
      let reported = false;
      for (const arg of joined) {
        if (reported) break;
        for (const folder of folders) {
          if (folder === arg || (folder.value === arg.value && folder.slot === arg.slot)) continue;
          if (arg.constraint !== undefined) {
            if (arg.constraint !== "$glob") continue;
            const pattern = inFolder(folder.value, arg.value);
            const witness = pattern === undefined ? undefined : globReachesProtected(pattern, ctx.policy.paths.protected, isProtected, witnesses);
            if (ctx.facts.work.overrun("patternWitnesses", () => ({ step: step.position, at: arg.at }))) break;
            if (witness === undefined) continue;
            ctx.report({
              at: arg.at,
              step: step.position,
              messageId: witness ? "globReachesProtected" : "unreadableGlob",
              data: { step: step.position, tool: step.tool, constraint: arg.constraint, pattern: pattern!, argument: arg.name, witness },
              actual: arg.value,
            });
            reported = true;
            break;
          }
          const text = inFolder(folder.value, arg.value);
          if (text === undefined) continue;
          const found = protectedHit(text);
          if (found === undefined) continue;
          ctx.report({
            at: arg.at,
            step: step.position,
            messageId: "protectedInFolder",
            data: { step: step.position, tool: step.tool, path: arg.value, folder: folder.value, folderArgument: folder.name, resolved: found.hit },
            actual: arg.value,
          });
          // One report per step: a second folder or path adds nothing to what must change.
          reported = true;
          break;
        }
      }
    }
    const { files, workspace } = ctx.facts.paths;
    // A pattern or folder written in many steps (the same line again) is looked at on disk once.
    const reached = new Map<string, DiskReach | undefined>();
    const diskNames = ctx.facts.work.meter("diskNames");
    /** The checks of a command's paths against some protected globs: all of them for writes, the secrets for reads. */
    const checks = (globs: readonly string[], kind: string): CommandPathChecks => {
      const matches = globs === ctx.policy.paths.protected ? isProtected : matcherFor(globs);
      const names = globs === ctx.policy.paths.protected ? shortNames : protectedNames(globs);
      const hidden = hiddenNames(globs);
      return {
        protectedAs: (c) => protectedSpelling(c, matches, names),
        globReaches: (g, p) => shellGlobReachesProtected(g, hidden, matches, { dotglob: p.dotglob === true }),
        under: (rel) => protectedUnder(rel, globs),
        onDisk: (rel, p) => {
          const key = `${kind}${p.glob === true ? 1 : 0}${p.tree === true ? 1 : 0}${p.dotglob === true ? 1 : 0}${p.globstar === true ? 1 : 0}${rel}`;
          if (!reached.has(key)) reached.set(key, reachesProtectedOnDisk(rel, p, workspace, files, globs, matches, diskNames));
          return reached.get(key);
        },
      };
    };
    reportCommandPathsProtected(plan, ctx, namedPathText, checks(ctx.policy.paths.protected, "w"), () => checks(readProtectedGlobs(ctx.policy.paths.protected), "r"));
  },
});
