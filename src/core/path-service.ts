import { type PathWhy, why } from "./place.js";
import { type FileProbe, MAX_LISTING } from "./file-probe.js";
import { MAX_LINK_NAMES, MAX_PATH_TEXTS, readingUnits } from "./work.js";
import { isInside, type LinkBudget, MAX_PATH_LENGTH, normalizeAbsolute, pathReadings, type Resolved, unsafePathReason, UNWALKED, WalkCache, walkReal } from "./paths.js";

/**
 * The one path resolver of a validation: where a path text lands in every reading an executor might make
 * of it, and whether that stays inside the workspace. Made once per validation (the engine's, the guard's),
 * so every rule asks the same questions of the same answers and nothing is remembered across validations.
 *
 * - A clean relative path (plain names, no `.`/`..` segments, no `%`, `~`, `:`, `\`, spaces or non-ASCII)
 *   has one reading and no unsafe spelling: only its folder and its last name are looked up.
 * - Folders are resolved once (component by component, every symlink followed) and cached.
 * - A busy folder is listed once instead of asked name by name, where the probe can list it; a name the
 *   listing lacks or whose type it does not know is still asked with lstat (a case-insensitive file system
 *   finds `README.MD` where a listing holds `readme.md`).
 */
export interface PathService {
  /** The workspace root, lexically normalised. */
  readonly workspace: string;
  /** The workspace's real path (symlinks followed). */
  readonly workspaceReal: string;
  /** The file system, its answers remembered for this validation. */
  readonly files: FileProbe;
  /** Every reading of a path text, resolved lexically and through symlinks (relative to the workspace). */
  resolve(text: string): readonly Resolved[];
  /** Why a resolved reading lands outside the workspace, or undefined when it stays inside. */
  whyOutside(r: Resolved): PathWhy | undefined;
  /** The kernel's resolution of an absolute path: every symlink followed, a missing tail kept as written. */
  resolveReal(absolute: string): string;
  /** lstat's kind of an absolute path, remembered. */
  kind(path: string): ReturnType<FileProbe["kind"]>;
  /**
   * Is a bare name (one name, no separator) a symbolic link in the workspace root? Such a word under an
   * argument of any name is a path after all: `{name: "link"}` reaches wherever `link` points.
   */
  isLinkName(name: string): boolean;
  /**
   * Where a workspace-relative path lands and what is there: every reading must stay inside, lexically
   * and through symlinks, or it is marked outside and never looked at.
   */
  inWorkspace(path: string): InWorkspace;
}

/** Where a plan path lands on disk, and whether plangate may look at it. */
export interface InWorkspace {
  abs: string;
  /** False when the path leaves the workspace (`..`, absolute elsewhere, `~`, NUL, symlinks): never touched. */
  inside: boolean;
  /** What is at the path, following a final symlink (inside the workspace only). */
  kind?: "file" | "dir" | "missing" | "other";
}

