/*
 * The input of "approval" rules. Verifying an approval reads a file, opens a DSSE envelope, verifies
 * signatures, checks a schema and resolves real paths: all of that is done before the rules run, and
 * what it found is one of these steps' facts. Each step is judged on its own, in this order, and a step
 * is only reached when the one before left something to check (a record that cannot be opened has no
 * bindings to compare), so the rules never see a half-read approval.
 */

/** Why an approval could not be opened. */
export type ApprovalUnreadable =
  /** The approval file could not be read (`code`: the error code). */
  | { readonly kind: "file"; readonly file: string; readonly code: string }
  /** It is not JSON without duplicate keys. */
  | { readonly kind: "json" }
  /** Its DSSE envelope is malformed (`problem` says how). */
  | { readonly kind: "envelope"; readonly problem: string };

/** What checking an envelope's signatures against the trusted keys found. */
export type SignatureFacts =
  /** The record names a signer algorithm other than Ed25519 (`alg`, as written). */
  | { readonly kind: "declared-algorithm"; readonly alg: unknown }
  /** The envelope carries no signature. */
  | { readonly kind: "no-signature" }
  /** No trusted keys were given. */
  | { readonly kind: "no-trusted-keys" }
  /** The trusted key the signature names is not an Ed25519 key. */
  | { readonly kind: "key-algorithm"; readonly keyid: string; readonly file: string; readonly alg: string }
  /** A trusted key was tried and the signature does not verify under it. */
  | { readonly kind: "does-not-verify" }
  /** No trusted key matches the signatures' key ids (`keyids`: each signature's, "" when it names none). */
  | { readonly kind: "unknown-signer"; readonly keyids: readonly string[] }
  /**
   * A trusted key verified the signature: its id and file, the key id the signed record names as its
   * signer (undefined: no signer field), and where the key file lies (KeyLocation).
   */
  | ({ readonly kind: "verified"; readonly keyid: string; readonly file: string; readonly declaredKeyid: unknown } & KeyLocation);

/** A project folder a key lies in (src/node/keys.ts's KeyFolder): why it is the project's, and whether it is the repository holding that folder. */
export interface KeyFolderFacts {
  readonly dir: string;
  /** It holds the policy file, it is the folder the command runs in, or it holds the plan. */
  readonly anchor: "policy" | "cwd" | "plan";
  readonly repository: boolean;
}

/**
 * Where a key file (trusted or signing) lies, and what else is known of it: the workspace it lies in, if
 * it does, else the repository holding the workspace (`project`) that it lies in, if it does; the
 * project folder it lies in (`folder`: the policy file's, the working folder, the plan's, or the
 * repository holding one), with the per-user key folder it also lies in (`userFolder`), and whether
 * another user owns it so that the current user cannot rewrite it (`foreign`); its link count
 * (`links`, when known); and where the policy named it (`namedAt`), if it did, and whether that policy
 * is the project's to edit (`namedByProject`).
 */
export interface KeyLocation {
  readonly workspace?: string;
  readonly project?: string;
  readonly folder?: KeyFolderFacts;
  readonly userFolder?: string;
  readonly foreign?: boolean;
  readonly links?: number;
  readonly namedAt?: { readonly file: string; readonly line: number; readonly column: number };
  /**
   * The policy file that named it is one whoever writes the project may edit (outside the per-user key
   * folders, writable by the current user): it could have named a key of theirs anywhere they can write.
   */
  readonly namedByProject?: boolean;
}

/** Step 1: the approval as read: could it be opened, and is it signed by a trusted key? */
export interface ApprovalEnvelopeInput {
  readonly step: "envelope";
  readonly unreadable?: ApprovalUnreadable;
  /** The signature check, for a DSSE envelope; absent for a bare record. */
  readonly signature?: SignatureFacts;
  /** Whether a bare (unsigned) record is accepted. */
  readonly allowUnsigned: boolean;
}

/** Step 2: the record: does it match the approval schema, and is it for the plan on disk? */
export interface ApprovalRecordInput {
  readonly step: "record";
  /** How the record fails the approval schema (`/path: message`, a few at most); empty when it matches. */
  readonly schemaErrors: readonly string[];
  /** For a record that matches: the hash it approves, and the plan's hash now (undefined: the plan cannot be read). */
  readonly plan?: { readonly approved: string; readonly now?: string };
}

