import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { closeSync, existsSync, fdatasyncSync, fstatSync, openSync, readFileSync, readSync, writeSync } from "node:fs";
import { readFileBounded } from "./read-bounded.js";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { AuditLineFacts, TrailTampering } from "../core/input/approval.js";
import { judgeApproval } from "../approval/judge.js";

/**
 * One line of the audit trail. `prev` is the hash of the previous line's bytes (null for the first);
 * `mac` is an HMAC-SHA256, under the run's secret key, of the canonical JSON of every other member, so
 * someone who can write the log but not the guard's state cannot forge a line or recompute the chain.
 */
export interface AuditEntry {
  seq: number;
  ts: string;
  /** claim: a session took a pending run; ask: a step allowed after the person confirms; free: a call needing no step; stop: `guard stop`. */
  event: "open" | "allow" | "deny" | "complete" | "claim" | "ask" | "free" | "stop" | "subagent-start" | "subagent-stop";
  plan_hash: string;
  nonce: string;
  step?: number;
  tool?: string;
  /** sha256 of the canonical arguments: the log records what ran without copying file contents. */
  args_hash?: string;
  rule?: string;
  reason?: string;
  /** The session that claimed the run (claim lines) or made the call (no-run lines: the session key). */
  session?: string;
  /** Where the run stands after an allow or ask: `guard repair` rolls a run forward from it. */
  cursor?: { index: number; count: number };
  /** The run's whole progress after the line (subagents included): `guard repair` restores it. */
  progress?: unknown;
  /** The subagent a subagent-start / subagent-stop line is about. */
  agent?: string | null;
  prev: string | null;
  mac?: string;
}

/** Where a log's chain ends: the line count and the hash of the last line. */
export interface AuditHead {
  count: number;
  hash: string | null;
}

/**
 * What a verifier knows from outside the log (the guard's state): where the log must end, the run's
 * key and the sequence number of the run's first line. Lines before `from` were written by earlier runs.
 */
export interface AuditAnchor {
  head?: AuditHead;
  key?: Uint8Array;
  /** seq of the run's first line (default 0: every line must carry a MAC under `key`). */
  from?: number;
  /**
   * The log's size in bytes as the guard left it. AuditLog reads no more than this: a log someone
   * grew (to exhaust the hook's memory) or replaced by a device or pipe is refused unread.
   */
  bytes?: number;
  /**
   * Check only the log's end: its size is `bytes` and its last line hashes to `head` (with a valid MAC),
   * without reading the lines before it, so opening costs the same however long the log is. The lines
   * before are pinned by the chain into the last one; `audit verify --state` checks them all.
   */
  tail?: boolean;
}

/**
 * What a check proved: `authenticated` (chain intact and every line of the run carries a valid MAC
 * under its key), `chain` (chain intact; without the key a recomputed chain cannot be told from the
 * real one) or `broken`.
 */
export type AuditLevel = "authenticated" | "chain" | "broken";

export interface AuditCheck {
  ok: boolean;
  level: AuditLevel;
  head: AuditHead;
  /** 1-based lines whose MACs were checked, when a key was given and the log is intact. */
  authenticated?: { from: number; to: number };
  diagnostics: Diagnostic[];
}

const MAC_PREFIX = "hmac-sha256:";

/** The hash that links a line to the next. */
export function lineHash(line: string): string {
  return "sha256:" + sha256Hex(line);
}

/** The MAC of an entry: HMAC-SHA256 over the RFC 8785 form of every member but `mac`. */
export function entryMac(key: Uint8Array, entry: Record<string, unknown>): string {
  const { mac: _mac, ...rest } = entry;
  return MAC_PREFIX + createHmac("sha256", key).update(canonicalJson(rest)).digest("hex");
}

function macMatches(key: Uint8Array, entry: Record<string, unknown>): boolean {
  if (typeof entry.mac !== "string" || !entry.mac.startsWith(MAC_PREFIX)) return false;
  let want: string;
  try {
    want = entryMac(key, entry);
  } catch {
    return false;
  }
  const a = Buffer.from(want);
  const b = Buffer.from(entry.mac);
  return a.byteLength === b.byteLength && timingSafeEqual(a, b);
}

/** Does a trail line carry a valid MAC under `key`? (False for a line that is not a JSON object.) */
export function lineMacOk(key: Uint8Array, line: string): boolean {
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch {
    return false;
  }
  return typeof entry === "object" && entry !== null && !Array.isArray(entry) && macMatches(key, entry as Record<string, unknown>);
}

