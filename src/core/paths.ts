import { compiledFor } from "./compiled.js";
import { type PathWhy, why } from "./place.js";
import type { FileProbe } from "./file-probe.js";
import { pathLookalikeReason } from "./lookalike.js";
import type { Pointer } from "./pointer.js";
import { isWriteTarget } from "./writers.js";
import { cutFromColon, trimEndOf } from "./text.js";
import { JOINED_READING } from "./work.js";

/** A path argument of a step: where it sits and what it says. */
export interface PathArgument {
  at: Pointer;
  /** The argument's name (the last key above the value). */
  name: string;
  value: string;
  /** The value is the pattern of this argument constraint, not a path. */
  constraint?: "$glob" | "$regex";
}

/** Names of arguments whose schema in the registry says `format: "path"`. */
export function schemaPathNames(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  if (!props || typeof props !== "object") return [];
  return Object.entries(props)
    .filter(([, s]) => s !== null && typeof s === "object" && (s as { format?: unknown }).format === "path")
    .map(([k]) => k);
}

/**
 * Words that make an argument name a path name when they end it (`notebook_path`, `outputFile`,
 * `work-dir`, `to`, `dst`): a tool that invents its own name for a path is still checked.
 */
const PATH_WORDS = new Set([
  "path", "paths", "pathname", "filepath", "file", "files", "filename", "filenames", "dir", "dirs", "directory",
  "directories", "folder", "folders", "dest", "dst", "destination", "target", "output", "out", "outfile", "outdir",
  "to", "from", "src", "source", "cwd", "root", "workdir", "location",
]);

const pathNameMemo = new Map<string, boolean>();

/** An argument name's words, in any case convention: `outputFile`, `out_file`, `out-file` and `out.file` are `out`, `file`. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== "");
}

/**
 * Is an argument name a path name: listed (policy `paths.arguments`, registry `format: "path"`), or its
 * last word (snake, kebab, dotted or camel case) is one of PATH_WORDS?
 */
export function isPathName(name: string, names: ReadonlySet<string>): boolean {
  const lower = name.toLowerCase();
  if (names.has(lower)) return true;
  let hit = pathNameMemo.get(name);
  if (hit === undefined) {
    const words = nameWords(name);
    // A name that says where a tool writes (`save_as`, `write_to`) names a path too.
    hit = (words.length > 0 && PATH_WORDS.has(words[words.length - 1]!)) || isWriteTarget(name);
    if (pathNameMemo.size < 4096) pathNameMemo.set(name, hit);
  }
  return hit;
}

/**
 * Words that make an argument name a folder the step's other relative paths may be read from (`cwd`,
 * `workingDirectory`, `work_dir`, `base_path`, `root`, `options.cwd`): an executor that joins
 * `{dir: ".claude", name: "settings.json"}` writes `.claude/settings.json`.
 */
const FOLDER_WORDS = new Set(["cwd", "pwd", "wd", "chdir", "cd", "dir", "dirs", "directory", "directories", "folder", "folders", "root", "workdir", "base", "basedir", "rootdir", "location", "workspace", "prefix", "parent", "parents", "into"]);
/** A name ending in one of these (`workdir`, `basedir`, `outdir`, `projectroot`, `workfolder`) is a folder name too. */
const FOLDER_ENDING = /(?:dir|directory|folder|cwd|root)$/;

const folderNameMemo = new Map<string, boolean>();

/**
 * Most (folder, path) pairs of one step read as joined paths (about 0.3 s): a step naming more folders
 * and paths than that is refused, not partly checked.
 */
export const MAX_FOLDER_PAIRS = 65536;
/** Most distinct folders of one step its relative paths and command are read from; a step naming more is refused. */
export const MAX_FOLDERS = 64;

/**
 * When a step names more folders, or (folder, path) pairs, than are read (MAX_FOLDERS, MAX_FOLDER_PAIRS):
 * the data of the path rules' `tooManyFolderPaths` message; else undefined.
 */