/** What a record approved, as the conditions step compares it. */
export interface ApprovedConditions {
  readonly scope: string;
  readonly policyHash: string;
  readonly toolsHash: string | null;
  /** The host profile approved for (a record without one was approved for the generic host). */
  readonly host: { readonly name: string; readonly hash: string };
  readonly validatedAt: string;
  readonly expiresAt?: string;
  /** The record says it never expires, on purpose (`no_expiry`); with neither this nor expiresAt it predates both. */
  readonly noExpiry?: boolean;
  readonly nonce: string;
}

/** Step 3: the conditions the record was approved under, against those in force. */
export interface ApprovalConditionsInput {
  readonly step: "conditions";
  readonly approved: ApprovedConditions;
  /** The approved scope's real path, when the scope is an absolute path (undefined: it is not). */
  readonly scopeReal?: string;
  /** The workspace's real path. */
  readonly workspace: string;
  readonly policyHash: string;
  readonly toolsHash: string | null;
  /** The host profile in force. */
  readonly host: { readonly name: string; readonly hash: string };
  readonly now: Date;
  /** A single-use approval whose nonce was already used. */
  readonly consumed: boolean;
  /** The policy accepts a record that says no lifetime at all (`approval.acceptMissingExpiry`); default no. */
  readonly acceptMissingExpiry?: boolean;
}

/** Approving a plan with a signing key: where the key is (KeyLocation; `foreign` is not read: a private key is read, not written), and whether it could be loaded. */
export interface ApprovalSigningInput extends KeyLocation {
  readonly step: "signing";
  readonly key: string;
  /** Why the key could not be loaded, if it could not. */
  readonly keyError?: string;
}

/** How the plan on disk compares with the approved one when a guard looks again. */
export type GuardPlanFacts =
  /**
   * Before a library guard's step: whether the file could be read, whether its bytes changed so that it was
   * hashed again, and then its canonical hash (undefined: not readable as a plan) and the approved one.
   */
  | { readonly kind: "step"; readonly file: string; readonly readable: boolean; readonly rehashed: boolean; readonly hash?: string; readonly approved: string }
  /** Before a run's call: the raw hash of its bytes now (undefined: unreadable), and the approved raw hash. */
  | { readonly kind: "call"; readonly file: string; readonly raw?: string; readonly approved: string }
  /** While a run starts: the bytes given (or read again) are those that were checked. */
  | { readonly kind: "start"; readonly file: string; readonly source: "given" | "file"; readonly same: boolean };

