import { randomBytes } from "node:crypto";
import { closeSync, constants, fstatSync, linkSync, mkdirSync, openSync, readSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";

/** One active session, as stored in the registry. */
export interface SessionEntry {
  session_id: string;
  /** ISO 8601 UTC. */
  registered_at: string;
  expires_at: string;
  agent?: string;
  pid?: number;
  /** Set when the entry could not be read (a link, a pipe, a folder, too large): the id stays blocked until it is removed. */
  unreadable?: string;
}

/** Outcome of a registration: won, or the id was already held by a live session. */
export type RegisterOutcome = { ok: true; entry: SessionEntry } | { ok: false; existing: SessionEntry | undefined; reason: string };

/** The active-session registry the delegation check consults. Shared between processes. */
export interface SessionRegistry {
  /** The live (unexpired) entry for an id, if any. */
  lookup(id: string, now: Date): SessionEntry | undefined;
  /** Adds the id atomically: of several concurrent callers, at most one succeeds. */
  register(id: string, options: { now: Date; ttlSeconds: number; agent?: string }): RegisterOutcome;
  /** Removes the id; true if it was registered. */
  release(id: string): boolean;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,127}$/;

/**
 * Why a session id cannot be used as a registry key, or undefined when it can. Ids become file names,
 * so anything that could leave the folder or alias another id is refused.
 */
export function sessionIdProblem(id: string): string | undefined {
  if (id.length === 0) return "it is empty";
  if (id.length > 128) return `it is ${id.length} characters long (at most 128)`;
  if (id.includes("..")) return 'it contains ".."';
  if (!SAFE_ID.test(id)) return "it may use only letters, digits, '.', '_', ':' and '-', and must start with a letter or digit";
  return undefined;
}

/** Thrown by the file registry for an id it refuses (see sessionIdProblem). */
export class InvalidSessionIdError extends Error {}

/** Thrown by the file registry when its folder cannot be used (it is a file), or an entry cannot be removed. */
export class SessionRegistryError extends Error {}

/** A session entry is a few hundred bytes: anything far larger is not one, and is not read. */
export const MAX_ENTRY_BYTES = 64 * 1024;

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

function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
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
    let fd: number;
    try {
      fd = openSync(lock, "wx");
    } catch (err) {
      if (code(err) !== "EEXIST") throw err;
      // Someone else is taking it over (or crashed doing so: the lock then needs removing by hand).
      return { ok: false, existing: this.#read(path, options.now)?.entry, reason: `being taken over (lock ${lock})` };
    }
    try {
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
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
      try {
        unlinkSync(lock);
      } catch {}
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
      if (code(err) === "EPERM" || code(err) === "ENOTSUP" || code(err) === "EXDEV") return this.#createExclusive(path, body);
      throw err;
    } finally {
      try {
        unlinkSync(tmp);
      } catch {}
    }
  }

  /** Fallback where hard links are not supported: exclusive create, then write. */
  #createExclusive(path: string, body: string): boolean {
    let fd: number;
    try {
      fd = openSync(path, "wx");
    } catch (err) {
      if (code(err) === "EEXIST") return false;
      throw err;
    }
    try {
      writeSync(fd, body);
    } finally {
      closeSync(fd);
    }
    return true;
  }

  /**
   * Removes the entry under the per-id lock, so a takeover that has judged the entry expired never
   * deletes a fresh entry created after a release.
   */
  release(id: string): boolean {
    const path = this.#path(id);
    const lock = `${path}.lock`;
    const deadline = Date.now() + 2000;
    for (;;) {
      try {
        closeSync(openSync(lock, "wx"));
        break;
      } catch (err) {
        // No registry folder yet: nothing is registered.
        if (code(err) === "ENOENT") return false;
        if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
        if (code(err) !== "EEXIST") throw err;
        if (Date.now() > deadline) throw new Error(`session registry lock ${lock} is held; remove it if no plangate process is running`);
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
      }
    }
    try {
      unlinkSync(path);
      return true;
    } catch (err) {
      if (code(err) === "ENOENT") return false;
      if (code(err) === "EISDIR" || code(err) === "EPERM") throw new SessionRegistryError(`the registry entry ${path} is a folder; remove it by hand`);
      if (code(err) === "ENOTDIR") throw new SessionRegistryError(`the session registry ${this.folder} is not a folder`);
      throw err;
    } finally {
      try {
        unlinkSync(lock);
      } catch {}
    }
  }
}

/** An in-memory registry for tests and single-process hosts. */
export class MemorySessionRegistry implements SessionRegistry {
  readonly #entries = new Map<string, SessionEntry>();
  lookup(id: string, now: Date): SessionEntry | undefined {
    const e = this.#entries.get(id.toLowerCase());
    return e && Date.parse(e.expires_at) > now.getTime() ? e : undefined;
  }
  register(id: string, options: { now: Date; ttlSeconds: number; agent?: string }): RegisterOutcome {
    const existing = this.lookup(id, options.now);
    if (existing) return { ok: false, existing, reason: "active" };
    const t = options.now.getTime();
    const entry: SessionEntry = {
      session_id: id,
      registered_at: isoOf(t),
      expires_at: isoOf(t + options.ttlSeconds * 1000),
      ...(options.agent !== undefined ? { agent: options.agent } : {}),
    };
    this.#entries.set(id.toLowerCase(), entry);
    return { ok: true, entry };
  }
  release(id: string): boolean {
    return this.#entries.delete(id.toLowerCase());
  }
}