export function tooManyFolderPaths(step: number, folders: number, paths: number): { step: number; folders: number; paths: number; max: number; maxFolders: number } | undefined {
  return folders > MAX_FOLDERS || folders * paths > MAX_FOLDER_PAIRS ? { step, folders, paths, max: MAX_FOLDER_PAIRS, maxFolders: MAX_FOLDERS } : undefined;
}

/**
 * What reading each of some paths from each of some folders costs the validation's `pathReadings`
 * (core/work.ts): JOINED_READING units a pair, and as many more per 256 characters of the joined text.
 */
export function joinedUnits(folders: readonly { value: string }[], paths: Iterable<{ value: string }>): number {
  let length = 0;
  let n = 0;
  for (const p of paths) {
    length += p.value.length;
    n++;
  }
  let units = 0;
  for (const f of folders) units += n + ((n * f.value.length + length) >>> 8);
  return units * JOINED_READING;
}

/**
 * Does an argument name a folder that other relative paths of the step may be read from: a word of it
 * (snake, kebab, dotted or camel case) is a folder word (`cwd`, `dir`, `directory`, `folder`, `root`,
 * `base`, `workspace`, `location`, `prefix`, `parent`, `into`), or its bare form ends in one (`workdir`, `basedir`)?
 */
export function isFolderName(name: string): boolean {
  let hit = folderNameMemo.get(name);
  if (hit === undefined) {
    const words = nameWords(name);
    hit = words.some((w) => FOLDER_WORDS.has(w) || FOLDER_ENDING.test(w));
    if (folderNameMemo.size < 4096) folderNameMemo.set(name, hit);
  }
  return hit;
}

/**
 * A relative path read from a folder the step names (`cwd`, `dir`, ...), as an executor that joins them
 * reads it: `folder/path`, the path's spaces at its ends trimmed. Undefined when the path does not move
 * with the folder (absolute anywhere, `~`, a URL) or either is empty or the folder is the root (`.`).
 */
export function inFolder(folder: string, path: string): string | undefined {
  const base = folder.replace(/[/\\]+$/, "");
  const rel = path.trim();
  if (base === "" || base === "." || rel === "" || rel === ".") return undefined;
  if (/[\n\r\u0085\u2028\u2029]/.test(base) || isAbsoluteAnywhere(rel) || rel.startsWith("~") || /^[A-Za-z][A-Za-z0-9+.-]*:\/\/|^file:/i.test(rel)) return undefined;
  const text = `${base}/${rel.replace(/^(?:\.[/\\]+)+/, "")}`;
  return text.length > MAX_PATH_LENGTH ? undefined : text;
}

/** Splits a path on `/` and `\` (a Windows separator is a separator to some executor, so treat it as one). */
export function pathSegments(path: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let i = 0; i <= path.length; i++) {
    const c = i < path.length ? path.charCodeAt(i) : 0x2f;
    if (c !== 0x2f && c !== 0x5c) continue;
    if (i > from) out.push(path.slice(from, i));
    from = i + 1;
  }
  return out;
}

/** Is the path absolute for some platform: `/x`, `\x`, `C:\x`, `C:x`, `\\server\share`? */
export function isAbsoluteAnywhere(path: string): boolean {
  return /^[/\\]/.test(path) || /^[A-Za-z]:/.test(path);
}

