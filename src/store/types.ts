import type { AuditEntry, AuditHead } from "../node/audit.js";
import type { Progress } from "../approval/progress.js";
import type { ExpectedCall } from "../approval/match.js";
import type { HostProfile } from "../host/profile.js";
import type { RegisterOutcome, SessionEntry } from "../orchestration/registry.js";
import type { Policy } from "../core/policy.js";
import type { GuardFailureFacts } from "../core/input/approval.js";

/*
 * The shared state of plangate behind one interface: single-use approvals, the delegation session
 * registry, runs (with their session bindings and keyed audit trails) and pending plans. Two
 * implementations: `file:DIR` (src/store/file.ts, the state directory's files and locks) and
 * `postgres://…` (src/store/postgres.ts, rows, unique constraints and `SELECT … FOR UPDATE`), so agents
 * on several machines can share one store.
 */

export type RunStatus = "pending" | "active" | "stopped" | "complete";

/**
 * One run of one approved plan, bound to at most one session. In the file store `expected` is kept
 * apart (runs/<id>.calls) and the run file holds its length as `calls`.
 */
export interface RunState {
  version: 3;
  run_id: string;
  /** The host's session id (null while the run waits for a session to claim it). */
  session_id: string | null;
  status: RunStatus;
  /** Why the run was stopped (`guard stop`, or a repair that found the run broken). */
  stop_reason?: string;
  /** When `guard repair` last changed the run. */
  repaired_at?: string;
  created_at: string;
  plan: string;
  plan_hash: string;
  /** SHA-256 of the approved plan's bytes: the hook compares the file's bytes with it and never re-parses. */
  plan_raw_hash: string;
  nonce: string;
  /** The workspace the approval is scoped to; a session claims the run from a cwd inside it. */
  scope: string;
  host: { name: string; hash: string };
  /** The host profile the plan was approved for (its hash is `host.hash`): calls are read with it. */
  profile: HostProfile;
  expected: ExpectedCall[];
  progress: Progress;
  /** Tools whose calls need no step (the policy's guard.free and the host profile's free tools). */
  free: string[];
  /** Does an expected call hold a constraint that needs validation's readers (hasConstraints)? Then they are loaded to match calls. */
  constraints: boolean;
  /** Where the audit trail is: a file (file store) or `postgres:<run id>` (the store's audit table). */
  audit: string;
  audit_head: AuditHead;
  audit_key: string;
  audit_from: number;
  /** The trail's size in bytes after the last line (file store; 0 in a database, whose rows are the trail). */
  audit_bytes: number;
  max_input_bytes: number;
  expires_at?: string;
  /** The policy's command rules and protected paths, for the host's shell calls. */
  shell: { commands: { allow: string[]; deny: string[]; allowCompound: boolean; installOutside?: string[]; inlineCode?: string[] }; protected: string[] };
  /** The policy in force at start: each call's paths are checked under it. */
  policy: Policy;
  /**
   * The calls the guard allowed (an allow, an ask, a free call) whose PostToolUse has not come yet, oldest
   * first, at most MAX_ISSUED: the tool, the hash of its input as the guard decided on it, and the host's
   * tool_use_id when it gave one. A call that ran with another input stops the run.
   */
  issued?: IssuedCall[];
  /** The plan file's stamp when its bytes last checked out (planStamp): while the file keeps it, the bytes are not read again. */
  plan_checked?: string;
}

export const RUN_ID = /^[0-9a-f]{32}$/;

/** A call the guard allowed, as RunState.issued keeps it. */
export interface IssuedCall {
  tool: string;
  args_hash: string;
  /** The hook input's tool_use_id, if it had one. */
  id?: string;
}

/** An audit line before the store chains and signs it. */
export type AuditInput = Omit<AuditEntry, "seq" | "prev" | "mac">;

/**
 * A run's critical section: the run as read under its lock, appends to its audit trail, and the write
 * of its state. In the file store the lock is runs/<id>.json.lock and each append is flushed before the
 * state is written (`guard repair` finishes a section cut in between); in PostgreSQL the section is one
 * transaction holding the run's row (`FOR UPDATE`): the lines and the state commit together, or not at all.
 */
export interface RunTx {
  readonly run: RunState;
  append(entry: AuditInput): Promise<AuditEntry>;
  /** Writes the run as it now stands (its audit head included). */
  save(): Promise<void>;
  /** Removes the session's binding if it names this run (a session that lost the run it bound to). */
  unbindSession(session: string): Promise<void>;
  /**
   * The run's plan bytes (its file, or the store's copy), read in this section; undefined when missing.
   * A file's comes with the stamp of the file read when it may stand for these bytes (readPlanStamped;
   * `fsNow`: the real clock, ms).
   */
  readPlan(fsNow: number): Promise<{ bytes: Uint8Array; stamp?: string } | undefined>;
}

