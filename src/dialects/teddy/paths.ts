import { isAbsolute, relative, resolve, sep } from "node:path";
import type { FileProbe } from "../../core/file-probe.js";

const URL_RE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Is the resource a URL (READ of a web page) rather than a local path? */
export function isUrl(value: string): boolean {
  return URL_RE.test(value);
}

/**
 * The path a metadata value names, as TeDDy reads it: a link's destination (or its text when the
 * destination is empty), else the bare text; backslashes become slashes; in a link (or a `[...]`
 * shortcut left unresolved) a leading `/` means the workspace root. A bare absolute path stays
 * absolute, so the workspace rules see it (fail closed).
 */
export function pathFromValue(value: string, link: { text: string; href: string } | undefined): string {
  let p = link ? link.href || link.text : value.trim();
  let linked = link !== undefined;
  if (!link && /^\[[^\]]+\]$/.test(p)) {
    p = p.slice(1, -1);
    linked = true;
  }
  p = p.trim().replace(/\\/g, "/");
  if (linked && p.startsWith("/")) p = p.slice(1);
  return p;
}

/** Where a plan path lands on disk, and whether plangate may look at it. */
export interface Resolved {
  abs: string;
  /** False when the path leaves the workspace (`..`, absolute elsewhere, `~`, NUL, symlinks): never touched. */
  inside: boolean;
  /** What is at the path, following a final symlink (inside the workspace only). */
  kind?: "file" | "dir" | "missing" | "other";
}

function within(root: string, p: string): boolean {
  const r = relative(root, p);
  return r === "" || (!r.startsWith(".." + sep) && r !== ".." && !isAbsolute(r));
}

/** Resolves a workspace-relative path; paths that escape, even through a symlink, are marked outside. */
export function resolveInWorkspace(path: string, workspace: string, files: FileProbe, realRoot = files.realpath(workspace) ?? workspace): Resolved {
  const abs = resolve(workspace, path);
  if (path === "" || path.includes("\u0000") || path.startsWith("~") || !within(workspace, abs)) return { abs, inside: false };
  // The nearest existing ancestor decides where a write or read really lands.
  let probe = abs;
  for (;;) {
    const kind = files.kind(probe);
    if (kind !== "missing") {
      // Any component may be a symlink, so the real path decides, not the entry's own kind.
      const real = files.realpath(probe);
      const inside = real === undefined ? false : within(realRoot, real);
      if (!inside) return { abs, inside };
      if (probe !== abs) return { abs, inside, kind: "missing" };
      const target = kind === "symlink" ? files.kind(real!) : kind;
      return { abs, inside, kind: target === "symlink" ? "other" : target };
    }
    const parent = resolve(probe, "..");
    if (parent === probe) return { abs, inside: true, kind: "missing" };
    probe = parent;
  }
}

/** Normalises a turn-context entry to an absolute path, reading a leading `/` as the root when it is not inside the workspace. */
export function contextPath(entry: string, workspace: string): string {
  let p = entry.trim().replace(/\\/g, "/");
  if (isAbsolute(p) && !within(workspace, p)) p = p.replace(/^\/+/, "");
  return resolve(workspace, p);
}