/** Lexically normalises an absolute POSIX path (`.`, `..`, repeated separators). */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const seg of pathSegments(path)) {
    if (seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return "/" + out.join("/");
}

/** Is `path` the folder `root` or inside it? Both absolute and normalised. */
export function isInside(path: string, root: string): boolean {
  if (root === "/") return path.startsWith("/");
  if (root.endsWith("/")) return path.startsWith(root);
  // `root` itself, or `root` followed by a separator (compared in place: this runs for every path reading).
  return path.startsWith(root) && (path.length === root.length || path.charCodeAt(root.length) === 0x2f);
}

/** The path relative to a root it is inside ("" for the root itself). */
export function relativeInside(path: string, root: string): string {
  if (path === root) return "";
  return path.slice(root === "/" ? 1 : root.length + 1);
}

/**
 * How many rounds of percent-decoding a path may need: once for a URL, twice for a URL inside a URL. A
 * path still encoded after that (triple and deeper encoding) is refused: no honest plan needs it, and
 * executors differ in how many rounds they decode.
 */
export const MAX_DECODE_ROUNDS = 2;

const ESCAPE = /%[0-9A-Fa-f]{2}/;
const ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/** How deep the argument walks go; a value below that is refused as a path, not skipped. */
export const MAX_ARGUMENT_DEPTH = 64;
/** Stands for a value nested deeper than MAX_ARGUMENT_DEPTH (unsafePathReason explains it). */
export const TOO_NESTED = "\0too-nested";

/** Marks a reading that no executor should be trusted with; unsafePathReason explains it. */
const UNDECODABLE = "\0undecodable";
const TOO_DEEP = "\0too-deep";

/**
 * One round of percent-decoding: every run of `%XX` escapes becomes the bytes it spells, read as UTF-8.
 * A run that is not valid UTF-8 (an overlong `%c0%af` for `/`, a lone continuation byte, a surrogate) is
 * how decoders disagree, so the whole reading is refused. A `%` not followed by two hex digits stays.
 */
function percentDecode(text: string): string {
  let bad = false;
  const out = text.replace(ESCAPES, (run) => {
    const bytes = new Uint8Array(run.length / 3);
    for (let i = 0; i < bytes.length; i++) bytes[i] = Number.parseInt(run.slice(i * 3 + 1, i * 3 + 3), 16);
    try {
      return STRICT_UTF8.decode(bytes);
    } catch {
      bad = true;
      return "";
    }
  });
  return bad ? UNDECODABLE : out;
}

/**
 * The path a `file:` URL names, in any spelling (`file:/x`, `FILE:/x`, `file:///x`,
 * `file://localhost/x`, `file:x`); undefined when the text is not a file URL. A URL with another host
 * (`file://server/share`) comes back as a UNC path and a drive (`file:///C:/x`) as a drive path, which
 * unsafePathReason refuses.
 */
export function fileUrlPath(text: string): string | undefined {
  if (!/^file:/i.test(text)) {
    const local = localUrl(text);
    // `git+file:///x` is `file:///x`; `vscode://file/x` is `/x`.
    if (local) return local[1] !== undefined ? fileUrlPath(text.slice(local[1].length)) : text.slice(local[0].length - 1);
    const db = databaseUrlPath(text);
    return db === undefined ? undefined : (fileUrlPath(db) ?? db);
  }
  let rest = text.slice(5);
  if (/^[/\\]{2}/.test(rest)) {
    const afterSlashes = rest.slice(2);
    const host = /^[^/\\]*/.exec(afterSlashes)![0];
    rest = afterSlashes.slice(host.length);
    if (host !== "" && host.toLowerCase() !== "localhost") return `//${host}${rest}`;
    if (rest === "") rest = "/";
  }
  if (/^[/\\][A-Za-z][:|]/.test(rest)) return rest.slice(1);
  return rest;
}

/**
 * URLs of other schemes that name a local file: a version control program's over `file:` (`git+file:`,
 * `svn+file:`, `hg+file:`), and an editor's link that opens (and lets it save) a file (`vscode://file/x`,
 * `vscode-insiders://`, `vscodium://`, `cursor://`, `windsurf://`, `code-oss://`).
 */
const LOCAL_URL = /^(?:([A-Za-z][A-Za-z0-9.-]*\+)file:|(?:vscode|vscode-insiders|vscodium|cursor|windsurf|code-oss):\/\/file\/)/i;

/** LOCAL_URL's match, asked only of a text with `file` after its first character (every path reading is asked). */
function localUrl(text: string): RegExpExecArray | null {
  // In any case: `git+FILE:///x` is `git+file:///x`.
  return /.file/i.test(text) ? LOCAL_URL.exec(text) : null;
}

/** A URL of a local database file (see databaseUrlPath). */
const DATABASE_URL = /^(?:(?:sqlite|duckdb)(?:\+[A-Za-z0-9_]+)?:\/\/\/|jdbc:sqlite:)/i;

/**
 * The file a local database URL names, which its program opens, creates and writes: SQLAlchemy's and
 * DuckDB's `sqlite:///app.db` (the relative app.db) and `sqlite:////srv/app.db` (the absolute
 * /srv/app.db), with a driver (`sqlite+pysqlite:///`) and a query (`?mode=ro`), and JDBC's
 * `jdbc:sqlite:app.db`. Undefined for any other text and for an in-memory database (`sqlite://`,
 * `:memory:`).
 */
export function databaseUrlPath(text: string): string | undefined {
  const m = DATABASE_URL.exec(text);
  if (!m) return undefined;
  const rest = text.slice(m[0].length).replace(/\?[^]*$/, "");
  return rest === "" || rest === ":memory:" ? undefined : rest;
}

/**
 * The spellings an executor might read a path as: the text itself and each of its percent-decodings,
 * round after round (`%252e%252e/` is `%2e%2e/` is `../`), up to MAX_DECODE_ROUNDS; a `file:` URL counts
 * as its path in every round. Plain text without `%` or `file:` is its only reading (the common case).
 */
export function pathReadings(text: string): string[] {
  const out = decodings(text).map((p) => (p.startsWith("\0") ? p : (fileUrlPath(p) ?? p)));
  // An executor may trim the path it is given (Python's strip(), JavaScript's trim()): a reading with
  // spaces at either end is also read without them (` /etc/passwd` is `/etc/passwd` there).
  for (let i = 0, n = out.length; i < n; i++) {
    const r = out[i]!;
    if (r === "" || r.startsWith("\0") || !(isSpaceAt(r, 0) || isSpaceAt(r, r.length - 1))) continue;
    const t = r.trim();
    if (t !== "" && !out.includes(t)) out.push(fileUrlPath(t) ?? t);
  }
  return out;
}

/** Is the character at `i` whitespace that trim() removes (ASCII space and controls, or any non-ASCII space)? */
function isSpaceAt(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return c <= 0x20 || (c >= 0x80 && /\s/.test(text[i]!));
}

/** The text and its percent-decodings, round after round (see pathReadings), `file:` URLs left as they are. */
function decodings(text: string): string[] {
  if (!text.includes("%")) return [text];
  const out = [text];
  let cur = text;
  for (let i = 0; ESCAPE.test(cur); i++) {
    if (i === MAX_DECODE_ROUNDS) {
      out.push(TOO_DEEP);
      break;
    }
    cur = percentDecode(cur);
    out.push(cur);
    if (cur === UNDECODABLE) break;
  }
  return out;
}

/** Is the text a URL of a scheme other than `file:` or a local database's (not a local path at all)? */
export function isRemoteUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) && !/^file:/i.test(text) && !DATABASE_URL.test(text) && localUrl(text) === null;
}