export interface WithRunOptions {
  /** `tail` (the hook): check only the trail's end; `whole` (`guard stop`): the whole trail. */
  check?: "tail" | "whole";
  /** `stop` (`guard stop`): when the trail does not end where the run says, the error says to repair the run first. */
  purpose?: "stop";
  /** What the error says to do when the trail does not end where the run says, in the caller's own words (instead of the guard's advice). */
  repairHint?: string;
}

/** What a guard advises when a run's audit trail does not end where the run says (GuardFailureFacts "trail-end"). */
export type TrailAdvice = Extract<GuardFailureFacts, { kind: "trail-end" }>["then"];

/** What a refusal advises when a run's trail does not end where the run says: the caller's words, repair before a stop, or `otherwise`. */
export function trailAdvice(o: WithRunOptions, otherwise: "repair" | "repair-to-stop"): TrailAdvice {
  if (o.repairHint !== undefined) return { hint: o.repairHint };
  return o.purpose === "stop" ? "repair-first" : otherwise;
}

/** A run to create, with what must happen with it as one unit. */
export interface NewRun {
  run: RunState;
  /** The approval's nonce to consume (single-use), in the same unit as the run (PostgreSQL). */
  consume?: string;
  /** The trail's first lines (the `open` line), already chained and signed under the run's key. */
  auditLines: string[];
  now: Date;
}

export type RepairOutcome = { action: "none" | "rolled-forward" | "broken"; detail: string; run: RunState };

/** A plan accepted in plan mode that waits for `plangate approve`. */
export interface PendingPlan {
  /** The plan's hash (hex), its key. */
  id: string;
  entry: Record<string, unknown>;
}

/** An audit trail and what anchors it, for `audit verify`. */
export interface AuditRead {
  text: string;
  head: AuditHead;
  key: Uint8Array;
  from: number;
}

export interface Store {
  readonly kind: "file" | "postgres";
  /** Where the store is, for messages (a database URL without its password). */
  readonly location: string;
  close(): Promise<void>;

  /** Records a nonce as used; false when it already was (atomic: of two racers exactly one wins). */
  consumeNonce(nonce: string, now: Date): Promise<boolean>;
  /** Unknown states count as consumed. */
  isConsumed(nonce: string): Promise<boolean>;

  /** The live (unexpired) registry entry for a session id. */
  lookupSession(id: string, now: Date): Promise<SessionEntry | undefined>;
  /** Registers a session id exclusively for ttlSeconds (an expired entry is taken over). */
  registerSession(id: string, o: { now: Date; ttlSeconds: number; agent?: string }): Promise<RegisterOutcome>;
  releaseSession(id: string): Promise<boolean>;
  /** Removes expired entries; how many. */
  expireSessions(now: Date): Promise<number>;

  /** Is `path` inside the store (a file store's directory), where a session must not work? */
  holds(path: string): boolean;
  /** Creates a run (and consumes its nonce); `consumed` when the nonce was already used. */
  createRun(n: NewRun): Promise<"created" | "consumed">;
  readRun(id: string): Promise<RunState>;
  listRuns(): Promise<{ runs: RunState[]; problems: string[] }>;
  /** Pending, unclaimed runs, oldest first. */
  pendingRuns(): Promise<RunState[]>;
  boundRun(session: string): Promise<string | undefined>;
  /** Binds a session to a run exclusively; false when the session already has one. */
  bindSession(session: string, id: string): Promise<boolean>;
  /** Binds a session whose run is stopped or complete to a new run; false otherwise. */
  rebindFinished(session: string, id: string): Promise<boolean>;
  unbindSession(session: string, id: string): Promise<void>;
  withRun<T>(id: string, fn: (tx: RunTx) => Promise<T>, o?: WithRunOptions): Promise<T>;
  repairRun(id: string, now: Date): Promise<RepairOutcome>;
  /** Appends to the audit trail of a session without a run (guard.noRun: allow-free), keyed by the store's key. */
  appendNoRun(sessionKey: string, entry: AuditInput): Promise<void>;
  /** A run's trail and its anchor, for `audit verify`. */
  readAudit(id: string): Promise<AuditRead>;

  recordPending(p: PendingPlan): Promise<void>;
  listPending(): Promise<PendingPlan[]>;

  /**
   * Keeps an approved plan's bytes where every reader of the store finds them (a file store: the file
   * itself, already in its plans/; a database: a row keyed by the bytes' SHA-256); returns the run's
   * `plan` reference. For plans that arrived as text (plan mode, POST /v1/runs), not workspace files.
   */
  keepPlan(file: string, bytes: Uint8Array, sha256: string): Promise<string>;
}

/** The `plan` reference of a plan kept in a database store. */
export const STORED_PLAN = /^postgres:plan\/([0-9a-f]{64})$/;