/** What stops a guard from deciding at all: its setup, its run, its state or its input unusable. */
export type GuardFailureFacts =
  /** The host profile (named by the guard's options, or by the policy's `host:`) cannot be loaded. */
  | { readonly kind: "host-profile"; readonly from: "options" | "policy"; readonly error: string }
  /** One of the guard's own files lies inside the workspace. */
  | { readonly kind: "inside-workspace"; readonly file: "audit" | "consumed" | "state"; readonly path: string; readonly workspace: string }
  /** The validated plan has a step without a tool. */
  | { readonly kind: "step-without-tool" }
  /** The library guard was given an in-memory trail. */
  | { readonly kind: "audit-not-a-file" }
  /** The runs' state directory and the workspace overlap. */
  | { readonly kind: "state-dir-overlaps"; readonly root: string; readonly workspace: string }
  /**
   * `guard start` with no per-user store of consumed approvals (neither HOME nor XDG_STATE_HOME is set) and
   * none named ($PLANGATE_CONSUMED_DIR, --consumed-dir): replay protection would rest on whatever state
   * directory or store the start names.
   */
  | { readonly kind: "no-consumed-store" }
  /** A guard state file that already exists. */
  | { readonly kind: "state-exists"; readonly path: string }
  /**
   * A place of the guard's own state (the state directory, a folder of it, the store of consumed
   * approvals, a state file) that another user could write or replace (`problem`: which, and how).
   */
  | { readonly kind: "untrusted-place"; readonly problem: string }
  /**
   * A session with no run would claim a pending run, but some runs of the state directory cannot be read
   * (`count`; `problem`: the first one's): one of them may be the session's, so claiming another would guess.
   */
  | { readonly kind: "runs-unreadable"; readonly count: number; readonly problem: string }
  /** The session named for a new run already has one (`run`: its id, if still known). */
  | { readonly kind: "session-bound"; readonly session: string; readonly run: string | undefined }
  /** A hook input without a session id: a tool call's, or a subagent event's (`event`). */
  | { readonly kind: "no-session"; readonly event?: string }
  /** The session works inside the state directory. */
  | { readonly kind: "cwd-in-state-dir"; readonly cwd: string; readonly root: string }
  /** The session's binding to a run disappeared while it was made. */
  | { readonly kind: "binding-vanished" }
  /** Two pending runs for the session's folder were started at the same moment. */
  | { readonly kind: "same-time"; readonly runs: readonly [string, string]; readonly cwd: string }
  /** The run bound to the session is finished or stopped and was never claimed. */
  | { readonly kind: "never-claimed"; readonly run: string; readonly status: string }
  /** Another session claimed the run at the same moment. */
  | { readonly kind: "claimed-by-other"; readonly run: string }
  /** The run was stopped (`reason`: as given to the stop, if any). */
  | { readonly kind: "stopped"; readonly run: string; readonly reason?: string }
  /**
   * A tool call ran (PostToolUse, PostToolUseFailure) that is not one the guard allowed in the run: its
   * input is not what the guard decided on (another hook rewrote it, `updatedInput`), or the guard never
   * saw it. The run is stopped.
   */
  | { readonly kind: "ran-unallowed"; readonly run: string; readonly tool: string; readonly event: string }
  /** A step that asks the person to confirm it, answered by exit code (which cannot ask). */
  | { readonly kind: "cannot-ask"; readonly step: number }
  /** The session has no run (`why`: as the guard found it); `ask`: guard.noRun is ask, answered by exit code. */
  | { readonly kind: "no-run"; readonly why: string; readonly ask: boolean }
  /**
   * The run's stored progress cannot be trusted (`damage`: what is wrong with it), so a call or a
   * subagent's start or stop (`agent`: its name as the guard gives it) cannot be placed in the plan.
   */
  | { readonly kind: "progress-damaged"; readonly damage: string; readonly event: { readonly call: string } | { readonly start: string } | { readonly stop: string } }
  /** A hook input the guard cannot decide on: what is wrong with it (below). */
  | { readonly kind: "hook-input"; readonly problem: HookInputProblem }
  /** The hook's `--timeout` is not a positive whole number of milliseconds (`value`: as given). */
  | { readonly kind: "bad-timeout"; readonly value: string }
  /** No decision was reached within `ms` milliseconds. */
  | { readonly kind: "timeout"; readonly ms: number }
  /**
   * The host was already answered (a deny: no decision within the hook's timeout) when the decision
   * came to take the call: it takes nothing, so the run never records a call the host was told not to run.
   */
  | { readonly kind: "answered" }
  /**
   * Plan mode's PostToolUse on ExitPlanMode that is no acceptance by the person: the call was a
   * subagent's (`agent`: the hook input's agent_id), the host reports it as made in an agent or awaiting
   * a team lead's approval, or the plan the host reports as accepted is not the one the hook was shown.
   */
  | { readonly kind: "plan-not-accepted"; readonly why: "agent" | "response-agent" | "leader" | "other-plan"; readonly agent?: string }
  /** A hook event the guard decides nothing for (`event`: its name); a PermissionRequest names its tool, if any. */
  | { readonly kind: "other-event"; readonly event: string; readonly tool?: string }
  // The guard's own state and its store: a file or a row it cannot use (the call is refused).
  /** A guard state file that cannot be read (`code`: the error code, or the error's own words without one; "ENOENT": it does not exist). */
  | { readonly kind: "state-unreadable"; readonly path: string; readonly code: string }
  /** A guard state file that is not a plangate guard state. */
  | { readonly kind: "not-a-state"; readonly path: string }
  /** A guard state written by plangate 0.1, without an audit key. */
  | { readonly kind: "keyless-state"; readonly path: string }
  /** The guard state's lock file is held (`lock`: its path). */
  | { readonly kind: "locked"; readonly lock: string }
  /** An identifier given to the guard or its store that is not of its form (`value`: as given). */
  | { readonly kind: "not-an-id"; readonly what: "run" | "nonce" | "plan-hash"; readonly value: string }
  /** The store has no such run (`location`: the store, as it names itself). */
  | { readonly kind: "run-not-found"; readonly run: string; readonly location: string }
  /** The session has no run in the store. */
  | { readonly kind: "session-without-run"; readonly session: string; readonly location: string }
  /** A run file that cannot be read (`code`: as for a state). */
  | { readonly kind: "run-unreadable"; readonly path: string; readonly code: string }
  /** A run file that is not a plangate run. */
  | { readonly kind: "not-a-run"; readonly path: string }
  /** A run's row in a database store that is not JSON, holds calls that are not compiled calls, or is not a plangate run. */
  | { readonly kind: "bad-run-row"; readonly run: string; readonly location: string; readonly problem: "json" | "calls" | "run" }
  /**
   * A run's compiled calls (a file store keeps them beside the run: `file`, the calls file or its index) that
   * cannot be used: the calls file is shorter than its index, the index is damaged, or call `call` (1-based)
   * is not JSON or not a compiled call.
   */
  | { readonly kind: "damaged-calls"; readonly file: string; readonly problem: "short" | "index" }
  | { readonly kind: "damaged-calls"; readonly file: string; readonly problem: "json" | "not-a-call"; readonly call: number }
  /** Code tried to change a run's compiled calls, which are read-only. */
  | { readonly kind: "calls-read-only" }
  /** The session's binding cannot be read (`code`: the error code). */
  | { readonly kind: "binding-unreadable"; readonly code: string }
  /** The session's binding (`key`: the session's key) does not name a run. */
  | { readonly kind: "binding-not-a-run"; readonly key: string }
  /** The key of the no-run audit trails is not a key: a file store's file, or a database store's (`location`). */
  | { readonly kind: "not-a-key"; readonly file: string }
  | { readonly kind: "not-a-key"; readonly location: string }
  /** An audit trail that cannot be appended to (`error`: what the trail check found); `noRunFile`: the file of a trail of calls without a run. */
  | { readonly kind: "trail-broken"; readonly error: string; readonly noRunFile?: string }
  /**
   * A run's audit trail that does not end where the run says. `error`: what the check found, when the whole
   * trail or a file's end was checked (absent: a database store's last row differs, changed outside the
   * guard). `then`: what to do, as the guard advises it (`repair`: repair after an interrupted guard;
   * `repair-to-stop`: repair to stop the run; `repair-first`: repair before stopping it), or the caller's own
   * words (`hint`).
   */
  | { readonly kind: "trail-end"; readonly run: string; readonly error?: string; readonly then: "repair" | "repair-to-stop" | "repair-first" | { readonly hint: string } }
  /** A run's audit trail that cannot be read (`code`: the error code, or why). */
  | { readonly kind: "trail-unreadable"; readonly path: string; readonly run: string; readonly code: string }
  /** Plan bytes given to a store that do not match the SHA-256 given with them. */
  | { readonly kind: "plan-bytes-hash" }
  /** The folder the state directory keeps plans sent as text in is not a folder. */
  | { readonly kind: "kept-plans-not-a-folder"; readonly dir: string }
  /** A consumed-approval folder given with a store that records consumed approvals itself (`location`). */
  | { readonly kind: "consumed-dir-with-store"; readonly location: string }
  /**
   * A database store that cannot be reached or used (`code`: the database's error code, "" without one;
   * `error`: its message): every call that needs it is denied.
   */
  | { readonly kind: "store-unavailable"; readonly location: string; readonly code: string; readonly error: string };

