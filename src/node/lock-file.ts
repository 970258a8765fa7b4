import { closeSync, openSync, unlinkSync, writeSync } from "node:fs";

/*
 * Lock files: a lock is a file created exclusively (`wx`) next to what it guards, holding the process id
 * of its holder (so a person, or `guard repair`, can tell a crashed holder from a live one). One holder at
 * a time across processes; released by removing the file.
 */

/** Takes the lock if it is free; false when another holder has it. Other errors (no folder…) are thrown. */
export function tryLock(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Releases a lock this process holds; one already gone is no error. */
export function unlock(lock: string): void {
  try {
    unlinkSync(lock);
  } catch {}
}

/**
 * Waits for the lock, without blocking the thread (a long-lived process keeps serving meanwhile): retries
 * with backoff from 1 ms to 50 ms. False when it is still held after `timeoutMs`.
 */
export async function acquireLock(lock: string, timeoutMs: number, now: () => number = Date.now): Promise<boolean> {
  const deadline = now() + timeoutMs;
  let wait = 1;
  for (;;) {
    if (tryLock(lock)) return true;
    if (now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, wait));
    wait = Math.min(wait * 2, 50);
  }
}

/** The same for synchronous callers: blocks the thread between tries (5 ms each). */
export function acquireLockSync(lock: string, timeoutMs: number, now: () => number = Date.now): boolean {
  const deadline = now() + timeoutMs;
  for (;;) {
    if (tryLock(lock)) return true;
    if (now() > deadline) return false;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
  }
}