/** The first characters of a `file:` URL, a database URL (sqlite, duckdb, jdbc) or a percent escape, in either case. */
const URL_FIRST = new Set([..."fFsSdDjJ%"].map((c) => c.charCodeAt(0)));

/**
 * Is the text a `file:` URL or a local database's URL (`sqlite:///app.db`), in any spelling, percent-encoded
 * ones too? It is a path whatever argument holds it.
 */
export function isFileUrl(text: string): boolean {
  // Asked of every argument string and key: each spelling below holds a `:`, or a `%` that may spell one.
  if (!text.includes(":") && !text.includes("%")) return false;
  // A local URL of another scheme (LOCAL_URL) holds `file:` or `file/`, or a `%` that may spell it.
  if (!URL_FIRST.has(text.charCodeAt(0))) return localUrl(text) !== null || (text.includes("%") && /^(?:%[0-9A-Fa-f]{2}|[A-Za-z])*%/.test(text) && decodings(text).some((d) => localUrl(d) !== null || /^file:/i.test(d)));
  if (/^file:/i.test(text) || DATABASE_URL.test(text) || localUrl(text) !== null) return true;
  return /^(?:%[0-9A-Fa-f]{2}|[A-Za-z])*%/.test(text) && decodings(text).some((d) => /^file:/i.test(d) || DATABASE_URL.test(d) || localUrl(d) !== null);
}

