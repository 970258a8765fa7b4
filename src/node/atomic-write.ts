import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, openSync, readdirSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

const TEMP = ".plangate-tmp-";

/**
 * Writes a file so that readers see the old content or the new, never a truncated one: the data goes
 * to a temporary file in the same folder, is flushed to disk, and is renamed over the target.
 * A symlinked target is written through (the link stays a link); an existing file keeps its mode, a new
 * one gets `newFileMode` (default 0644). Temporary files left by a writer that was killed are removed first.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, newFileMode = 0o644): void {
  const target = resolveTarget(path);
  removeStaleTemps(target);
  let mode = newFileMode;
  try {
    mode = statSync(target).mode & 0o777;
  } catch {
    // A new file.
  }
  replaceFile(target, data, mode);
}

/**
 * Puts `data` at `target` through a temporary file in its folder (created with `mode`), flushed and
 * renamed over it, then flushes the folder: a name that is a symlink is replaced, not written through.
 */
export function replaceFile(target: string, data: string | Uint8Array, mode: number): void {
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}${TEMP}${process.pid}-${randomBytes(6).toString("hex")}`);
  const fd = openSync(tmp, "wx", mode);
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  closeSync(fd);
  try {
    renameSync(tmp, target);
  } catch (err) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw err;
  }
  fsyncDir(dir);
}

/** Writes all of `data` to an open file (a write may take less than it is given). */
function writeAll(fd: number, data: string | Uint8Array): void {
  const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  let off = 0;
  while (off < buf.byteLength) off += writeSync(fd, buf, off, buf.byteLength - off);
}

/**
 * Flushes a folder's entries (a file created, renamed or removed in it) to disk. Some file systems cannot
 * fsync a directory: then nothing is done, the file itself having been flushed (and a rename is atomic).
 */
export function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Not supported here.
  }
}

/**
 * Creates `path` exclusively (`wx`) with `data`, flushed to disk before it returns; false when the file
 * already exists. Two processes racing to create the same file: exactly one gets true.
 */
export function writeNewFile(path: string, data: string | Uint8Array, mode = 0o600): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx", mode);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeAll(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The file a write to `path` should replace: the end of its symlink chain when it is a link. */
function resolveTarget(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/**
 * Removes `.<name>.plangate-tmp-<pid>-<hex>` files whose writer process no longer runs: what a writer
 * killed between creating its temporary file and renaming it leaves behind.
 */
export function removeStaleTemps(path: string): string[] {
  const dir = dirname(path);
  const prefix = `.${basename(path)}${TEMP}`;
  const removed: string[] = [];
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!name.startsWith(prefix)) continue;
    const m = /^(\d+)-[0-9a-f]+$/.exec(name.slice(prefix.length));
    if (!m || isRunning(Number(m[1]))) continue;
    try {
      unlinkSync(join(dir, name));
      removed.push(name);
    } catch {
      // Already gone, or not ours to remove.
    }
  }
  return removed;
}

function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