/** An anchor, or a bare head as plangate 0.1 took it (so such a caller's head check is not lost). */
function anchorOf(a: AuditAnchor | AuditHead | undefined): AuditAnchor {
  if (a === undefined) return {};
  return "count" in a ? { head: a } : a;
}

/**
 * Checks a log's chain (sequence numbers 0, 1, 2…, each `prev` the hash of the line before) and, given
 * the anchor, that it ends at the recorded head and that every line of the run carries a valid MAC.
 */
export function verifyAuditText(text: string, anchorOrHead?: AuditAnchor | AuditHead): AuditCheck {
  const anchor = anchorOf(anchorOrHead);
  const lines = text.split("\n");
  let unterminated: number | undefined;
  if (lines[lines.length - 1] === "") lines.pop();
  else if (lines.length > 0) unterminated = lines.length;
  const from = anchor.from ?? 0;
  const facts: AuditLineFacts[] = [];
  let prev: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    let entry: Partial<AuditEntry> | undefined;
    try {
      entry = JSON.parse(line) as Partial<AuditEntry>;
    } catch {}
    const object = typeof entry === "object" && entry !== null && !Array.isArray(entry);
    let mac: AuditLineFacts["mac"] = "unchecked";
    if (object && anchor.key !== undefined && i >= from) mac = entry!.mac === undefined ? "absent" : macMatches(anchor.key, entry as Record<string, unknown>) ? "valid" : "invalid";
    facts.push(object ? { line: i + 1, object, seq: entry!.seq, prev: entry!.prev, prevHash: prev, mac } : { line: i + 1, object, prevHash: prev, mac });
    prev = lineHash(line);
  }
  const head = { count: lines.length, hash: prev };
  const diagnostics = judgeApproval({
    step: "audit",
    lines: facts,
    ...(unterminated !== undefined ? { unterminated } : {}),
    head,
    ...(anchor.head ? { anchoredHead: anchor.head } : {}),
    ...(anchor.key !== undefined ? { from } : {}),
  });
  const ok = diagnostics.length === 0;
  const check: AuditCheck = { ok, level: !ok ? "broken" : anchor.key !== undefined ? "authenticated" : "chain", head, diagnostics };
  if (ok && anchor.key !== undefined) check.authenticated = { from: from + 1, to: head.count };
  return check;
}

/** An error that refuses to touch a broken log. */
export class AuditError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join(" "));
  }
}

/**
 * An append-only JSON Lines audit trail with a keyed hash chain. Opening checks the chain (and, given
 * an anchor, the head and the run's MACs): a broken log is not appended to. Each appended line carries
 * a MAC under `key` (random when not given) and is flushed to disk (fdatasync) before append returns.
 */
