import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readdirSync, readSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeNewFile } from "../node/atomic-write.js";
import { acquireLockSync, tryLock, unlock } from "../node/lock-file.js";
import { code, InvalidSessionIdError, isoOf, MAX_ENTRY_BYTES, type RegisterOutcome, type SessionEntry, type SessionRegistry, SessionRegistryError, sessionIdProblem } from "../orchestration/registry.js";

/* The file store's session registry: one file per session id in a folder. */

type EntryRead = { text: string; mtimeMs: number } | { problem: string };

/**
 * Reads one entry: a regular file of at most MAX_ENTRY_BYTES, opened without following a symlink and without
 * blocking (a FIFO with no writer, a link to /dev/zero or a folder in the registry must not hang or fill memory).
 * Undefined when there is no entry.
 */
function readEntry(path: string, folder: string): EntryRead | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    if (code(err) === "ENOENT") return undefined;
    if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${folder} is not a folder`);
    if (code(err) === "ELOOP") return { problem: "it is a symbolic link" };
    return { problem: `it cannot be opened (${code(err) ?? (err as Error).message})` };
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { problem: `it is ${st.isDirectory() ? "a folder" : "a device, pipe or socket"}, not a regular file` };
    if (st.size > MAX_ENTRY_BYTES) return { problem: `it is ${st.size} bytes (an entry is at most ${MAX_ENTRY_BYTES})` };
    const buf = Buffer.alloc(MAX_ENTRY_BYTES + 1);
    let n = 0;
    for (;;) {
      const got = readSync(fd, buf, n, buf.length - n, null);
      if (got === 0) break;
      n += got;
      if (n > MAX_ENTRY_BYTES) return { problem: `it is over ${MAX_ENTRY_BYTES} bytes` };
    }
    return { text: buf.toString("utf8", 0, n), mtimeMs: st.mtimeMs };
  } catch (err) {
    return { problem: `it cannot be read (${code(err) ?? (err as Error).message})` };
  } finally {
    closeSync(fd);
  }
}

/**
 * The embedded registry: one file per session id in a folder. Creating an entry is a hard link of a
 * fully written temp file (atomic, fails if the name exists), so readers never see a half-written
 * entry and two racers never both win. An expired entry is taken over under a per-id lock file.
 */
export class FileSessionRegistry implements SessionRegistry {
  /** How long an unreadable entry (e.g. left half-written by a crash) blocks its id, in seconds. */
  readonly ttlSeconds: number;
  constructor(
    readonly folder: string,
    options: { ttlSeconds?: number } = {},
  ) {
    this.ttlSeconds = options.ttlSeconds ?? 24 * 3600;
  }

  #path(id: string): string {
    const problem = sessionIdProblem(id);
    if (problem) throw new InvalidSessionIdError(`session id "${id}" cannot be registered: ${problem}`);
    // Case-folded name: on case-insensitive file systems "A" and "a" would share a file anyway.
    return join(this.folder, `${id.toLowerCase()}.json`);
  }

  #read(path: string, now: Date, ttlSeconds = this.ttlSeconds): { entry?: SessionEntry; live: boolean; problem?: string } | undefined {
    const read = readEntry(path, this.folder);
    if (read === undefined) return undefined;
    // Not a regular file, or too large: the id stays blocked until someone removes the entry (fail closed).
    if ("problem" in read) return { live: true, problem: `its registry entry ${path} cannot be used: ${read.problem}; remove it` };
    try {
      const entry = JSON.parse(read.text) as SessionEntry;
      const expires = Date.parse(entry.expires_at);
      // An entry without a readable expiry counts as live: fail closed.
      return { entry, live: Number.isNaN(expires) || expires > now.getTime() };
    } catch {
      // Unreadable content: live until its file is older than the TTL.
      return { live: read.mtimeMs + ttlSeconds * 1000 > now.getTime() };
    }
  }

  lookup(id: string, now: Date): SessionEntry | undefined {
    const r = this.#read(this.#path(id), now);
    if (!r?.live) return undefined;
    return r.entry ?? { session_id: id, registered_at: "", expires_at: "", ...(r.problem ? { unreadable: r.problem } : {}) };
  }

  register(id: string, options: { now: Date; ttlSeconds: number; agent?: string }): RegisterOutcome {
    const path = this.#path(id);
    try {
      mkdirSync(this.folder, { recursive: true });
    } catch (err) {
      if (code(err) === "EEXIST" || code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
      throw err;
    }
    const nowMs = options.now.getTime();
    const entry: SessionEntry = {
      session_id: id,
      registered_at: isoOf(nowMs),
      expires_at: isoOf(nowMs + options.ttlSeconds * 1000),
      ...(options.agent !== undefined ? { agent: options.agent } : {}),
      pid: process.pid,
    };
    const body = `${JSON.stringify(entry, null, 2)}\n`;
    if (this.#create(path, body)) return { ok: true, entry };
    const seen = this.#read(path, options.now, options.ttlSeconds);
    if (seen === undefined) {
      // Released between our attempt and the read: one more try, still atomic.
      if (this.#create(path, body)) return { ok: true, entry };
      return { ok: false, existing: this.#read(path, options.now)?.entry, reason: "registered concurrently" };
    }
    if (seen.problem) return { ok: false, existing: { session_id: id, registered_at: "", expires_at: "", unreadable: seen.problem }, reason: seen.problem };
    if (seen.live) return { ok: false, existing: seen.entry, reason: "active" };
    return this.#takeOver(path, body, entry, options);
  }

  /** Replaces an expired entry; the lock makes the check-and-replace one step across processes. */
  #takeOver(path: string, body: string, entry: SessionEntry, options: { now: Date; ttlSeconds: number }): RegisterOutcome {
    const lock = `${path}.lock`;
    // Someone else is taking it over (or crashed doing so: the lock then needs removing by hand).
    if (!tryLock(lock)) return { ok: false, existing: this.#read(path, options.now)?.entry, reason: `being taken over (lock ${lock})` };
    try {
      const again = this.#read(path, options.now, options.ttlSeconds);
      if (again?.live) return { ok: false, existing: again.entry, reason: "active" };
      if (again) {
        try {
          unlinkSync(path);
        } catch (err) {
          if (code(err) !== "ENOENT") throw err;
        }
      }
      if (this.#create(path, body)) return { ok: true, entry };
      return { ok: false, existing: this.#read(path, options.now)?.entry, reason: "registered concurrently" };
    } finally {
      unlock(lock);
    }
  }

  /** Creates `path` with `body` atomically; false if it already exists. */
  #create(path: string, body: string): boolean {
    const tmp = join(this.folder, `.tmp-${process.pid}-${randomBytes(6).toString("hex")}`);
    writeFileSync(tmp, body, { flag: "wx" });
    try {
      linkSync(tmp, path);
      return true;
    } catch (err) {
      if (code(err) === "EEXIST") return false;
      // Where hard links are not supported: exclusive create, then write.
      if (code(err) === "EPERM" || code(err) === "ENOTSUP" || code(err) === "EXDEV") return writeNewFile(path, body, 0o666);
      throw err;
    } finally {
      try {
        unlinkSync(tmp);
      } catch {}
    }
  }

  /**
   * Removes the expired entries (each re-checked under its per-id lock, so a fresh registration made
   * meanwhile is kept); how many were removed. Unreadable entries are left for a person to remove.
   */
  expire(now: Date): number {
    let names: string[];
    try {
      names = readdirSync(this.folder);
    } catch (err) {
      if (code(err) === "ENOENT") return 0;
      if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
      throw err;
    }
    let removed = 0;
    for (const n of names) {
      const m = /^(.+)\.json$/.exec(n);
      if (!m || sessionIdProblem(m[1]!) !== undefined) continue;
      const path = join(this.folder, n);
      const seen = this.#read(path, now);
      if (seen === undefined || seen.live || seen.problem || seen.entry === undefined) continue;
      const lock = `${path}.lock`;
      try {
        if (!tryLock(lock)) continue;
      } catch {
        continue;
      }
      try {
        const again = this.#read(path, now);
        if (again !== undefined && !again.live && again.entry !== undefined) {
          unlinkSync(path);
          removed++;
        }
      } finally {
        unlock(lock);
      }
    }
    return removed;
  }

  /**
   * Removes the entry under the per-id lock, so a takeover that has judged the entry expired never
   * deletes a fresh entry created after a release.
   */
  release(id: string): boolean {
    const path = this.#path(id);
    const lock = `${path}.lock`;
    let locked: boolean;
    try {
      locked = acquireLockSync(lock, 2000);
    } catch (err) {
      // No registry folder yet: nothing is registered.
      if (code(err) === "ENOENT") return false;
      if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
      throw err;
    }
    if (!locked) throw new Error(`session registry lock ${lock} is held; remove it if no plangate process is running`);
    try {
      unlinkSync(path);
      return true;
    } catch (err) {
      if (code(err) === "ENOENT") return false;
      if (code(err) === "EISDIR" || code(err) === "EPERM") throw new SessionRegistryError(`the registry entry ${path} is a folder; remove it by hand`);
      if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
      throw err;
    } finally {
      unlock(lock);
    }
  }
}

