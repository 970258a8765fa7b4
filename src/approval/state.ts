import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { writeFileAtomic } from "../node/atomic-write.js";
import type { AuditHead } from "./audit.js";

/** A guard's progress through an approved plan, kept on disk between hook calls. */
export interface GuardState {
  version: 1;
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
  expires_at?: string;
  /** The policy's command rules and protected paths, for the host's shell calls. */
  host?: { commands: { allow: string[]; deny: string[]; allowCompound: boolean }; protected: string[] };
}

/** The guard cannot proceed safely: the tool call is refused with this reason. */
export class GuardStateError extends Error {}

/**
 * Records a nonce as used, durably: one file per nonce created with exclusive open and flushed, so two
 * guards racing cannot both consume it and a restart still sees it. False when it was already consumed.
 */
export function consumeNonce(dir: string, nonce: string, now: Date): boolean {
  if (!/^[0-9a-f]{32}$/.test(nonce)) throw new GuardStateError(`not a nonce: ${JSON.stringify(nonce)}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(join(dir, nonce), "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, JSON.stringify({ consumed_at: now.toISOString() }) + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
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

function fsyncDir(dir: string): void {
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems cannot fsync a directory; the file itself was flushed.
  }
}

/** Reads and checks a state file; anything unexpected is a GuardStateError (the call is refused). */
export function readState(path: string): GuardState {
  let v: Partial<GuardState>;
  try {
    v = JSON.parse(readFileSync(path, "utf8")) as Partial<GuardState>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new GuardStateError(code === "ENOENT" ? `the guard state ${path} does not exist; run \`plangate guard start\` first` : `the guard state ${path} cannot be read (${code ?? (err as Error).message})`);
  }
  const ok =
    typeof v === "object" && v !== null && v.version === 1 &&
    typeof v.plan === "string" && typeof v.plan_hash === "string" && typeof v.nonce === "string" &&
    typeof v.workspace === "string" && typeof v.audit === "string" && typeof v.consumed === "string" &&
    Number.isInteger(v.next) && Number.isInteger(v.steps) && (v.next as number) >= 0 && (v.next as number) <= (v.steps as number) &&
    typeof v.audit_head === "object" && v.audit_head !== null;
  if (!ok) throw new GuardStateError(`the guard state ${path} is not a plangate guard state`);
  return v as GuardState;
}

export function writeState(path: string, state: GuardState): void {
  writeFileAtomic(path, JSON.stringify(state, null, 2) + "\n");
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` holding an exclusive lock file (created with `wx`), so two hook processes racing on one
 * state cannot both take the same step. Waits with bounded backoff; a lock left by a crashed guard is
 * not broken automatically (that would let a racing call through): the error names the file to remove.
 */
export async function withLock<T>(statePath: string, fn: () => Promise<T>, timeoutMs = 3000): Promise<T> {
  const lock = `${statePath}.lock`;
  const deadline = Date.now() + timeoutMs;
  let wait = 1;
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      if (Date.now() >= deadline)
        throw new GuardStateError(`the guard state is locked by ${lock}; if no guard is running (a crash), remove that file`);
      Atomics.wait(sleeper, 0, 0, wait);
      wait = Math.min(wait * 2, 50);
    }
  }
  try {
    return await fn();
  } finally {
    unlinkSync(lock);
  }
}