/** Why a path text can never be a safe workspace path, before resolving it; undefined if it may be. */
export function unsafePathReason(text: string): PathWhy | undefined {
  if (text.length > MAX_PATH_LENGTH) return why("tooLong", { length: text.length, max: MAX_PATH_LENGTH });
  if (text === UNDECODABLE) return why("undecodable");
  if (text === TOO_NESTED) return why("tooNested", { max: MAX_ARGUMENT_DEPTH });
  if (text === TOO_DEEP) return why("encodedThrice");
  if (text.includes("\0")) return why("nul");
  if (/[\u0001-\u001f\u007f]/.test(text)) return why("control");
  if (/^~/.test(text)) return why("tilde");
  if (/^[\\/]{2}/.test(text) && !text.startsWith("///")) return why("unc");
  if (/^[A-Za-z]:/.test(text)) return why("drive");
  if (/%u[0-9A-Fa-f]{4}/.test(text)) return why("percentU");
  const lookalike = pathLookalikeReason(text);
  if (lookalike) return lookalike;
  // Windows drops trailing dots and spaces from a name: `.. ` and `...` are `..` and `.` there.
  if (/(?:^|[/\\])(?:\.\.[. ]+|\.[ ]+\.*|\.\.\.+)(?=[/\\]|$)/.test(text)) return why("dotNames");
  return undefined;
}

/**
 * The longest path resolved (UTF-16 units): Linux opens no path over 4,096 bytes (PATH_MAX). A longer
 * one is refused unread; resolving a path of 1 MiB (520,000 names) took 0.4 s, and 60 of them 35 s.
 */
export const MAX_PATH_LENGTH = 4096;

/**
 * Resolves a path the way the kernel does, one component at a time, following every symlink (even a
 * dangling one) with `readlink`, and keeping a tail that does not exist yet as written under the real
 * folder it would be created in. So `link/new/file` under a symlinked `link` lands where the link
 * points, and `link/..` is the parent of the link's target, not the workspace.
 */
export function resolveReal(absolute: string, files: FileProbe, maxLinks = 40): string {
  return walkReal(absolute, files, maxLinks).path;
}

/**
 * The entries walks have met on one file system, as a tree of names: what each is (lstat's kind) and
 * where a link points, asked once. A walk steps from a folder to a name in it without building the path
 * of every folder it passes (the path of a folder 2,000 names deep is 4 KB: made at every step of every
 * walk through it, a plan of such paths took minutes). A path is built only to ask the file system of
 * an entry met for the first time.
 */
export class WalkCache {
  readonly root = new WalkNode(undefined, "");
  /** Entries held; past MAX_WALK_ENTRIES a walk keeps what it meets to itself. */
  size = 0;
}

/** Entries one WalkCache holds at most (a walk beyond them still runs, on a cache of its own). */
const MAX_WALK_ENTRIES = 1 << 20;

