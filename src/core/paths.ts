import type { FileProbe } from "./file-probe.js";
import { isPlanProbe } from "./probe-memo.js";
import type { Step } from "./plan.js";
import { childPointer, type Pointer } from "./pointer.js";

/** A path argument of a step: where it sits and what it says. */
export interface PathArgument {
  at: Pointer;
  /** The argument's name (the last key above the value). */
  name: string;
  value: string;
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
 * Every string held under a path-argument name, at any depth of the step's arguments (an `edits` list of
 * `{path}` objects is as much a path as a top-level `path`); lists of strings count too.
 */
export function pathArguments(step: Step, names: ReadonlySet<string>): PathArgument[] {
  const out: PathArgument[] = [];
  const visit = (value: unknown, at: Pointer, name: string | undefined, depth: number) => {
    if (depth > 64) return;
    if (typeof value === "string") {
      if (name !== undefined && names.has(name.toLowerCase())) out.push({ at, name, value });
    } else if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) visit(value[i], childPointer(at, i), name, depth + 1);
    } else if (value !== null && typeof value === "object") {
      for (const [k, v] of Object.entries(value)) visit(v, childPointer(at, k), k, depth + 1);
    }
  };
  visit(step.args, step.argsAt, undefined, 0);
  return out;
}

/** Splits a path on `/` and `\` (a Windows separator is a separator to some executor, so treat it as one). */
export function pathSegments(path: string): string[] {
  return path.split(/[/\\]+/).filter((s) => s !== "");
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
  return path === root || path.startsWith(root.endsWith("/") ? root : root + "/");
}

/** The path relative to a root it is inside ("" for the root itself). */
export function relativeInside(path: string, root: string): string {
  if (path === root) return "";
  return path.slice(root === "/" ? 1 : root.length + 1);
}

/**
 * The spellings an executor might read a path as: the text itself and its percent-decodings (one and
 * two rounds), so `%2e%2e/` is checked as `../`. A `file://` URL counts as its path.
 */
