import { randomBytes } from "node:crypto";
import { type BigIntStats, closeSync, constants, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, statfsSync, statSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { AuditError, AuditLog, type AuditEntry, verifyAuditText } from "../node/audit.js";
import type { ExpectedCall } from "../approval/match.js";
import { type Progress, progressDone } from "../approval/progress.js";
import { isInside } from "../node/keys.js";
import { sha256Hex } from "../core/canonical/jcs.js";
import { writeFileAtomic, writeNewFile } from "../node/atomic-write.js";
import { readFileBounded, readOpenBounded } from "../node/read-bounded.js";
import type { RegisterOutcome, SessionEntry } from "../orchestration/registry.js";
import { GuardStateError, RunNotFoundError } from "./errors.js";
import { guardFailure } from "../approval/judge.js";
import { guardDecision } from "../rules/guard-failure/decisions.js";
import { breakStaleLock, consumeNonce, isConsumed, withLock } from "../node/guard-state.js";
import { FileSessionRegistry } from "./file-registry.js";
import { untrustedPlace } from "../node/private-place.js";
import { isCursor, isExpected, isFinished, isRun } from "./validate.js";
import type { AuditInput, AuditRead, NewRun, PendingPlan, RepairOutcome, RunState, RunStatus, RunTx, Store, WithRunOptions } from "./types.js";
import { RUN_ID, trailAdvice } from "./types.js";

/*
 * The file store (`file:DIR`, the state directory). It holds:
 *   runs/<run-id>.json       one run: the approved plan's compiled calls and where the run stands (0600)
 *   runs/<run-id>.json.lock  the run's critical section (exclusive create; names the holder's pid)
 *   sessions/<session-key>   the run a session is bound to; created exclusively, so a session has one run
 *   audit/<run-id>.jsonl     the run's keyed audit trail (audit/no-run-<session-key>.jsonl: free calls of
 *                            sessions without a run, keyed by audit.key)
 *   consumed/<nonce>         consumed single-use approvals
 *   registry/<id>.json       the delegation session registry (check-delegation --store file:DIR)
 *   plans/, pending/         plans accepted in plan mode, and those waiting for `plangate approve`
 * A session key is the SHA-256 of the host's session id: a session id is never used as a file name.
 */

/** How long a plan file must have been left alone before its stamp may stand for its bytes. */
export const SETTLED_MS = 60_000;

/**
 * Linux file systems whose timestamps are the kernel's own (no attribute cache of another machine's
 * writes) and whose shared mappings are write-protected again once written back, so that a later write
 * through one moves the times. Not tmpfs (its pages are never written back: a page once mapped for
 * writing takes writes without a timestamp for as long as the mapping lives), nor overlayfs (its files'
 * pages are those of the upper file system, which may be tmpfs).
 */
const LOCAL_FS = new Set([0xef53 /* ext2-4 */, 0x58465342 /* xfs */, 0x9123683e /* btrfs */, 0x2fc12fc1 /* zfs */, 0xf2f52010 /* f2fs */]);

/**
 * Does the kernel write dirty pages back well within SETTLED_MS (vm.dirty_expire_centisecs and
 * vm.dirty_writeback_centisecs, as read from /proc)? A page written through a shared mapping is
 * write-protected again only once written back; with the periodic flusher off (0) or a longer expiry,
 * later writes through the mapping could stay silent past the settling minute.
 */
export function writebackSettles(expireCs: string | undefined, writebackCs: string | undefined): boolean {
  const expire = /^\s*\d+\s*$/.test(expireCs ?? "") ? Number(expireCs) : NaN;
  const every = /^\s*\d+\s*$/.test(writebackCs ?? "") ? Number(writebackCs) : NaN;
  return every > 0 && (expire + every) * 10 <= SETTLED_MS * 0.75;
}

let writeback: boolean | undefined;
function writebackOk(): boolean {
  if (writeback === undefined) {
    const sysctl = (name: string) => {
      try {
        return readFileSync(`/proc/sys/vm/${name}`, "utf8");
      } catch {
        return undefined;
      }
    };
    writeback = writebackSettles(sysctl("dirty_expire_centisecs"), sysctl("dirty_writeback_centisecs"));
  }
  return writeback;
}

let bootId: string | null | undefined;
/** This machine's boot (Linux's boot_id): a stamp taken here says nothing of another machine's file, nor of this one's after a restart. */
function bootOf(): string | undefined {
  if (bootId === undefined) {
    try {
      const id = readFileSync("/proc/sys/kernel/random/boot_id", "utf8").trim();
      bootId = /^[0-9a-f-]{36}$/.test(id) ? id : null;
    } catch {
      bootId = null;
    }
  }
  return bootId ?? undefined;
}

function stampOf(st: BigIntStats): string | undefined {
  const boot = bootOf();
  return boot === undefined ? undefined : `${boot}:${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
}

/**
 * A plan file's stamp: this machine's boot, device, inode, size, modification and change time (ns), of
 * the file the path names now; undefined when it cannot be taken. The change time cannot be set by a
 * user (any write, rename into place, chmod or utimes moves it), so an unchanged stamp means unchanged
 * bytes, provided the file had not changed shortly before its bytes were checked (readPlanStamped).
 */
export function planStamp(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return st.isFile() ? stampOf(st) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A run's plan file, up to 64 MiB (limits.maxFileBytes' largest default), read through one descriptor,
 * with the stamp of the file read (never a stat of the path, which a renamed folder could point
 * elsewhere in between) when it may stand for these bytes: a local file system, unchanged while read,
 * and last changed at least 60 s before `fsNow` (ms, real clock). Timestamps are coarse (a write in the
 * same tick keeps them, as git's "racily clean" entries), and a page written through a shared mapping
 * takes more writes without a timestamp until it is written back (within 30 s by Linux's default dirty
 * expiry; never remembered where writeback is slower or off: writebackSettles). Undefined when the file
 * cannot be read.
 */
export function readPlanStamped(path: string, fsNow: number): { bytes: Uint8Array; stamp?: string } | undefined {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch {
    return undefined;
  }
  try {
    const before = fstatSync(fd, { bigint: true });
    const r = readOpenBounded(fd, 64 * 1024 * 1024);
    if (!r.ok) return undefined;
    const after = fstatSync(fd, { bigint: true });
    const stamp = stampOf(before);
    const settled = before.ctimeNs < BigInt(Math.floor(fsNow - SETTLED_MS)) * 1_000_000n && before.mtimeNs <= before.ctimeNs;
    if (stamp === undefined || !settled || stampOf(after) !== stamp || !localFs(fd) || !writebackOk()) return { bytes: r.bytes };
    return { bytes: r.bytes, stamp };
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Is the open file on a LOCAL_FS file system? Asked of the descriptor itself (its /proc link), not of a path. */
function localFs(fd: number): boolean {
  try {
    return LOCAL_FS.has(Number(statfsSync(`/proc/self/fd/${fd}`).type));
  } catch {
    return false;
  }
}

/** Where the parts of a state directory are. */
export function layout(root: string) {
  return {
    root,
    runs: join(root, "runs"),
    sessions: join(root, "sessions"),
    audit: join(root, "audit"),
    consumed: join(root, "consumed"),
    registry: join(root, "registry"),
    pending: join(root, "pending"),
  };
}

/**
 * Why another user could write or replace the state directory (its folder, the folders above it, or one
 * of its own folders), or undefined: every run, binding and consumed approval in it would be theirs to
 * forge (a run names the calls it allows and the key its audit lines are made under).
 */
export function stateDirTrustProblem(root: string): string | undefined {
  const problem = untrustedPlace(root, "the state directory");
  if (problem !== undefined) return problem;
  const l = layout(root);
  for (const d of [l.runs, l.sessions, l.audit, l.consumed, l.registry, l.pending]) {
    const p = untrustedPlace(d, "the folder", { ancestors: false });
    if (p !== undefined) return p;
  }
  return undefined;
}

export function ensureDirs(root: string): void {
  const l = layout(root);
  for (const d of [l.root, l.runs, l.sessions, l.audit, l.consumed]) mkdirSync(d, { recursive: true, mode: 0o700 });
}

/** The file name a session id is kept under: its SHA-256 (a session id is host input, never a path). */
export function sessionKey(session: string): string {
  return sha256Hex(session);
}

export function runFile(root: string, id: string): string {
  if (!RUN_ID.test(id)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "run", value: id }).message);
  return join(layout(root).runs, `${id}.json`);
}

/** Reads and checks a run; anything unexpected is a GuardStateError (the call is refused). */
export function readRun(root: string, id: string): RunState {
  const path = runFile(root, id);
  let v: Partial<RunState>;
  try {
    v = JSON.parse(readFileSync(path, "utf8")) as Partial<RunState>;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") throw new RunNotFoundError(guardFailure({ kind: "run-not-found", run: id, location: root }).message);
    throw new GuardStateError(guardFailure({ kind: "run-unreadable", path, code: code ?? (err as Error).message }).message);
  }
  const calls = (v as { calls?: unknown }).calls;
  if (!Number.isInteger(calls) || (calls as number) < 0) throw new GuardStateError(guardFailure({ kind: "not-a-run", path }).message);
  const run = { ...v, expected: lazyCalls(root, id, calls as number) } as Partial<RunState>;
  delete (run as { calls?: unknown }).calls;
  if (!isRun(run, id)) throw new GuardStateError(guardFailure({ kind: "not-a-run", path }).message);
  return run;
}

/*
 * The compiled calls are written once, at start, beside the run: runs/<id>.calls holds one call per line
 * (JSON), runs/<id>.calls.idx the byte offset of each line (4 bytes each, big-endian, and the end). A
 * decision reads the few calls it looks at, so it costs the same in a 10-step and a 1,000-step plan.
 */
function writeCalls(root: string, id: string, expected: readonly ExpectedCall[]): void {
  const lines = expected.map((e) => Buffer.from(JSON.stringify(e) + "\n", "utf8"));
  const idx = Buffer.alloc(4 * (lines.length + 1));
  let off = 0;
  lines.forEach((l, i) => {
    idx.writeUInt32BE(off, 4 * i);
    off += l.byteLength;
  });
  idx.writeUInt32BE(off, 4 * lines.length);
  const base = runFile(root, id).replace(/\.json$/, "");
  writeFileAtomic(`${base}.calls`, Buffer.concat(lines), 0o600);
  writeFileAtomic(`${base}.calls.idx`, idx, 0o600);
}

/** The run's compiled calls as a read-only array read on demand (each call checked when read). */
function lazyCalls(root: string, id: string, count: number): ExpectedCall[] {
  const base = runFile(root, id).replace(/\.json$/, "");
  const cache = new Map<number, ExpectedCall>();
  const read = (file: string, pos: number, len: number): Buffer => {
    const fd = openSync(file, "r");
    try {
      const buf = Buffer.alloc(len);
      let got = 0;
      while (got < len) {
        const n = readSync(fd, buf, got, len - got, pos + got);
        if (n === 0) throw new GuardStateError(guardFailure({ kind: "damaged-calls", file, problem: "short" }).message);
        got += n;
      }
      return buf;
    } finally {
      closeSync(fd);
    }
  };
  const load = (i: number): ExpectedCall => {
    const hit = cache.get(i);
    if (hit) return hit;
    const idx = read(`${base}.calls.idx`, 4 * i, 8);
    const from = idx.readUInt32BE(0);
    const to = idx.readUInt32BE(4);
    if (to <= from || to - from > 64 * 1024 * 1024) throw new GuardStateError(guardFailure({ kind: "damaged-calls", file: `${base}.calls.idx`, problem: "index" }).message);
    let e: unknown;
    try {
      e = JSON.parse(read(`${base}.calls`, from, to - from).toString("utf8"));
    } catch (err) {
      if (err instanceof GuardStateError) throw err;
      throw new GuardStateError(guardFailure({ kind: "damaged-calls", file: `${base}.calls`, problem: "json", call: i + 1 }).message);
    }
    if (!isExpected(e)) throw new GuardStateError(guardFailure({ kind: "damaged-calls", file: `${base}.calls`, problem: "not-a-call", call: i + 1 }).message);
    cache.set(i, e);
    return e;
  };
  return new Proxy([] as ExpectedCall[], {
    get(target, prop, receiver) {
      if (prop === "length") return count;
      if (typeof prop === "string" && /^(0|[1-9][0-9]*)$/.test(prop)) {
        const i = Number(prop);
        return i < count ? load(i) : undefined;
      }
      return Reflect.get(target, prop, receiver);
    },
    has(_target, prop) {
      return typeof prop === "string" && /^(0|[1-9][0-9]*)$/.test(prop) ? Number(prop) < count : prop === "length";
    },
    set() {
      throw new GuardStateError(guardFailure({ kind: "calls-read-only" }).message);
    },
  });
}

export function writeRun(root: string, run: RunState): void {
  // 0600: the run holds its audit key, which must stay secret from whoever can write the log. The
  // compiled calls are not rewritten (see writeCalls): only their count is kept here.
  const { expected, ...rest } = run;
  writeFileAtomic(runFile(root, run.run_id), JSON.stringify({ ...rest, calls: expected.length }, null, 2) + "\n", 0o600);
}

/** Every run in the directory, oldest first; unreadable files are returned as problems, not skipped silently. */
export function listRuns(root: string): { runs: RunState[]; problems: string[] } {
  let names: string[];
  try {
    names = readdirSync(layout(root).runs);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { runs: [], problems: [] };
    throw err;
  }
  const runs: RunState[] = [];
  const problems: string[] = [];
  for (const n of names.sort()) {
    const m = /^([0-9a-f]{32})\.json$/.exec(n);
    if (!m) continue;
    try {
      runs.push(readRun(root, m[1]!));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  runs.sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
  return { runs, problems };
}

/** The run a session is bound to, or undefined. A binding that cannot be read is an error (the call is refused). */
export function boundRun(root: string, session: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(layout(root).sessions, sessionKey(session)), "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new GuardStateError(guardFailure({ kind: "binding-unreadable", code: String((err as NodeJS.ErrnoException).code) }).message);
  }
  const id = text.trim();
  if (!RUN_ID.test(id)) throw new GuardStateError(guardFailure({ kind: "binding-not-a-run", key: sessionKey(session) }).message);
  return id;
}

/** Binds a session to a run by creating its binding exclusively; false when the session already has one. */
function bindSession(root: string, session: string, id: string): boolean {
  return writeNewFile(join(layout(root).sessions, sessionKey(session)), id + "\n");
}

/** A session whose run is stopped or complete may be given a new run explicitly (`guard start --session`). */
function rebindFinished(root: string, session: string, id: string): boolean {
  const old = boundRun(root, session);
  if (old === undefined) return bindSession(root, session, id);
  let status: RunStatus;
  try {
    status = readRun(root, old).status;
  } catch {
    return false;
  }
  if (status !== "stopped" && status !== "complete") return false;
  unbindSession(root, session, old);
  return bindSession(root, session, id);
}

/** Removes a binding, only if it still names `id` (a binding made by this process for a run it then lost). */
function unbindSession(root: string, session: string, id: string): void {
  if (boundRun(root, session) === id) unlinkSync(join(layout(root).sessions, sessionKey(session)));
}

/** The state directory's key for the MACs of no-run audit trails (created once, 0600). */
function dirKey(root: string): Uint8Array {
  const path = join(root, "audit.key");
  writeNewFile(path, randomBytes(32).toString("hex"));
  const hex = readFileSync(path, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new GuardStateError(guardFailure({ kind: "not-a-key", file: path }).message);
  return Buffer.from(hex, "hex");
}


/**
 * `guard repair`: a guard interrupted between its audit append and its state write leaves a trail
 * longer than the run's anchor. When every line past the anchor chains from it, is complete and carries
 * a valid MAC under the run's key for this run's plan and nonce, the lines prove the decisions: the
 * state is rolled forward (cursor, status, anchor). Anything else (a torn line, a bad MAC, a trail
 * shorter than the anchor or not chaining from it) cannot be trusted: the run is marked broken and
 * stopped, and the trail is left as it is, for inspection.
 */
async function repairFileRun(root: string, id: string, now: Date): Promise<RepairOutcome> {
  // A guard killed mid-decision also leaves its lock: removed when its process is gone.
  breakStaleLock(runFile(root, id));
  return withLock(runFile(root, id), async () => {
    const run = readRun(root, id);
    const key = Buffer.from(run.audit_key, "hex");
    let bytes: Buffer;
    try {
      bytes = readFileSync(run.audit);
    } catch (err) {
      return broken(root, run, now, `its audit trail cannot be read (${(err as NodeJS.ErrnoException).code})`);
    }
    const anchored = verifyAuditText(bytes.subarray(0, run.audit_bytes).toString("utf8"), { head: run.audit_head, key, from: run.audit_from });
    if (bytes.byteLength < run.audit_bytes || !anchored.ok) return broken(root, run, now, "its audit trail no longer holds the lines the run recorded (cut or edited)");
    if (bytes.byteLength === run.audit_bytes) return { action: "none", detail: "the audit trail ends where the run says: nothing to repair", run };
    const tail = bytes.subarray(run.audit_bytes).toString("utf8");
    if (!tail.endsWith("\n")) return broken(root, run, now, "its audit trail ends in a torn line (a guard was stopped while writing it)");
    const whole = verifyAuditText(bytes.toString("utf8"), { key, from: run.audit_from });
    if (!whole.ok) return broken(root, run, now, `the lines past the run's anchor do not verify: ${whole.diagnostics[0]?.message ?? ""}`);
    const lines = tail.slice(0, -1).split("\n").map((l) => JSON.parse(l) as AuditEntry);
    const next: RunState = { ...structuredClone({ ...run, expected: [] }), expected: run.expected };
    for (const e of lines) {
      if (e.plan_hash !== run.plan_hash || e.nonce !== run.nonce) return broken(root, run, now, `audit line ${e.seq + 1} is of another plan or approval`);
      if (e.event === "allow" || e.event === "ask") {
        if (!isCursor(e.cursor, run.expected.length) || e.cursor.index >= run.expected.length) return broken(root, run, now, `audit line ${e.seq + 1} records a step without a valid cursor`);
        next.progress = e.progress !== undefined && typeof e.progress === "object" && e.progress !== null ? (e.progress as Progress) : { cursor: e.cursor };
      } else if (e.event === "complete") next.status = "complete";
      else if (e.event === "stop") {
        next.status = "stopped";
        next.stop_reason = e.reason ?? "stopped";
      } else if (e.event === "claim") {
        if (typeof e.session !== "string" || (next.session_id !== null && next.session_id !== e.session)) return broken(root, run, now, `audit line ${e.seq + 1} claims the run for another session`);
        next.session_id = e.session;
        if (next.status === "pending") next.status = "active";
      } else if (e.event === "subagent-start" || e.event === "subagent-stop") {
        if (e.progress !== undefined && typeof e.progress === "object" && e.progress !== null) next.progress = e.progress as Progress;
      } else if (e.event !== "deny" && e.event !== "free") return broken(root, run, now, `audit line ${e.seq + 1} is an unexpected ${String(e.event)} entry`);
    }
    next.repaired_at = now.toISOString();
    next.audit_head = whole.head;
    next.audit_bytes = bytes.byteLength;
    if (next.status === "active" && progressDone(next.expected, next.progress) && isFinished(next.expected, next.progress.cursor)) {
      // The last step's line was written and the guard stopped before its `complete` line: the lines
      // prove the run is done, so repair writes that line (under the run's key) and completes the run.
      const audit = new AuditLog(run.audit, { head: whole.head, from: run.audit_from, bytes: bytes.byteLength }, key);
      audit.append({ ts: now.toISOString(), event: "complete", plan_hash: run.plan_hash, nonce: run.nonce, reason: guardDecision("auditRepairComplete") });
      const a = audit.anchor();
      next.audit_head = a.head;
      next.audit_bytes = a.bytes;
      next.status = "complete";
    }
    writeRun(root, next);
    return { action: "rolled-forward", detail: `${lines.length} audit line(s) past the run's anchor chain from it and carry valid MACs: applied (the trail now ends at line ${whole.head.count})`, run: next };
  });
}