/** One entry of a WalkCache. */
export class WalkNode {
  #children: Map<string, WalkNode> | undefined;
  kind: ReturnType<FileProbe["kind"]> | undefined;
  /** The link's target; null when it could not be read; undefined when not asked. */
  link: string | null | undefined;
  constructor(
    readonly parent: WalkNode | undefined,
    readonly name: string,
  ) {}
  child(name: string, cache: WalkCache): WalkNode {
    let c = this.#children?.get(name);
    if (c === undefined) {
      c = new WalkNode(this, name);
      if (cache.size < MAX_WALK_ENTRIES) {
        (this.#children ??= new Map()).set(name, c);
        cache.size++;
      }
    }
    return c;
  }
  /** The absolute path of the entry. */
  path(): string {
    if (this.parent === undefined) return "/";
    const names = [this.name];
    for (let n = this.parent; n.parent !== undefined; n = n.parent) names.push(n.name);
    return "/" + names.reverse().join("/");
  }
}

/** Folders a walk goes down by path strings before it takes to the tree of a WalkCache (see walkReal). */
const SHALLOW_WALK = 64;

/**
 * resolveReal, also telling whether the path was found missing (so its kind need not be asked again).
 * A path of up to SHALLOW_WALK folders (every path of an ordinary plan) is walked by its path strings,
 * each asked of the probe (which remembers them); a deeper one through `cache`, which keeps what the walk
 * learns for later walks over the same file system (the path service's), without building the path of
 * every folder it passes.
 */
export function walkReal(absolute: string, files: FileProbe, maxLinks = 40, cache?: WalkCache, budget?: LinkBudget): { path: string; missing: boolean; links: number } {
  // Split once, read from the end by both walks (each takes its own copy to pop from).
  const segments = pathSegments(absolute).reverse();
  return shallowWalk(segments, files, maxLinks, budget) ?? treeWalk(segments, files, maxLinks, cache ?? new WalkCache(), budget);
}

/** The names left to read from links' targets (core/work.ts MAX_LINK_NAMES), shared by the walks of one path service. */
export interface LinkBudget {
  left: number;
}

/** Takes n names from a LinkBudget: false, and the budget marked spent (below zero), when they are not left. */
function takeLinkNames(budget: LinkBudget, n: number): boolean {
  if (budget.left < n) {
    budget.left = -1;
    return false;
  }
  budget.left -= n;
  return true;
}

/** What a walk that met a link past its LinkBudget resolves to: no real path, so never inside. */
export const UNWALKED = "/\0unwalked";

/** walkReal by path strings (its segments in reverse order); undefined when the walk goes deeper than SHALLOW_WALK folders. */
function shallowWalk(segments: readonly string[], files: FileProbe, maxLinks: number, budget: LinkBudget | undefined): { path: string; missing: boolean; links: number } | undefined {
  const pending = segments.slice();
  const out: string[] = [];
  let links = 0;
  // How many of out's names exist: those after them are under a missing name, so missing too.
  let found = -1;
  while (pending.length > 0) {
    const seg = pending.pop()!;
    if (seg === ".") continue;
    if (seg === "..") {
      out.pop();
      // Back above a missing folder, the rest may exist again (and hold symlinks): it is checked.
      if (found >= out.length) found = -1;
      continue;
    }
    out.push(seg);
    if (out.length > SHALLOW_WALK) return undefined;
    if (found >= 0) continue;
    const here = "/" + out.join("/");
    const kind = files.kind(here);
    if (kind === "missing") {
      found = out.length - 1;
      continue;
    }
    if (kind !== "symlink") continue;
    const target = files.readlink(here);
    if (target === undefined || ++links > maxLinks) {
      // A loop or an unreadable link: whatever it resolves to cannot be shown to stay inside.
      return { path: "/\0unresolvable" + here, missing: true, links };
    }
    const parts = pathSegments(target);
    if (budget !== undefined && !takeLinkNames(budget, parts.length)) return { path: UNWALKED + here, missing: true, links };
    out.pop();
    if (target.startsWith("/")) out.length = 0;
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return { path: "/" + out.join("/"), missing: found >= 0, links };
}

/** walkReal through a WalkCache's tree of names (the path's segments in reverse order). */
function treeWalk(segments: readonly string[], files: FileProbe, maxLinks: number, cache: WalkCache, budget: LinkBudget | undefined): { path: string; missing: boolean; links: number } {
  const pending = segments.slice();
  const out: WalkNode[] = [cache.root];
  // The names below the last folder that exists (out's last): nothing under a missing name exists, so
  // they are kept as names, not entries of the cache, until a `..` climbs back out of them.
  const tail: string[] = [];
  let links = 0;
  while (pending.length > 0) {
    const seg = pending.pop()!;
    if (seg === ".") continue;
    if (seg === "..") {
      // Back above a missing folder, the rest may exist again (and hold symlinks): it is checked.
      if (tail.length > 0) tail.pop();
      else if (out.length > 1) out.pop();
      continue;
    }
    if (tail.length > 0) {
      tail.push(seg);
      continue;
    }
    const node = out[out.length - 1]!.child(seg, cache);
    const kind = (node.kind ??= files.kind(node.path()));
    if (kind === "missing") {
      tail.push(seg);
      continue;
    }
    out.push(node);
    if (kind !== "symlink") continue;
    if (node.link === undefined) node.link = files.readlink(node.path()) ?? null;
    const target = node.link;
    if (target === null || ++links > maxLinks) {
      // A loop or an unreadable link: whatever it resolves to cannot be shown to stay inside.
      return { path: "/\0unresolvable" + node.path(), missing: true, links };
    }
    const parts = pathSegments(target);
    if (budget !== undefined && !takeLinkNames(budget, parts.length)) return { path: UNWALKED + node.path(), missing: true, links };
    out.pop();
    if (target.startsWith("/")) out.length = 1;
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  const at = out[out.length - 1]!.path();
  if (tail.length === 0) return { path: at, missing: false, links };
  return { path: at === "/" ? `/${tail.join("/")}` : `${at}/${tail.join("/")}`, missing: true, links };
}

/**
 * Where a path argument lands: its lexical and its real (symlink-followed) absolute form; `missing` when
 * nothing exists there yet.
 */
export type Resolved =
  | { lexical: string; real: string; reading: string; missing: boolean }
  | { unsafe: PathWhy; reading: string };

/** The path argument names of a step: the policy's, plus those its tool's schema marks `format: "path"`. */
export function pathNamesFor(
  tool: string | undefined,
  policyNames: readonly string[],
  schemas: ReadonlyMap<string, unknown> | undefined,
): ReadonlySet<string> {
  // Policies and registries are reused across validations: their name sets are derived once per object.
  const base = compiledFor("path-names", policyNames, () => new Set(policyNames.map((n) => n.toLowerCase())));
  const schema = tool !== undefined ? schemas?.get(tool) : undefined;
  if (schema === null || typeof schema !== "object") return base;
  return compiledFor(
    "path-names-with-schema",
    base,
    () => {
      const names = new Set(base);
      for (const n of schemaPathNames(schema)) names.add(n.toLowerCase());
      return names;
    },
    schema,
  );
}

/** Arguments whose values are never workspace paths even when they start with `/` (programs, URLs, routes, patterns). */
const NOT_PATHS = new Set([
  "command",
  "cmd",
  "script",
  "program",
  "executable",
  "url",
  "uri",
  "href",
  "endpoint",
  "route",
  "pattern",
  "regex",
  "glob",
  "query",
]);

/**
 * Does an argument not named as a path still hold one that points away from the workspace: `~/…`,
 * `../…`, `/abs/…`, `C:\…`? Such values are checked too, so renaming `path` to `output` is no way out.
 */
export function looksLikeEscapingPath(name: string, value: string): boolean {
  if (isFileUrl(value)) return true;
  if (NOT_PATHS.has(name.toLowerCase())) return false;
  // Spaces at either end may be trimmed by the executor; a name may hold spaces (`my dir/../../x`), so a
  // value with spaces inside still counts when a `..` between separators climbs: prose (`see ../README`)
  // does not.
  const v = value.trim();
  const climbs = /[/\\]\.\.(?:[/\\]|$)/.test(v);
  // A text of several lines is no path (a patch in it is read as one: core/patch-paths.ts).
  if (/\s/.test(v)) return climbs && !/[\n\r\u0085\u2028\u2029]/.test(v);
  return /^(?:~(?:[/\\]|$)|\.\.(?:[/\\]|$)|\/[^/\s]|[A-Za-z]:[/\\])/.test(v) || climbs;
}

const SEPARATOR_OR_PERCENT = /[/\\%]/;

/**
 * Could a value under a name that is not a path name still name a file an executor opens, so that it is
 * resolved like a path argument (through symbolic links): a path that climbs out (looksLikeEscapingPath),
 * a relative path with a separator or a leading dot (looksLikePath: `link/secret.txt`, `.cache/x`), or
 * one spelt with percent escapes (`%2e%2e%2fetc`, `link%2fsecret.txt`). A relative path under a name
 * plangate does not know lands where the file system sends it, so `upload {what: "link/secret.txt"}`
 * with `link` pointing out of the workspace is as much a way out as `../secret.txt`.
 */
export function mayNamePath(name: string, value: string): boolean {
  // Without a separator or a `%`, only a leading `.` or `~`, or a `file:` URL, can make a path (prose
  // such as `Step 1: run x` is most of what reaches here): the tests below would each say no.
  if (!SEPARATOR_OR_PERCENT.test(value)) {
    const v = value.trim();
    const c = v.charCodeAt(0);
    // A `file:` URL as written, or with the spaces at its ends trimmed (looksLikePath's reading).
    if (c !== 0x2e && c !== 0x7e) return isFileUrl(value) || (v !== value && !/\s/.test(v) && !NOT_PATHS.has(name.toLowerCase()) && isFileUrl(v));
  }
  if (looksLikeEscapingPath(name, value) || looksLikePath(name, value)) return true;
  if (!value.includes("%") || NOT_PATHS.has(name.toLowerCase())) return false;
  return pathReadings(value).some((r) => r !== value && !r.startsWith("\0") && (looksLikeEscapingPath(name, r) || looksLikePath(name, r)));
}

/**
 * The other names Windows gives a relative path: each name without trailing dots and spaces and without
 * an alternate data stream (`.git./config`, `.git /config` and `.git::$INDEX_ALLOCATION/config` are all
 * `.git/config` there). Case is left to the caller's case-insensitive match. Undefined when the same.
 */
export function windowsSpelling(rel: string): string | undefined {
  if (!/[. ]$|[. ][/\\]|:/.test(rel)) return undefined;
  const folded = pathSegments(rel)
    .map((seg) => (seg === "." || seg === ".." ? seg : trimEndOf(cutFromColon(seg), ". ")))
    .join("/");
  return folded !== rel ? folded : undefined;
}

/**
 * Could a value under a name that is not a path name be a bare file name a writer is given
 * (`plangate.yaml`, `id_rsa`): not empty, no whitespace, not under a program, URL or pattern name
 * (NOT_PATHS), not a remote URL? Most such words are no files: the caller counts one only when it names
 * a protected file.
 */
export function mayBeFileName(name: string, value: string, word = false): boolean {
  // `word`: the value is known to be printable ASCII without a space or a `:` (a leaf of the facts without
  // the Space, Hidden and PathLike tags): nothing to trim, no whitespace, no URL scheme to test.
  if (word) return value !== "" && !NOT_PATHS.has(name.toLowerCase());
  const v = value.trim();
  return v !== "" && !NOT_PATHS.has(name.toLowerCase()) && !/\s/.test(v) && !isRemoteUrl(v);
}

/**
 * Does a value under a name that is not a path name still look like a path a writer could be given:
 * no whitespace, and a separator in it or a leading `.` (`.git/config`, `docs/a.md`, `.env`)? Programs,
 * URLs and patterns (NOT_PATHS) are not; `file:` URLs always are.
 */
export function looksLikePath(name: string, value: string): boolean {
  if (isFileUrl(value)) return true;
  // Spaces at either end may be trimmed by the executor; inside, a folder or file name may hold them
  // (`deploy keys/prod key.pem`): with a separator the value is still a path.
  const v = value.trim();
  if (NOT_PATHS.has(name.toLowerCase()) || v === "" || isRemoteUrl(v)) return false;
  if (/\s/.test(v)) return /[/\\]/.test(v) && !/[\n\r\u0085\u2028\u2029]/.test(v);
  return /[/\\]/.test(v) || v.startsWith(".") || looksLikeEscapingPath(name, v);
}
