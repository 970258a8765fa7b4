import { lstatSync, readlinkSync, realpathSync, statSync } from "node:fs";
import type { FileProbe } from "../core/file-probe.js";

/**
 * The real file system for artifact checks, with one lstat per plain file: its size comes from the
 * same call that tells it is a file (the generic probe would stat twice).
 */
export const LSTAT_PROBE: FileProbe & { last?: { path: string; size: number } } = {
  kind(path) {
    // Only the kind() call just before size() may answer it: never a stale size from an earlier check.
    LSTAT_PROBE.last = undefined;
    const st = lstatSync(path, { throwIfNoEntry: false });
    if (!st) return "missing";
    if (st.isFile()) {
      LSTAT_PROBE.last = { path, size: st.size };
      return "file";
    }
    return st.isSymbolicLink() ? "symlink" : st.isDirectory() ? "dir" : "other";
  },
  size(path) {
    const last = LSTAT_PROBE.last;
    if (last?.path === path) return last.size;
    const st = statSync(path, { throwIfNoEntry: false });
    return st?.isFile() ? st.size : undefined;
  },
  realpath(path) {
    try {
      return realpathSync.native(path);
    } catch {
      return undefined;
    }
  },
  // Artifact paths are resolved link by link (core/path-service.ts), as every path check resolves them.
  readlink(path) {
    try {
      return readlinkSync(path);
    } catch {
      return undefined;
    }
  },
  readText: () => undefined,
};