function broken(root: string, run: RunState, now: Date, why: string): RepairOutcome {
  run.status = "stopped";
  run.repaired_at = now.toISOString();
  run.stop_reason = `broken: ${why}`;
  writeRun(root, run);
  return { action: "broken", detail: `${why}; the run is stopped (approve the plan again for a new run)`, run };
}

/** The store of a state directory (`file:DIR`): what the functions above do, behind the Store interface. */
export class FileStore implements Store {
  readonly kind = "file" as const;
  readonly location: string;
  #registry: FileSessionRegistry | undefined;
  #trusted = false;
  constructor(
    readonly root: string,
    /** Where consumed approvals are recorded (default DIR/consumed). */
    readonly consumedDir: string = layout(root).consumed,
    /** The session registry's folder (default DIR/registry). */
    readonly registryDir: string = layout(root).registry,
  ) {
    this.location = `file:${root}`;
  }
  async close(): Promise<void> {}

  /**
   * Refuses (GuardStateError) a state directory another user could write or replace, or a store of
   * consumed approvals elsewhere that they could: checked once per store object, before its first use.
   */
  trust(): void {
    if (this.#trusted) return;
    const problem =
      stateDirTrustProblem(this.root) ??
      (isInside(this.consumedDir, this.root) ? undefined : untrustedPlace(this.consumedDir, "the store of consumed approvals"));
    if (problem !== undefined) throw new GuardStateError(guardFailure({ kind: "untrusted-place", problem }).message);
    this.#trusted = true;
  }

  /** The plan is already a file of the state directory (written before it was checked): its path is the reference. */
  async keepPlan(file: string): Promise<string> {
    return file;
  }

  async consumeNonce(nonce: string, now: Date): Promise<boolean> {
    this.trust();
    return consumeNonce(this.consumedDir, nonce, now);
  }
  async isConsumed(nonce: string): Promise<boolean> {
    this.trust();
    return isConsumed(this.consumedDir, nonce);
  }

  /** The registry as the synchronous SessionRegistry check-delegation has always used. */
  registry(ttlSeconds?: number): FileSessionRegistry {
    this.trust();
    if (ttlSeconds !== undefined) return new FileSessionRegistry(this.registryDir, { ttlSeconds });
    return (this.#registry ??= new FileSessionRegistry(this.registryDir));
  }
  async lookupSession(id: string, now: Date): Promise<SessionEntry | undefined> {
    this.trust();
    return this.registry().lookup(id, now);
  }
  async registerSession(id: string, o: { now: Date; ttlSeconds: number; agent?: string }): Promise<RegisterOutcome> {
    this.trust();
    return this.registry().register(id, o);
  }
  async releaseSession(id: string): Promise<boolean> {
    this.trust();
    return this.registry().release(id);
  }
  async expireSessions(now: Date): Promise<number> {
    this.trust();
    return this.registry().expire(now);
  }

  holds(path: string): boolean {
    return isInside(path, this.root);
  }
  async createRun(n: NewRun): Promise<"created" | "consumed"> {
    this.trust();
    // The nonce was consumed and the trail opened by openApproved (consumed/, audit/): the run is written last.
    if (n.consume !== undefined && !consumeNonce(this.consumedDir, n.consume, n.now)) return "consumed";
    writeCalls(this.root, n.run.run_id, n.run.expected);
    writeRun(this.root, n.run);
    return "created";
  }
  async readRun(id: string): Promise<RunState> {
    this.trust();
    return readRun(this.root, id);
  }
  async listRuns(): Promise<{ runs: RunState[]; problems: string[] }> {
    this.trust();
    return listRuns(this.root);
  }
  async pendingRuns(): Promise<RunState[]> {
    this.trust();
    const { runs, problems } = listRuns(this.root);
    // A run that cannot be read may be the oldest pending run of the session's folder: claiming another would guess.
    if (problems.length > 0) throw new GuardStateError(guardFailure({ kind: "runs-unreadable", count: problems.length, problem: problems[0]! }).message);
    return runs.filter((r) => r.status === "pending" && r.session_id === null);
  }
  async boundRun(session: string): Promise<string | undefined> {
    this.trust();
    return boundRun(this.root, session);
  }
  async bindSession(session: string, id: string): Promise<boolean> {
    this.trust();
    ensureDirs(this.root);
    return bindSession(this.root, session, id);
  }
  async rebindFinished(session: string, id: string): Promise<boolean> {
    this.trust();
    return rebindFinished(this.root, session, id);
  }
  async unbindSession(session: string, id: string): Promise<void> {
    unbindSession(this.root, session, id);
  }
  async withRun<T>(id: string, fn: (tx: RunTx) => Promise<T>, o: WithRunOptions = {}): Promise<T> {
    this.trust();
    const root = this.root;
    return withLock(runFile(root, id), async () => {
      const run = readRun(root, id);
      let audit: AuditLog;
      try {
        // The hook checks only the trail's end (its size and last line): the same cost at step 1 and step 1,000.
        audit = new AuditLog(run.audit, { head: run.audit_head, from: run.audit_from, bytes: run.audit_bytes, tail: o.check !== "whole" }, Buffer.from(run.audit_key, "hex"));
      } catch (err) {
        if (err instanceof AuditError)
          throw new GuardStateError(guardFailure({ kind: "trail-end", run: id, error: err.message, then: trailAdvice(o, "repair") }).message);
        throw err;
      }
      const tx: RunTx = {
        run,
        append: async (e) => audit.append(e),
        save: async () => {
          const a = audit.anchor();
          run.audit_head = a.head;
          run.audit_bytes = a.bytes;
          writeRun(root, run);
        },
        unbindSession: async (session) => unbindSession(root, session, id),
        readPlan: async (fsNow) => readPlanStamped(run.plan, fsNow),
      };
      return fn(tx);
    });
  }
  async repairRun(id: string, now: Date): Promise<RepairOutcome> {
    this.trust();
    return repairFileRun(this.root, id, now);
  }
  async appendNoRun(key: string, entry: AuditInput): Promise<void> {
    this.trust();
    const root = this.root;
    ensureDirs(root);
    const path = join(layout(root).audit, `no-run-${key}.jsonl`);
    const dk = dirKey(root);
    await withLock(path, async () => {
      let audit: AuditLog;
      try {
        audit = new AuditLog(path, undefined, dk);
      } catch (err) {
        if (err instanceof AuditError) throw new GuardStateError(guardFailure({ kind: "trail-broken", error: err.message, noRunFile: path }).message);
        throw err;
      }
      audit.append(entry);
    });
  }
  async readAudit(id: string): Promise<AuditRead> {
    this.trust();
    const run = readRun(this.root, id);
    const r = readFileBounded(run.audit, 1 << 30);
    if (!r.ok) throw new GuardStateError(guardFailure({ kind: "trail-unreadable", path: run.audit, run: id, code: r.reason === "error" ? r.code : r.reason }).message);
    return { text: Buffer.from(r.bytes).toString("utf8"), head: run.audit_head, key: Buffer.from(run.audit_key, "hex"), from: run.audit_from };
  }

  async recordPending(p: PendingPlan): Promise<void> {
    this.trust();
    if (!/^[0-9a-f]{64}$/.test(p.id)) throw new GuardStateError(guardFailure({ kind: "not-an-id", what: "plan-hash", value: p.id }).message);
    const dir = layout(this.root).pending;
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, `${p.id}.json`), JSON.stringify(p.entry, null, 2) + "\n", 0o600);
  }
  async listPending(): Promise<PendingPlan[]> {
    this.trust();
    const dir = layout(this.root).pending;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT") return [];
      throw err;
    }
    const out: PendingPlan[] = [];
    for (const n of names.sort()) {
      const m = /^([0-9a-f]{64})\.json$/.exec(n);
      if (!m) continue;
      const r = readFileBounded(join(dir, n), 1 << 20);
      if (!r.ok) continue;
      try {
        out.push({ id: m[1]!, entry: JSON.parse(Buffer.from(r.bytes).toString("utf8")) as Record<string, unknown> });
      } catch {
        // Not JSON: not a pending plan (plan mode writes them whole, atomically).
      }
    }
    return out;
  }
}