/** What is wrong with a hook input that was read as JSON (`key`: the member, `value`: what it holds, as given). */
export type HookInputProblem =
  | { readonly kind: "not-object" }
  | { readonly kind: "not-string"; readonly key: string }
  | { readonly kind: "not-event-name"; readonly value: string }
  | { readonly kind: "relative-cwd"; readonly value: string }
  | { readonly kind: "no-tool-name" }
  | { readonly kind: "tool-input-not-object" };

/** An agent as a subagent event names it: its id (null: none given) and its type, if given. */
export interface GuardAgent {
  readonly agentId: string | null;
  readonly agentType?: string;
}

/** A call as the guard compares it: the tool and its arguments (identity keys under a host profile). */
export interface GuardCall {
  readonly tool: string;
  readonly arguments: unknown;
}

/**
 * A call, or a subagent's start or stop, that is not where the approved plan is. `subagentOf`: the call
 * was matched against the nested steps of that (1-based) step's subagent.
 */
export type GuardStepFacts =
  /** A call after the last of the `steps` approved steps (`call`: the call, when it is shown). */
  | { readonly kind: "after-last"; readonly steps: number; readonly tool: string; readonly call?: GuardCall; readonly subagentOf?: number }
  /**
   * A call that is not the approved step `step`: another tool, or other arguments (`differing`: the keys
   * that differ, each value clipped; absent: the canonical arguments differ as a whole). `later`: the
   * later step the call is, if it is one; `skipped`: the optional steps it did not match either.
   */
  | {
      readonly kind: "other-call";
      readonly step: number;
      readonly expected: GuardCall;
      readonly actual: GuardCall;
      readonly differing?: readonly { readonly key: string; readonly expected: unknown; readonly actual: unknown }[];
      readonly later?: number;
      readonly skipped?: { readonly from: number; readonly to: number };
      readonly subagentOf?: number;
    }
  /** Step `step` creates `path` (a CREATE without Overwrite), and it exists now. */
  | { readonly kind: "target-exists"; readonly step: number; readonly path: string; readonly tool: string }
  /** A call from a subagent that started outside the approved steps. */
  | { readonly kind: "stray-call"; readonly tool: string; readonly agentId: string }
  /** A call from an agent that is not the running subagent (`running`: the one that runs, and its step). */
  | { readonly kind: "other-agent-call"; readonly tool: string; readonly agentId: string; readonly running?: { readonly agentId: string | null; readonly step: number } }
  /** A call without an agent id while stray subagents run (`strays`: their ids; "overflow": too many to list). */
  | { readonly kind: "untagged-call"; readonly tool: string; readonly strays: readonly (string | null)[] | "overflow" }
  /** A call of the main agent while the subagent of step `step` runs. */
  | { readonly kind: "subagent-running"; readonly tool: string; readonly step: number }
  /**
   * A call while step `step` (a Task/Agent call of `stepTool`) is open: its subagent stopped before its
   * nested steps `missing` ran, or (missing absent) has not started.
   */
  | { readonly kind: "step-open"; readonly tool: string; readonly step: number; readonly stepTool: string; readonly missing?: readonly number[] }
  /** A subagent's call where its step approves no nested calls. */
  | { readonly kind: "no-nested-steps"; readonly tool: string; readonly step: number }
  /** A subagent reported started again: the running one (`step`: its step), or a stray one. */
  | { readonly kind: "started-again"; readonly agent: GuardAgent; readonly step?: number }
  /** A subagent started while the subagent of step `step` runs. */
  | { readonly kind: "started-while-running"; readonly agent: GuardAgent; readonly step: number }
  /** A subagent started while step `step` is open, with no call allowed to start it. */
  | { readonly kind: "started-step-open"; readonly agent: GuardAgent; readonly step: number; readonly stepTool: string }
  /** A subagent of another type than step `step` approves. */
  | { readonly kind: "agent-type"; readonly agent: GuardAgent; readonly step: number; readonly approved: unknown }
  /** A subagent started with no Task/Agent call allowed to start it (`at`: the step the plan is at, if any). */
  | { readonly kind: "started-unlaunched"; readonly agent: GuardAgent; readonly at?: number }
  /** A subagent, unannounced, that no next Task/Agent step fits: why. */
  | {
      readonly kind: "no-task-step";
      readonly agent: GuardAgent;
      readonly why:
        | { readonly kind: "type"; readonly step: number; readonly approved: unknown }
        | { readonly kind: "other-step"; readonly step: number; readonly tool: string }
        | { readonly kind: "done" };
    }
  /** A subagent stopped that is not the running one (`running`: the one that runs, if any). */
  | { readonly kind: "stop-not-running"; readonly agent: GuardAgent; readonly running?: GuardAgent }
  /** The subagent of step `step` (a call of `stepTool`) stopped before its nested steps `missing` ran. */
  | { readonly kind: "stopped-early"; readonly step: number; readonly stepTool: string; readonly missing: readonly number[] };

