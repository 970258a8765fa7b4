import { isAbsolute, relative, resolve, sep } from "node:path";
import type { FileProbe } from "../core/file-probe.js";
import { normalizeAbsolute, realWorkspace, resolveArgument, whyOutside } from "../core/paths.js";

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

/**
 * Resolves a workspace-relative path with the workspace rules' one resolver (core/paths.ts): every
 * reading of it (as written, percent-decoded, a `file:` URL's path) must stay inside, lexically and
 * through symlinks on the real file system, or it is marked outside and never touched.
 */
export function resolveInWorkspace(path: string, workspace: string, files: FileProbe, realRoot?: string): Resolved {
  const ws = normalizeAbsolute(workspace);
  const wsReal = realRoot ?? realWorkspace(ws, files);
  const readings = path === "" ? [] : resolveArgument(path, ws, files);
  const first = readings[0];
  const abs = first && "lexical" in first ? first.lexical : resolve(workspace, path);
  if (!first || readings.some((r) => whyOutside(r, ws, wsReal, files) !== undefined)) return { abs, inside: false };
  const kind = "real" in first ? files.kind(first.real) : "missing";
  return { abs, inside: true, kind: kind === "symlink" ? "other" : kind };
}

/** Normalises a turn-context entry to an absolute path, reading a leading `/` as the root when it is not inside the workspace. */
export function contextPath(entry: string, workspace: string): string {
  let p = entry.trim().replace(/\\/g, "/");
  if (isAbsolute(p) && !within(workspace, p)) p = p.replace(/^\/+/, "");
  return resolve(workspace, p);
}
