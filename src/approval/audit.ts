import { closeSync, existsSync, fdatasyncSync, openSync, readFileSync, writeSync } from "node:fs";
import { sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { approvalDiagnostic as fail } from "./record.js";

/** One line of the audit trail. `prev` is the hash of the previous line's bytes (null for the first). */
export interface AuditEntry {
  seq: number;
  ts: string;
  event: "open" | "allow" | "deny" | "complete";
  plan_hash: string;
  nonce: string;
  step?: number;
  tool?: string;
  /** sha256 of the canonical arguments: the log records what ran without copying file contents. */
  args_hash?: string;
  rule?: string;
  reason?: string;
  prev: string | null;
}

/** Where a log's chain ends: the line count and the hash of the last line. */
export interface AuditHead {
  count: number;
  hash: string | null;
}

/** The hash that links a line to the next. */
export function lineHash(line: string): string {
  return "sha256:" + sha256Hex(line);
}

/** Checks a log's chain: sequence numbers 0, 1, 2…, each `prev` the hash of the line before. */
export function verifyAuditText(text: string, expectedHead?: AuditHead): { ok: boolean; head: AuditHead; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const lines = text.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  else if (lines.length > 0)
    diagnostics.push(fail("audit-chain-broken", `Line ${lines.length} is not terminated: the log was cut or written by something else.`, "keep the log append-only; restore it from a copy", { line: lines.length }));
  let prev: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let entry: Partial<AuditEntry> | undefined;
    try {
      entry = JSON.parse(line) as Partial<AuditEntry>;
    } catch {}
    if (typeof entry !== "object" || entry === null) {
      diagnostics.push(fail("audit-chain-broken", `Line ${i + 1} is not a JSON object.`, "restore the log from a copy", { line: i + 1 }));
    } else if (entry.seq !== i) {
      diagnostics.push(fail("audit-chain-broken", `Line ${i + 1} has sequence number ${String(entry.seq)}, expected ${i}: a line was deleted, inserted or moved.`, "restore the log from a copy", { line: i + 1, expected: i, actual: entry.seq }));
    } else if (entry.prev !== prev) {
      diagnostics.push(fail("audit-chain-broken", `Line ${i + 1} does not chain to line ${i}: ${i === 0 ? "the first line must have prev null" : "the line before it was edited"}.`, "restore the log from a copy", { line: i + 1, expected: prev, actual: entry.prev }));
    }
    prev = lineHash(line);
  }
  const head = { count: lines.length, hash: prev };
  if (expectedHead && (expectedHead.count !== head.count || expectedHead.hash !== head.hash))
    diagnostics.push(fail("audit-chain-broken", `The log ends at line ${head.count}, but the guard's state says it wrote ${expectedHead.count} lines ending in ${expectedHead.hash ?? "(none)"}: lines were removed from the end or the log was replaced.`, "restore the log from a copy", { expected: expectedHead, actual: head }));
  return { ok: diagnostics.length === 0, head, diagnostics };
}

/** An error that refuses to touch a broken log. */
export class AuditError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join(" "));
  }
}

/**
 * An append-only JSON Lines audit trail with a hash chain. Opening checks the chain (a broken log is
 * not appended to); each append is flushed to disk (fdatasync) before it returns.
 */
export class AuditLog {
  #head: AuditHead;
  constructor(readonly path: string, expectedHead?: AuditHead) {
    const text = existsSync(path) ? readFileSync(path, "utf8") : "";
    const check = verifyAuditText(text, expectedHead);
    if (!check.ok) throw new AuditError(check.diagnostics);
    this.#head = check.head;
  }
  get head(): AuditHead {
    return { ...this.#head };
  }
  append(entry: Omit<AuditEntry, "seq" | "prev">): AuditEntry {
    const full: AuditEntry = { seq: this.#head.count, ...entry, prev: this.#head.hash };
    const line = JSON.stringify(full);
    const fd = openSync(this.path, "a", 0o600);
    try {
      const buf = Buffer.from(line + "\n", "utf8");
      let off = 0;
      while (off < buf.byteLength) off += writeSync(fd, buf, off, buf.byteLength - off);
      // fdatasync flushes the data and the new file size (all an append needs), without the timestamps.
      fdatasyncSync(fd);
    } finally {
      closeSync(fd);
    }
    this.#head = { count: this.#head.count + 1, hash: lineHash(line) };
    return full;
  }
}