/** A guard's checks of an approved plan, at the start of a run and before each step or call. */
export interface ApprovalGuardInput {
  readonly step: "guard";
  /** What stops the guard from deciding, if anything does. */
  readonly failure?: GuardFailureFacts;
  /** A call or subagent event that is not where the approved plan is, if it is not. */
  readonly mismatch?: GuardStepFacts;
  readonly plan?: GuardPlanFacts;
  /** The approval's expiry, and the step it would stop (undefined: a run's next call). */
  readonly expiry?: { readonly expiresAt: string; readonly now: Date; readonly step?: number };
  /** A single-use approval found used: its nonce, and the folder that recorded it, if named. */
  readonly consumed?: { readonly nonce: string; readonly recordedIn?: string };
}

/** One line of an audit trail, as read: is it a JSON object, its chain members, and its MAC. */
export interface AuditLineFacts {
  /** 1-based. */
  readonly line: number;
  /** The line is a JSON object (the other members are read from it). */
  readonly object: boolean;
  readonly seq?: unknown;
  readonly prev?: unknown;
  /** The hash of the line before (null for the first line): what `prev` must be. */
  readonly prevHash: string | null;
  /** Its MAC under the run's key: not checked (no key, or a line before the run), absent, valid or invalid. */
  readonly mac: "unchecked" | "absent" | "valid" | "invalid";
}