export class AuditLog {
  #head: AuditHead;
  #bytes: number;
  readonly #key: Uint8Array;
  /** seq of this run's first line: the line count when the log was first opened for the run. */
  readonly from: number;
  constructor(readonly path: string, anchorOrHead?: AuditAnchor | AuditHead, key?: Uint8Array) {
    const anchor = anchorOf(anchorOrHead);
    if (anchor.tail === true && anchor.head !== undefined && anchor.bytes !== undefined) {
      checkTail(path, anchor.head, anchor.bytes, key ?? anchor.key, anchor.from ?? 0);
      this.#head = { ...anchor.head };
      this.#bytes = anchor.bytes;
      this.#key = key ?? anchor.key ?? randomBytes(32);
      this.from = anchor.from ?? anchor.head.count;
      return;
    }
    const bytes = anchor.bytes === undefined ? (existsSync(path) ? readFileSync(path) : Buffer.alloc(0)) : readSized(path, anchor.bytes);
    const check = verifyAuditText(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("utf8"), anchor);
    if (!check.ok) throw new AuditError(check.diagnostics);
    this.#head = check.head;
    this.#bytes = bytes.byteLength;
    this.#key = key ?? anchor.key ?? randomBytes(32);
    this.from = anchor.from ?? check.head.count;
  }
  get head(): AuditHead {
    return { ...this.#head };
  }
  /** What a verifier needs to authenticate this run's lines later: keep it where the log's writers cannot. */
  anchor(): { head: AuditHead; from: number; key: string; bytes: number } {
    return { head: this.head, from: this.from, key: Buffer.from(this.#key).toString("hex"), bytes: this.#bytes };
  }
  append(entry: Omit<AuditEntry, "seq" | "prev" | "mac">): AuditEntry {
    const { full, line } = chainLine(this.#head, this.#key, entry);
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
    this.#bytes += Buffer.byteLength(line) + 1;
    return full;
  }
}

/** The next line of a trail whose chain ends at `head`: sequence number, link and MAC under `key`. */
export function chainLine(head: AuditHead, key: Uint8Array, entry: Omit<AuditEntry, "seq" | "prev" | "mac">): { full: AuditEntry; line: string } {
  const unsigned = { seq: head.count, ...entry, prev: head.hash };
  const full: AuditEntry = { ...unsigned, mac: entryMac(key, unsigned) };
  return { full, line: JSON.stringify(full) };
}

/**
 * A trail's new lines chained and signed in memory, for a store that writes them elsewhere (database
 * rows, in the same transaction as the state they record): the same lines AuditLog would write.
 */
export class AuditChain {
  #head: AuditHead;
  readonly #key: Uint8Array;
  /** The lines appended since the chain was made, without their line breaks. */
  readonly lines: string[] = [];
  readonly from: number;
  constructor(readonly path: string, key: Uint8Array, head: AuditHead = { count: 0, hash: null }, from = head.count) {
    this.#key = key;
    this.#head = { ...head };
    this.from = from;
  }
  get head(): AuditHead {
    return { ...this.#head };
  }
  anchor(): { head: AuditHead; from: number; key: string; bytes: number } {
    return { head: this.head, from: this.from, key: Buffer.from(this.#key).toString("hex"), bytes: 0 };
  }
  append(entry: Omit<AuditEntry, "seq" | "prev" | "mac">): AuditEntry {
    const { full, line } = chainLine(this.#head, this.#key, entry);
    this.lines.push(line);
    this.#head = { count: this.#head.count + 1, hash: lineHash(line) };
    return full;
  }
}

/** Checks that a log is a regular file of exactly `size` bytes whose last line is the anchored head (see AuditAnchor.tail). */
function checkTail(path: string, head: AuditHead, size: number, key: Uint8Array | undefined, from: number): void {
  const broken = (found: TrailTampering) => new AuditError(judgeApproval({ step: "audit", file: path, tampered: { found, bytes: size, head } }));
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT" && size === 0 && head.count === 0) return;
    throw broken({ kind: "unreadable", code: String((err as NodeJS.ErrnoException).code) });
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw broken({ kind: "not-a-file" });
    if (st.size !== size) throw broken({ kind: "size", size: st.size });
    if (head.count === 0) {
      if (size !== 0) throw broken({ kind: "extra-lines" });
      return;
    }
    // Read back from the end until the line before the last one ends (or the file starts).
    let chunk = Math.min(size, 4096);
    for (;;) {
      const buf = Buffer.alloc(chunk);
      let off = 0;
      while (off < chunk) {
        const n = readSync(fd, buf, off, chunk - off, size - chunk + off);
        if (n === 0) throw broken({ kind: "ended-while-read" });
        off += n;
      }
      if (buf[chunk - 1] !== 0x0a) throw broken({ kind: "partial-line" });
      const start = buf.lastIndexOf(0x0a, chunk - 2);
      if (start < 0 && chunk < size) {
        chunk = Math.min(size, chunk * 4);
        continue;
      }
      const line = buf.subarray(start + 1, chunk - 1).toString("utf8");
      if (lineHash(line) !== head.hash) throw broken({ kind: "other-last-line" });
      let entry: Partial<AuditEntry> | undefined;
      try {
        entry = JSON.parse(line) as Partial<AuditEntry>;
      } catch {}
      if (typeof entry !== "object" || entry === null || entry.seq !== head.count - 1) throw broken({ kind: "last-sequence" });
      if (key !== undefined && head.count - 1 >= from && !macMatches(key, entry as Record<string, unknown>)) throw broken({ kind: "last-mac" });
      return;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads a log that must be a regular file of exactly `size` bytes; anything else is an AuditError, read no further. */
function readSized(path: string, size: number): Uint8Array {
  const r = readFileBounded(path, size);
  const broken = (found: TrailTampering) => new AuditError(judgeApproval({ step: "audit", file: path, tampered: { found, bytes: size } }));
  if (r.ok) {
    if (r.bytes.byteLength !== size) throw broken({ kind: "size", size: r.bytes.byteLength });
    return r.bytes;
  }
  if (r.reason === "too-large") throw broken({ kind: "larger" });
  if (r.reason === "not-a-file") throw broken({ kind: "not-a-file", what: r.kind });
  if (r.code === "ENOENT" && size === 0) return new Uint8Array();
  throw broken({ kind: "unreadable", code: String(r.code) });
}