/** `path.posix.resolve(root, p)` for an absolute root: `/` alone separates, `.` and `..` are folded. */
export function resolvePosix(root: string, p: string): string {
  const out: string[] = [];
  for (const seg of (p.startsWith("/") ? p : `${root}/${p}`).split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** A turn-context entry as an absolute path; a leading `/` is the workspace root when the path is not inside it. */
export function contextPath(entry: string, workspace: string): string {
  let p = entry.trim().replace(/\\/g, "/");
  if (p.startsWith("/") && !isInside(resolvePosix("/", p), resolvePosix("/", workspace))) p = p.replace(/^\/+/, "");
  return resolvePosix(workspace, p);
}

/** A relative path of plain names: one reading, nothing an executor could read otherwise. */
const CLEAN = /^(?=[^/]*[^/.])[\w.-]+(?:\/(?=[^/]*[^/.])[\w.-]+)*$/;

/** Lookups of one folder after which it is listed rather than asked name by name. */
const LIST_AFTER = 8;

/**
 * A folder's listing and, when every entry is ASCII, the entries in lower case: a file system that folds
 * case finds a name only through an entry equal to it without case, so an ASCII name whose lower case is
 * no entry's is missing on any file system. An entry outside ASCII may fold to anything (a Kelvin sign is
 * a `k` to some), so such a listing decides nothing of the names it lacks.
 */
interface Listing {
  entries: ReadonlyMap<string, ReturnType<FileProbe["kind"]> | undefined>;
  folded: ReadonlySet<string> | undefined;
}

const ASCII = /^[\x20-\x7e]*$/;
/** A name no file system reads as another: ASCII without `~` or `:`, not ending in a dot or a space. */
const PLAIN_NAME = /^[\x20-\x39\x3b-\x7d]*[^\x00-\x20.~:\x7f-\uffff]$/;

function listingOf(entries: ReadonlyMap<string, ReturnType<FileProbe["kind"]> | undefined>): Listing {
  const folded = new Set<string>();
  for (const name of entries.keys()) {
    if (!ASCII.test(name)) return { entries, folded: undefined };
    folded.add(name.toLowerCase());
  }
  return { entries, folded };
}

/**
 * A name as a file system that ignores case and Unicode normalization reads it (APFS and HFS+ on macOS,
 * NTFS on Windows), with the trailing dots and spaces Windows drops removed.
 */
export function foldName(name: string): string {
  const folded = (/[^\x00-\x7f]/.test(name) ? name.normalize("NFC") : name).toLowerCase();
  const last = folded.charCodeAt(folded.length - 1);
  if (last !== 0x2e && last !== 0x20) return folded;
  const trimmed = folded.replace(/[. ]+$/, "");
  return trimmed === "" ? folded : trimmed;
}

/** A folder as the path service resolved it: where it really is, whether it is missing, and the links followed to it. */
interface Folder {
  path: string;
  missing: boolean;
  links: number;
}

/**
 * Paths and folders one path service remembers at most: every path text a validation reads (its values
 * are bounded by limits.maxValues, its other paths by core/work.ts), so that the path rules, which ask
 * of the same texts, resolve each once.
 */
const MAX_CACHED = 1 << 20;

/**
 * Creates the path service of one validation over a file system. `onSpent` is called once for each of
 * its bounds the validation passes: when the walks have read MAX_LINK_NAMES names from symbolic links'
 * targets (the paths that meet a link after that are not resolved), and when MAX_PATH_TEXTS units of
 * distinct texts have been resolved (the texts after that are not); whyOutside says so of each, and the
 * caller reports where the plan's work stopped.
 */
export function createPathService(workspace: string, probe: FileProbe, onSpent?: (kind: "linkNames" | "pathTexts") => void): PathService {
  const files = rememberingProbe(probe);
  // Every walk of this validation shares what it learns of the file system (see WalkCache), and the
  // names it may read from links' targets.
  const walks = new WalkCache();
  const links: LinkBudget = { left: MAX_LINK_NAMES };
  const spent = new Set<"linkNames" | "pathTexts">();
  const stop = (kind: "linkNames" | "pathTexts") => {
    if (spent.has(kind)) return;
    spent.add(kind);
    onSpent?.(kind);
  };
  const walk = (absolute: string, maxLinks = 40) => {
    const r = walkReal(absolute, files, maxLinks, walks, links);
    if (links.left < 0) stop("linkNames");
    return r;
  };
  let texts = MAX_PATH_TEXTS;
  const ws = normalizeAbsolute(workspace);
  const wsReal = files.realpath(ws) ?? walk(ws).path;
  const resolved = new Map<string, readonly Resolved[]>();
  const folders = new Map<string, Folder>();
  const realOf = new Map<string, string>();
  // Bare words asked of as links: plans repeat their words, and both path rules ask.
  const linkNames = new Map<string, boolean>();

  const folder = (lexical: string): Folder => {
    let f = folders.get(lexical);
    if (!f) {
      f = walk(lexical);
      if (folders.size < MAX_CACHED) folders.set(lexical, f);
    }
    return f;
  };

  // Each folder twinOf has listed: its entries with their kinds, and (once a name is missing there) by folded name.
  type Listed = { kinds: ReadonlyMap<string, "file" | "dir" | "symlink" | "other" | undefined>; byFold?: Map<string, string> };
  const listed = new Map<string, Listed | undefined>();
  const listingOf = (dir: string): Listed | undefined => {
    if (listed.has(dir)) return listed.get(dir);
    const kinds = files.list?.(dir);
    const l = kinds && { kinds };
    if (listed.size < MAX_CACHED) listed.set(dir, l);
    return l;
  };
  const wsPrefix = ws === "/" ? "/" : `${ws}/`;
  /** A path as a file system that folds names reads it: where it leads, whether that differs from the path as written, and what is there. */
  type Folded = { path: string; changed: boolean; state: "dir" | "missing" | "link" | "unlisted" };
  /**
   * One name of a path, read in folder `dir` (as folded so far) by a file system that folds names. The
   * folder is listed only for a missing name that folding changes (upper case, NFD, trailing dots or
   * spaces: `OUT` for a link `out`); a missing name folding leaves as it is is taken as missing, unread
   * (a listing per folder of every new file cost 15% of a plan's validation), so a link whose own name
   * has upper case, named in lower case (`out` for a link `Out`), is found only where a name-folding file
   * system reads the plan (there lstat itself follows it).
   */
  const foldStep = (dir: string, name: string, changed: boolean): Folded => {
    const here = dir === "/" ? `/${name}` : `${dir}/${name}`;
    const kind = files.kind(here);
    // Nothing past a link is listed (it may point outside, which is never probed): the walk decides.
    if (kind === "symlink") return { path: here, changed, state: "link" };
    if (kind !== "missing") return { path: here, changed, state: "dir" };
    const folded = foldName(name);
    if (folded === name) return { path: here, changed, state: "missing" };
    const l = listingOf(dir);
    // A folder too large to list (or unreadable) may hold the entry the name folds to: a link `out`
    // beside `OUT/x` among 5,000 files went unseen. Its paths are refused, not taken as missing. A
    // folder that is not there (a workspace not made yet) holds nothing to fold to.
    if (!l) return files.kind(dir) === "missing" ? { path: here, changed, state: "missing" } : { path: dir, changed, state: "unlisted" };
    if (l.byFold === undefined) {
      l.byFold = new Map();
      for (const n of l.kinds.keys()) l.byFold.set(foldName(n), n);
    }
    const twin = l.byFold.get(folded);
    if (twin === undefined) return { path: here, changed, state: "missing" };
    const at = dir === "/" ? `/${twin}` : `${dir}/${twin}`;
    return { path: at, changed: true, state: (l.kinds.get(twin) ?? files.kind(at)) === "symlink" ? "link" : "dir" };
  };
  /**
   * Each folder of the workspace as foldStep reads it, once per validation: a tree of names from the
   * workspace down, so that a folder is found by its names, never by its whole path as a key. Keyed by
   * path, each of a path's folders was a new string to copy and hash: 250 paths of 4 KiB and 1,300
   * folders each took 1.9 s.
   */
  type FoldNode = { f: Folded; children?: Map<string, FoldNode> };
  const foldRoot: FoldNode = { f: { path: ws, changed: false, state: "dir" } };
  let foldNodes = 0;
  /** A folder inside the workspace (`dir` is the workspace or begins with wsPrefix) as foldStep reads it. */
  const foldFolder = (dir: string): Folded => {
    if (dir === ws) return foldRoot.f;
    let node = foldRoot;
    for (let at = wsPrefix.length; ; ) {
      const up = node.f;
      // Under a missing name everything is missing; past a link the walk decides. An unlisted folder
      // stays the place named: what is below it is as unknown. Neither is kept for each folder below.
      if (up.state === "unlisted") return up;
      if (up.state !== "dir") return { path: `${up.path}/${dir.slice(at)}`, changed: up.changed, state: up.state };
      const slash = dir.indexOf("/", at);
      const name = slash < 0 ? dir.slice(at) : dir.slice(at, slash);
      let next = node.children?.get(name);
      if (next === undefined) {
        next = { f: foldStep(up.path, name, up.changed) };
        if (foldNodes < MAX_CACHED) {
          (node.children ??= new Map()).set(name, next);
          foldNodes++;
        }
      }
      node = next;
      if (slash < 0) return node.f;
      at = slash + 1;
    }
  };
  /**
   * The path a file system that folds names (macOS, Windows) opens for `lexical` (inside the workspace),
   * when that differs from the path as written: from the first name missing as written, each name is
   * taken as the one entry of its folder it folds to (`LNK/x` is `lnk/x` beside a link `lnk`).
   * Undefined when it does not differ: every name exists as written, or a missing name has no such twin.
   * Each folder is read once per validation, from its listing: this runs for every new file.
   */
  const twinOf = (lexical: string): string | { unlisted: string } | undefined => {
    if (!lexical.startsWith(wsPrefix)) return undefined;
    const slash = lexical.lastIndexOf("/");
    const parent = slash === 0 ? "/" : lexical.slice(0, slash);
    if (parent !== ws && !parent.startsWith(wsPrefix)) return undefined;
    const up = foldFolder(parent);
    if (up.state === "unlisted") return { unlisted: up.path };
    if (up.state !== "dir") return up.changed ? `${up.path}${lexical.slice(slash)}` : undefined;
    const r = foldStep(up.path, lexical.slice(slash + 1), up.changed);
    if (r.state === "unlisted") return { unlisted: r.path };
    return r.changed ? r.path : undefined;
  };
  /** The readings with, after each that is missing as written, the path a name-folding file system opens. */
  const withTwins = (list: Resolved[]): Resolved[] => {
    if (!files.list) return list;
    for (let i = 0, n = list.length; i < n; i++) {
      const r = list[i]!;
      if (!("lexical" in r) || !r.missing) continue;
      // Only a path inside the workspace is looked at (twinOf lists nothing outside it, nor past a link):
      // one outside is refused already.
      const twin = twinOf(r.lexical);
      if (twin === undefined || !isInside(r.real, wsReal)) continue;
      if (typeof twin !== "string") {
        const folder = twin.unlisted === ws ? "." : twin.unlisted.startsWith(wsPrefix) ? twin.unlisted.slice(wsPrefix.length) : twin.unlisted;
        list.push({ unsafe: why("foldUnlisted", { folder, max: MAX_LISTING }), reading: r.reading });
        continue;
      }
      const real = walk(twin);
      list.push({ lexical: twin, real: real.path, reading: twin.slice(ws === "/" ? 1 : ws.length + 1), missing: real.missing });
    }
    return list;
  };

  const resolveClean = (text: string): Resolved => {
    const lexical = ws === "/" ? `/${text}` : `${ws}/${text}`;
    const slash = lexical.lastIndexOf("/");
    const dir = folder(slash === 0 ? "/" : lexical.slice(0, slash));
    const name = lexical.slice(slash + 1);
    const here = dir.path === "/" ? `/${name}` : `${dir.path}/${name}`;
    // A loop or an unreadable link on the way: the walk stops there, as the kernel's would.
    if (dir.path.includes("\0")) return { lexical, real: dir.path, reading: text, missing: true };
    if (dir.missing) return { lexical, real: here, reading: text, missing: true };
    const kind = files.kind(here);
    if (kind === "symlink") {
      // The kernel's budget of 40 links covers the whole path: what the folder used is spent.
      const real = walk(here, 40 - dir.links);
      return { lexical, real: real.path, reading: text, missing: real.missing };
    }
    return { lexical, real: here, reading: text, missing: kind === "missing" };
  };

  const service: PathService = {
    workspace: ws,
    workspaceReal: wsReal,
    files,
    resolve(text) {
      let out = resolved.get(text);
      if (out) return out;
      // A text past the validation's bound on distinct texts is not resolved, and cannot be inside.
      const units = text.length > MAX_PATH_LENGTH ? 1 : readingUnits(text.length);
      if (units > texts) {
        texts = 0;
        stop("pathTexts");
        return [{ unsafe: why("pathsUnresolved", { max: MAX_PATH_TEXTS }), reading: text }];
      }
      texts -= units;
      // A path longer than any a system opens is refused before it is read (see MAX_PATH_LENGTH).
      if (text.length > MAX_PATH_LENGTH) out = [{ unsafe: unsafePathReason(text)!, reading: text }];
      else if (CLEAN.test(text)) out = withTwins([resolveClean(text)]);
      else {
        const list: Resolved[] = [];
        for (const reading of pathReadings(text)) {
          const why = unsafePathReason(reading);
          if (why) {
            list.push({ unsafe: why, reading });
            continue;
          }
          const abs = /^[/\\]/.test(reading) ? reading : `${ws}/${reading}`;
          const real = walk(abs);
          list.push({ lexical: normalizeAbsolute(abs), real: real.path, reading, missing: real.missing });
        }
        out = withTwins(list);
      }
      if (resolved.size < MAX_CACHED) resolved.set(text, out);
      return out;
    },
    whyOutside(r) {
      if ("unsafe" in r) return r.unsafe;
      if (!isInside(r.lexical, ws) && !isInside(service.resolveReal(r.lexical), wsReal)) return why("resolvesTo", { path: r.lexical });
      if (!isInside(r.real, wsReal)) return r.real.startsWith(UNWALKED) ? why("linksUnwalked", { max: MAX_LINK_NAMES }) : r.real.includes("\0") ? why("symlinkLoop") : why("throughSymlink", { path: r.real });
      return undefined;
    },
    resolveReal(absolute) {
      let r = realOf.get(absolute);
      if (r === undefined) {
        r = walk(absolute).path;
        if (realOf.size < 65536) realOf.set(absolute, r);
      }
      return r;
    },
    kind: (path) => files.kind(path),
    isLinkName(name) {
      let hit = linkNames.get(name);
      if (hit === undefined) {
        hit = !(name === "" || name === "." || name === ".." || /[/\\\0]/.test(name)) && files.kindOfName(ws === "/" ? `/${name}` : `${ws}/${name}`) === "symlink";
        if (linkNames.size < 65536) linkNames.set(name, hit);
      }
      return hit;
    },
    inWorkspace(path) {
      const readings = path === "" ? [] : service.resolve(path);
      const first = readings[0];
      const abs = first && "lexical" in first ? first.lexical : resolvePosix(workspace, path);
      if (!first || readings.some((r) => service.whyOutside(r) !== undefined)) return { abs, inside: false };
      const kind = "real" in first ? files.kind(first.real) : "missing";
      return { abs, inside: true, kind: kind === "symlink" ? "other" : kind };
    },
  };
  return service;
}

/**
 * The probe with its answers remembered for one validation, and busy folders listed once (when the probe
 * can list): a plan of many steps shares its folders, and several rules ask of the same paths.
 */
/** Lookups of single names a validation makes before they count toward listing their folder. */
const QUIET_LOOKUPS = 256;

/**
 * The remembering probe, and `kindOfName`: kind() for a name asked on a guess (a bare word that may
 * name a link), which asks the file system for it alone rather than listing a folder of many entries
 * for a handful of words, up to QUIET_LOOKUPS of them; past that, as kind() does.
 */
type RememberingProbe = FileProbe & { kindOfName(path: string): ReturnType<FileProbe["kind"]> };

function rememberingProbe(files: FileProbe): RememberingProbe {
  let quiet = 0;
  const kinds = new Map<string, ReturnType<FileProbe["kind"]>>();
  const links = new Map<string, string | undefined>();
  const reals = new Map<string, string | undefined>();
  const asked = new Map<string, number>();
  const listings = new Map<string, Listing | undefined>();
  const fromListing = (path: string): ReturnType<FileProbe["kind"]> | undefined => {
    if (!files.list) return undefined;
    const slash = path.lastIndexOf("/");
    if (slash < 0) return undefined;
    const dir = slash === 0 ? "/" : path.slice(0, slash);
    let listing = listings.get(dir);
    if (listing === undefined && !listings.has(dir)) {
      const n = (asked.get(dir) ?? 0) + 1;
      if (asked.size < 65536) asked.set(dir, n);
      if (n < LIST_AFTER) return undefined;
      const entries = files.list(dir);
      listing = entries ? listingOf(entries) : undefined;
      listings.set(dir, listing);
    }
    if (!listing) return undefined;
    const name = path.slice(slash + 1);
    const kind = listing.entries.get(name);
    if (kind !== undefined) return kind;
    // A name the listing lacks is missing when no entry could be it without case (see Listing) and it is
    // no alias a file system resolves without listing it (an 8.3 short name with `~`, a trailing dot or
    // space that Windows drops, a `:` stream); otherwise, and for an entry the listing cannot type, lstat decides.
    if (!listing.entries.has(name) && listing.folded && PLAIN_NAME.test(name) && !listing.folded.has(name.toLowerCase())) return "missing";
    return undefined;
  };
  const probe: RememberingProbe = {
    ...files,
    kind(path) {
      let k = kinds.get(path);
      if (k === undefined) {
        k = fromListing(path) ?? files.kind(path);
        if (kinds.size < 65536) kinds.set(path, k);
      }
      return k;
    },
    kindOfName(path) {
      const known = kinds.get(path);
      if (known !== undefined) return known;
      const slash = path.lastIndexOf("/");
      const dir = slash <= 0 ? "/" : path.slice(0, slash);
      if (listings.has(dir) || quiet >= QUIET_LOOKUPS) return probe.kind(path);
      quiet++;
      const k = files.kind(path);
      if (kinds.size < 65536) kinds.set(path, k);
      return k;
    },
    readlink(path) {
      if (!links.has(path)) links.set(path, files.readlink(path));
      return links.get(path);
    },
    realpath(path) {
      if (!reals.has(path)) reals.set(path, files.realpath(path));
      return reals.get(path);
    },
  };
  return probe;
}