/** Where an audit trail ends: its line count and the hash of its last line. */
export interface AuditHeadFacts {
  readonly count: number;
  readonly hash: string | null;
}

/** Why a trail file could not be read. */
export type TrailUnreadable =
  | { readonly kind: "error"; readonly code: string }
  | { readonly kind: "not-a-file"; readonly what: string }
  | { readonly kind: "too-large"; readonly max: number };

/** How a trail file differs from the size and last line the guard recorded. */
export type TrailTampering =
  | { readonly kind: "unreadable"; readonly code: string }
  | { readonly kind: "not-a-file"; readonly what?: string }
  | { readonly kind: "size"; readonly size: number }
  | { readonly kind: "larger" }
  /** The guard wrote no line, and the file has some. */
  | { readonly kind: "extra-lines" }
  | { readonly kind: "ended-while-read" }
  | { readonly kind: "partial-line" }
  | { readonly kind: "other-last-line" }
  | { readonly kind: "last-sequence" }
  | { readonly kind: "last-mac" };

/**
 * An audit trail: the guard's append-only, hash-chained record of its decisions. Judged as part of an
 * approval's enforcement: the trail is the evidence of what the approval let run.
 */
export interface ApprovalAuditInput {
  readonly step: "audit";
  /** The trail as named. */
  readonly file?: string;
  /** Why the trail could not be read at all, if it could not. */
  readonly unreadable?: TrailUnreadable;
  /**
   * How the file differs from what the guard recorded of it (its size, and its head when the last line was
   * compared): the guard refuses to append to it.
   */
  readonly tampered?: { readonly found: TrailTampering; readonly bytes: number; readonly head?: AuditHeadFacts };
  /** The trail's lines, when it was read. */
  readonly lines?: readonly AuditLineFacts[];
  /** The number of the last line when it is not terminated by a newline. */
  readonly unterminated?: number;
  readonly head?: AuditHeadFacts;
  /** The head the guard's state records, if known. */
  readonly anchoredHead?: AuditHeadFacts;
  /** The 0-based line the run starts at, when its key is known (its lines carry MACs from there). */
  readonly from?: number;
  /**
   * An intact chain whose MACs could not be checked, and that is not accepted on the chain alone: whether a
   * state was given, and the state file when it holds no key (written by plangate 0.1).
   */
  readonly unauthenticated?: { readonly stateGiven: boolean; readonly keylessState?: string };
}

/** The input of "approval" rules: one step of verifying or enforcing an approval. */
export type ApprovalInput = ApprovalEnvelopeInput | ApprovalRecordInput | ApprovalConditionsInput | ApprovalSigningInput | ApprovalGuardInput | ApprovalAuditInput;