export function pathReadings(text: string): string[] {
  const out = [text];
  let cur = text;
  for (let i = 0; i < 2 && /%[0-9A-Fa-f]{2}/.test(cur); i++) {
    try {
      cur = decodeURIComponent(cur);
    } catch {
      // Malformed escapes: decode what can be decoded, byte by byte.
      cur = cur.replace(/%([0-9A-Fa-f]{2})/g, (_, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    }
    out.push(cur);
  }
  return out.map((p) => (/^file:\/\//i.test(p) ? p.replace(/^file:\/\/(localhost)?/i, "") : p));
}

/** Is the text a URL of a scheme other than `file:` (not a local path at all)? */
export function isRemoteUrl(text: string): boolean {
  return /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text) && !/^file:/i.test(text);
}

/** Why a path text can never be a safe workspace path, before resolving it; undefined if it may be. */
export function unsafePathReason(text: string): string | undefined {
  if (text.includes("\0")) return "holds a NUL byte, which cuts the path short for C-based executors";
  if (/[\u0001-\u001f\u007f]/.test(text)) return "holds control characters";
  if (/^~/.test(text)) return "starts with ~, which a shell expands to a home folder outside the workspace";
  if (/^[\\/]{2}/.test(text) && !text.startsWith("///")) return "is a network (UNC) path";
  if (/^[A-Za-z]:/.test(text)) return "is a Windows drive path";
  return undefined;
}

/**
 * Resolves a path the way the kernel does, one component at a time, following every symlink (even a
 * dangling one) with `readlink`, and keeping a tail that does not exist yet as written under the real
 * folder it would be created in. So `link/new/file` under a symlinked `link` lands where the link
 * points, and `link/..` is the parent of the link's target, not the workspace.
 */
export function resolveReal(absolute: string, files: FileProbe, maxLinks = 40): string {
  const pending = pathSegments(absolute).reverse();
  const out: string[] = [];
  let links = 0;
  let missing = false;
  while (pending.length > 0) {
    const seg = pending.pop()!;
    if (seg === ".") continue;
    if (seg === "..") {
      out.pop();
      // Back above a missing folder, the rest may exist again (and hold symlinks): check it.
      missing = false;
      continue;
    }
    out.push(seg);
    if (missing) continue;
    const here = "/" + out.join("/");
    const kind = files.kind(here);
    if (kind === "missing") {
      missing = true;
      continue;
    }
    if (kind !== "symlink") continue;
    const target = files.readlink(here);
    if (target === undefined || ++links > maxLinks) {
      // A loop or an unreadable link: whatever it resolves to cannot be shown to stay inside.
      return "/\0unresolvable" + here;
    }
    out.pop();
    if (target.startsWith("/")) out.length = 0;
    const parts = pathSegments(target);
    for (let i = parts.length - 1; i >= 0; i--) pending.push(parts[i]!);
  }
  return "/" + out.join("/");
}

/** The real path of the workspace root: followed through symlinks where it exists. */
export function realWorkspace(root: string, files: FileProbe): string {
  return files.realpath(root) ?? resolveReal(normalizeAbsolute(root), files);
}

const resolvedCache = new WeakMap<FileProbe, Map<string, Resolved[]>>();

/** Where a path argument lands: its lexical and its real (symlink-followed) absolute form. */
export type Resolved =
  | { lexical: string; real: string; reading: string }
  | { unsafe: string; reading: string };

/**
 * Resolves a path argument against the workspace in every reading an executor might make of it
 * (as written, percent-decoded). Relative paths resolve against the workspace root.
 */
export function resolveArgument(text: string, workspace: string, files: FileProbe): Resolved[] {
  // Per plan, the workspace rules resolve the same texts: remember them (never across plans).
  let cache: Map<string, Resolved[]> | undefined;
  if (isPlanProbe(files)) {
    cache = resolvedCache.get(files);
    if (!cache) {
      cache = new Map();
      resolvedCache.set(files, cache);
    }
    const hit = cache.get(`${workspace}\0${text}`);
    if (hit) return hit;
  }
  const out: Resolved[] = [];
  cache?.set(`${workspace}\0${text}`, out);
  for (const reading of pathReadings(text)) {
    const why = unsafePathReason(reading);
    if (why) {
      out.push({ unsafe: why, reading });
      continue;
    }
    const abs = /^[/\\]/.test(reading) ? reading : `${workspace}/${reading}`;
    out.push({ lexical: normalizeAbsolute(abs), real: resolveReal(abs, files), reading });
  }
  return out;
}

/** The path argument names of a step: the policy's, plus those its tool's schema marks `format: "path"`. */
export function pathNamesFor(
  tool: string | undefined,
  policyNames: readonly string[],
  schemas: ReadonlyMap<string, unknown> | undefined,
): ReadonlySet<string> {
  let base = baseNames.get(policyNames);
  if (!base) {
    base = new Set(policyNames.map((n) => n.toLowerCase()));
    baseNames.set(policyNames, base);
  }
  const schema = tool !== undefined ? schemas?.get(tool) : undefined;
  if (schema === null || typeof schema !== "object") return base;
  let perSchema = withSchema.get(base);
  if (!perSchema) {
    perSchema = new WeakMap();
    withSchema.set(base, perSchema);
  }
  let names = perSchema.get(schema);
  if (!names) {
    names = new Set(base);
    for (const n of schemaPathNames(schema)) names.add(n.toLowerCase());
    perSchema.set(schema, names);
  }
  return names;
}

// Policies and registries are reused across validations: derive their name sets once per object.
const baseNames = new WeakMap<readonly string[], Set<string>>();
const withSchema = new WeakMap<ReadonlySet<string>, WeakMap<object, Set<string>>>();

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
  if (NOT_PATHS.has(name.toLowerCase()) || /\s/.test(value)) return false;
  return (
    /^(?:~(?:[/\\]|$)|\.\.(?:[/\\]|$)|\/[^/\s]|[A-Za-z]:[/\\]|file:\/\/)/.test(value) ||
    /[/\\]\.\.(?:[/\\]|$)/.test(value)
  );
}
