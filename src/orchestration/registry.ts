
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

export function isoOf(ms: number): string {
  return new Date(ms).toISOString();
}

export function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException)?.code;
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
