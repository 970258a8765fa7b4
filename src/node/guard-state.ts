import { mkdirSync, readFileSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { fsyncDir, writeFileAtomic, writeNewFile } from "./atomic-write.js";
import { acquireLock } from "./lock-file.js";
import type { AuditHead } from "./audit.js";
import { untrustedPlace } from "./private-place.js";

/** A guard's progress through an approved plan, kept on disk (mode 0600, outside the workspace) between hook calls. */
export interface GuardState {
  /** 2 since the audit trail is keyed; a version 1 state (plangate 0.1) has no audit key. */
  version: 1 | 2;
  /** Absolute path of the plan file (re-read before every step). */
  plan: string;
  plan_hash: string;
  nonce: string;
  workspace: string;
  audit: string;
  /** Where consumed nonces are recorded. */
  consumed: string;
  /** 0-based index of the next approved step. */
  next: number;
  steps: number;
  audit_head: AuditHead;
  /** The run's secret audit key (hex, 32 random bytes): each audit line carries an HMAC under it. */
  audit_key?: string;
  /** seq of the run's first audit line (earlier lines were written by earlier runs). */
  audit_from?: number;
  /** The audit trail's size in bytes after the guard's last line: the hook reads no more. */
  audit_bytes?: number;
  /** Largest hook input read from standard input (the policy's guard.maxInputBytes at start). */
  max_input_bytes?: number;
  expires_at?: string;
  /** The policy's command rules and protected paths, for the host's shell calls. */
  host?: { commands: { allow: string[]; deny: string[]; allowCompound: boolean; installOutside?: string[]; inlineCode?: string[] }; protected: string[] };
}

/** The state's audit key as bytes, or undefined for a version 1 state. */
export function auditKeyOf(state: { audit_key?: string }): Uint8Array | undefined {
  return state.audit_key === undefined ? undefined : Buffer.from(state.audit_key, "hex");
}

import { GuardStateError } from "./guard-error.js";
import { guardFailure } from "../approval/judge.js";

export { GuardStateError };

/** Reads and checks a state file; anything unexpected is a GuardStateError (the call is refused). */
export function readState(path: string): GuardState {
  // The state names the approved plan, the cursor and the audit key: one another user could write is theirs.
  const untrusted = untrustedPlace(path, "the guard state file");
  if (untrusted !== undefined) throw new GuardStateError(guardFailure({ kind: "untrusted-place", problem: untrusted }).message);
  let v: Partial<GuardState>;
  try {
    v = JSON.parse(readFileSync(path, "utf8")) as Partial<GuardState>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new GuardStateError(guardFailure({ kind: "state-unreadable", path, code: code ?? (err as Error).message }).message);
  }
  const ok =
    typeof v === "object" && v !== null && (v.version === 1 || v.version === 2) &&
    typeof v.plan === "string" && typeof v.plan_hash === "string" && typeof v.nonce === "string" &&
    typeof v.workspace === "string" && typeof v.audit === "string" && typeof v.consumed === "string" &&
    Number.isInteger(v.next) && Number.isInteger(v.steps) && (v.next as number) >= 0 && (v.next as number) <= (v.steps as number) &&
    typeof v.audit_head === "object" && v.audit_head !== null &&
    Number.isInteger(v.audit_head.count) && (v.audit_head.hash === null || typeof v.audit_head.hash === "string") &&
    (v.version === 1 ||
      (typeof v.audit_key === "string" && /^[0-9a-f]{64}$/.test(v.audit_key) && Number.isInteger(v.audit_from) && (v.audit_from as number) >= 0 &&
        Number.isInteger(v.audit_bytes) && (v.audit_bytes as number) >= 0 &&
        Number.isInteger(v.max_input_bytes) && (v.max_input_bytes as number) > 0));
  if (!ok) throw new GuardStateError(guardFailure({ kind: "not-a-state", path }).message);
  return v as GuardState;
}

export function writeState(path: string, state: GuardState): void {
  // 0600: the state holds the run's audit key, which must stay secret from whoever can write the log.
  writeFileAtomic(path, JSON.stringify(state, null, 2) + "\n", 0o600);
}

/**
 * Records a nonce as used, durably: one file per nonce created with exclusive open and flushed, so two
 * guards racing cannot both consume it and a restart still sees it. False when it was already consumed.
 */
export function consumeNonce(dir: string, nonce: string, now: Date): boolean {
  if (!/^[0-9a-f]{32}$/.test(nonce)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "nonce", value: nonce }).message);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!writeNewFile(join(dir, nonce), JSON.stringify({ consumed_at: now.toISOString() }) + "\n")) return false;
  fsyncDir(dir);
  return true;
}

/** Has the nonce been consumed? Unknown states (a read error other than "absent") count as consumed. */
export function isConsumed(dir: string, nonce: string): boolean {
  try {
    readFileSync(join(dir, nonce));
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== "ENOENT";
  }
}


/**
 * Removes a lock whose holder is gone: the lock names its process id, and no process has that id any
 * more (a guard killed mid-decision). Only for a person's command (`guard repair`), never the hook: a
 * live holder's lock is kept. True when a lock was removed.
 */
export function breakStaleLock(statePath: string): boolean {
  const lock = `${statePath}.lock`;
  let text: string;
  try {
    text = readFileSync(lock, "utf8");
  } catch {
    return false;
  }
  const pid = Number(text.trim());
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ESRCH") return false;
  }
  unlinkSync(lock);
  return true;
}

/**
 * Runs `fn` holding an exclusive lock file (created with `wx`), so two hook processes racing on one
 * state cannot both take the same step. Waits with bounded backoff; a lock left by a crashed guard is
 * not broken automatically (that would let a racing call through): the error names the file to remove.
 */
export async function withLock<T>(statePath: string, fn: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const lock = `${statePath}.lock`;
  if (!(await acquireLock(lock, timeoutMs)))
    throw new GuardStateError(guardFailure({ kind: "locked", lock }).message);
  try {
    return await fn();
  } finally {
    unlinkSync(lock);
  }
}
