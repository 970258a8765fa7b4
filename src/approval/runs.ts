import { decideProgress, type Progress, progressDone, subagentStart, subagentStop, TASK_TOOLS } from "./progress.js";
import { randomBytes } from "node:crypto";
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, unlinkSync, writeSync } from "node:fs";
import { join } from "node:path";
import { sha256Hex } from "../core/canonical/jcs.js";
import { defaultValueContexts } from "../core/constraints.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { callIdentity, contextFor, hasConstraints, type HostProfile, outsideScopeDiagnostic, profileHash } from "../host/profile.js";
import { writeFileAtomic } from "../node/atomic-write.js";
import { DEFAULT_MAX_INPUT_BYTES, defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../policy/types.js";
import { AuditError, type AuditEntry, type AuditHead, AuditLog, verifyAuditText } from "./audit.js";
import { callPathProblem } from "./call-paths.js";
import { argsHash, type GuardOptions, GuardRefusal, hostPolicyOf, openApproved, readPlanBytes } from "./guard.js";
import { hostCommandRefusal } from "./host-command.js";
import { isInside } from "./keys.js";
import { type ContextFor, type Cursor, type ExpectedCall, START } from "./match.js";
import { approvalDiagnostic as fail } from "./record.js";
import { breakStaleLock, consumeNonce, GuardStateError, withLock } from "./state.js";

/*
 * Runs per session. A state directory holds:
 *   runs/<run-id>.json       one run: the approved plan's compiled calls and where the run stands (0600)
 *   sessions/<session-key>   the run a session is bound to; created exclusively, so a session has one run
 *   audit/<run-id>.jsonl     the run's keyed audit trail (audit/no-run-<session-key>.jsonl: free calls of
 *                            sessions without a run)
 *   consumed/<nonce>         consumed single-use approvals
 * A session key is the SHA-256 of the host's session id: a session id is never used as a file name.
 */

export type RunStatus = "pending" | "active" | "stopped" | "complete";

/**
 * One run of one approved plan, bound to at most one session. On disk `expected` is kept apart (see
 * writeCalls) and the run file holds its length as `calls`.
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
  /** Does an expected call hold a constraint? Then calls are matched with validation's readers (shell parser, JSON Schema). */
  constraints: boolean;
  audit: string;
  audit_head: AuditHead;
  audit_key: string;
  audit_from: number;
  audit_bytes: number;
  max_input_bytes: number;
  expires_at?: string;
  /** The policy's command rules and protected paths, for the host's shell calls. */
  shell: { commands: { allow: string[]; deny: string[]; allowCompound: boolean }; protected: string[] };
  /** The policy in force at start: each call's paths are checked under it. */
  policy: Policy;
}

export const RUN_ID = /^[0-9a-f]{32}$/;

/** Where the parts of a state directory are. */
export function layout(root: string) {
  return { root, runs: join(root, "runs"), sessions: join(root, "sessions"), audit: join(root, "audit"), consumed: join(root, "consumed") };
}

function ensureDirs(root: string): void {
  const l = layout(root);
  for (const d of [l.root, l.runs, l.sessions, l.audit, l.consumed]) mkdirSync(d, { recursive: true, mode: 0o700 });
}

/** The file name a session id is kept under: its SHA-256 (a session id is host input, never a path). */
export function sessionKey(session: string): string {
  return sha256Hex(session);
}

export function runFile(root: string, id: string): string {
  if (!RUN_ID.test(id)) throw new GuardStateError(`not a run id: ${JSON.stringify(id.slice(0, 80))} (32 hex digits, as \`plangate guard status\` lists them)`);
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
    throw new GuardStateError(code === "ENOENT" ? `the run ${id} does not exist in ${root}` : `the run ${path} cannot be read (${code ?? (err as Error).message})`);
  }
  const calls = (v as { calls?: unknown }).calls;
  if (!Number.isInteger(calls) || (calls as number) < 0) throw new GuardStateError(`the run file ${path} is not a plangate run`);
  const run = { ...v, expected: lazyCalls(root, id, calls as number) } as Partial<RunState>;
  delete (run as { calls?: unknown }).calls;
  if (!isRun(run, id)) throw new GuardStateError(`the run file ${path} is not a plangate run`);
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
        if (n === 0) throw new GuardStateError(`the run's calls file ${file} is shorter than its index`);
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
    if (to <= from || to - from > 64 * 1024 * 1024) throw new GuardStateError(`the run's calls index ${base}.calls.idx is damaged`);
    let e: unknown;
    try {
      e = JSON.parse(read(`${base}.calls`, from, to - from).toString("utf8"));
    } catch (err) {
      if (err instanceof GuardStateError) throw err;
      throw new GuardStateError(`the run's call ${i + 1} in ${base}.calls is not JSON`);
    }
    if (!isExpected(e)) throw new GuardStateError(`the run's call ${i + 1} in ${base}.calls is not a compiled call`);
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
      throw new GuardStateError("a run's compiled calls are read-only");
    },
  });
}

function isCursor(c: unknown, n: number): c is Cursor {
  const o = c as Cursor;
  return typeof o === "object" && o !== null && Number.isInteger(o.index) && Number.isInteger(o.count) && o.index >= 0 && o.index <= n && o.count >= 0;
}

function isExpected(e: unknown): e is ExpectedCall {
  const o = e as ExpectedCall;
  return (
    typeof o === "object" && o !== null && Number.isInteger(o.step) && typeof o.tool === "string" && typeof o.args === "object" && o.args !== null && !Array.isArray(o.args) &&
    Number.isInteger(o.repeat) && o.repeat >= 1 && typeof o.optional === "boolean" && typeof o.confirm === "boolean"
  );
}

function isRun(v: Partial<RunState>, id: string): v is RunState {
  return (
    typeof v === "object" && v !== null && v.version === 3 && v.run_id === id &&
    (v.session_id === null || typeof v.session_id === "string") &&
    ["pending", "active", "stopped", "complete"].includes(v.status as string) &&
    typeof v.plan === "string" && typeof v.plan_hash === "string" && typeof v.plan_raw_hash === "string" && typeof v.nonce === "string" &&
    typeof v.scope === "string" && typeof v.audit === "string" && typeof v.created_at === "string" &&
    Array.isArray(v.expected) && typeof v.progress === "object" && v.progress !== null && isCursor(v.progress.cursor, v.expected.length) &&
    Array.isArray(v.free) && v.free.every((t) => typeof t === "string") &&
    typeof v.audit_head === "object" && v.audit_head !== null && Number.isInteger(v.audit_head.count) && (v.audit_head.hash === null || typeof v.audit_head.hash === "string") &&
    typeof v.audit_key === "string" && /^[0-9a-f]{64}$/.test(v.audit_key) && Number.isInteger(v.audit_from) && Number.isInteger(v.audit_bytes) && (v.audit_bytes as number) >= 0 &&
    Number.isInteger(v.max_input_bytes) && (v.max_input_bytes as number) > 0 &&
    typeof v.shell === "object" && v.shell !== null && typeof v.policy === "object" && v.policy !== null &&
    typeof v.host === "object" && v.host !== null && typeof v.profile === "object" && v.profile !== null && profileHash(v.profile) === v.host.hash
  );
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
    throw new GuardStateError(`the session binding cannot be read (${(err as NodeJS.ErrnoException).code})`);
  }
  const id = text.trim();
  if (!RUN_ID.test(id)) throw new GuardStateError(`the session binding ${sessionKey(session)} does not name a run`);
  return id;
}

/** Binds a session to a run by creating its binding exclusively; false when the session already has one. */
function bindSession(root: string, session: string, id: string): boolean {
  const path = join(layout(root).sessions, sessionKey(session));
  let fd: number;
  try {
    fd = openSync(path, "wx", 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  }
  try {
    writeSync(fd, id + "\n");
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return true;
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

/** A state directory inside the workspace could be rewritten by the plan's own steps. */
export function stateDirProblem(root: string, workspace: string): string | undefined {
  if (isInside(root, workspace) || isInside(workspace, root))
    return `the state directory ${root} and the workspace ${workspace} overlap, so the plan's steps could rewrite the guard's runs; keep the state directory outside the workspace`;
  return undefined;
}

export interface StartRunOptions extends Omit<GuardOptions, "audit" | "consumedDir"> {
  /** Bind the run to this session now (else the first hook call of a session in scope claims it). */
  session?: string;
  /** Override of the consumed-approval store (default: the state directory's consumed/). */
  consumedDir?: string;
  /**
   * Another store of consumed approvals (the per-user one): a single-use approval is recorded there
   * too, so one consumed by a run in another state directory, or by the deprecated single-file guard,
   * cannot start a run here.
   */
  alsoConsumedIn?: string;
}

/** `guard start`: verifies and consumes the approval, then writes a new run (pending, or bound to `session`). */
export async function startRun(root: string, o: StartRunOptions): Promise<RunState> {
  const problem = stateDirProblem(root, o.workspace);
  if (problem) throw new GuardRefusal([fail("guard-failure", problem.charAt(0).toUpperCase() + problem.slice(1) + ".", "pass --state-dir DIR outside the workspace")]);
  ensureDirs(root);
  const l = layout(root);
  const id = randomBytes(16).toString("hex");
  if (o.session !== undefined && !bindSession(root, o.session, id) && !rebindFinished(root, o.session, id))
    throw new GuardRefusal([fail("guard-failure", `The session ${JSON.stringify(o.session)} already has a run (${boundRun(root, o.session)}).`, "stop it first with `plangate guard stop --session ID`, or start the run without --session")]);
  try {
    const auditKey = o.auditKey ?? randomBytes(32);
    const opened = await openApproved({ ...o, auditKey, audit: join(l.audit, `${id}.jsonl`), consumedDir: o.consumedDir ?? l.consumed });
    const { plan, record, audit } = opened;
    const now = opened.now();
    if (record.single_use && o.alsoConsumedIn !== undefined && !consumeNonce(o.alsoConsumedIn, record.nonce, now))
      throw new GuardRefusal([fail("approval-consumed", `The approval ${record.nonce} was already used (recorded in ${o.alsoConsumedIn}); it is single-use.`, "approve the plan again to run it again")]);
    const anchor = audit.anchor();
    const policy = o.policy ?? defaultPolicy(o.workspace);
    const host = hostPolicyOf(policy, o.workspace);
    const run: RunState = {
      version: 3,
      run_id: id,
      session_id: o.session ?? null,
      status: o.session !== undefined ? "active" : "pending",
      created_at: now.toISOString(),
      plan: plan.file,
      plan_hash: plan.planHash,
      plan_raw_hash: "sha256:" + plan.rawHash,
      nonce: record.nonce,
      scope: o.workspace,
      host: { name: opened.profile.name, hash: profileHash(opened.profile) },
      profile: opened.profile,
      expected: opened.expected,
      progress: { cursor: { ...START } },
      free: [...new Set([...opened.profile.free, ...policy.guard.free])],
      constraints: hasConstraints(opened.expected),
      audit: audit.path,
      audit_head: anchor.head,
      audit_key: anchor.key,
      audit_from: anchor.from,
      audit_bytes: anchor.bytes,
      max_input_bytes: policy.guard.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
      shell: { commands: { allow: [...host.commands.allow], deny: [...host.commands.deny], allowCompound: host.commands.allowCompound === true }, protected: [...host.protected] },
      policy,
    };
    if (record.expires_at !== undefined) run.expires_at = record.expires_at;
    writeCalls(root, id, run.expected);
    writeRun(root, run);
    return run;
  } catch (err) {
    if (o.session !== undefined) unbindSession(root, o.session, id);
    throw err;
  }
}

/** What the hook answers. `ask` lets the person decide (Claude Code's permission prompt). */
export interface Answer {
  decision: "allow" | "deny" | "ask";
  /** The reason shown (to the model on deny, to the person on ask). */
  reason: string;
  rule?: string;
  run?: string;
}

/** What the hook needs besides the input. */
export interface HookContext {
  now: Date;
  /** `exit`: a step that needs confirmation cannot be asked for, so it is denied (not taken). */
  mode: "exit" | "claude";
  /** The policy for sessions with no run (noRun, free, the workspace free calls are checked in); loaded only when needed. */
  noRunPolicy: () => Promise<Policy>;
}

/** The part of a hook input a tool call decision reads. */
export interface HookCallInput {
  session: string | undefined;
  cwd: string | undefined;
  tool: string;
  args: Record<string, unknown>;
  /** The input's size in bytes: more than the run's guard.maxInputBytes (recorded at start) is refused. */
  bytes?: number;
  /** The hook input's `agent_id`: present when the call comes from a subagent (newer hosts). */
  agentId?: string;
}

function denial(d: Diagnostic, run?: string): Answer {
  const a: Answer = { decision: "deny", reason: `${d.message}${d.hint ? ` (${d.hint})` : ""}`, rule: d.rule };
  if (run !== undefined) a.run = run;
  return a;
}

/** A PreToolUse call in a state directory: finds (or claims) the session's run and decides under its lock. */
export async function decideHook(root: string, input: HookCallInput, c: HookContext): Promise<Answer> {
  if (input.session === undefined || input.session === "")
    return denial(fail("guard-failure", "The hook input has no session_id, so the call cannot be tied to a run.", "run the guard as a Claude Code hook, or pass session_id"));
  if (input.cwd !== undefined && isInside(input.cwd, root))
    return denial(fail("guard-failure", `The session works in ${input.cwd}, inside the state directory ${root}.`, "keep the state directory outside the workspace"));
  let id = boundRun(root, input.session);
  if (id === undefined) {
    const claim = pickPending(root, input.cwd, c.now);
    if ("none" in claim) return noRun(root, input, c, claim.none);
    if ("deny" in claim) return denial(claim.deny);
    ensureDirs(root);
    // The binding is made exclusively: a racing call of the same session finds it and uses that run.
    id = bindSession(root, input.session, claim.run) ? claim.run : boundRun(root, input.session);
    if (id === undefined) return denial(fail("guard-failure", "The session's binding vanished while it was being made.", "call again"));
  }
  const runId = id;
  return withLock(runFile(root, runId), async () => decideInRun(root, runId, input, c));
}

/** The oldest pending run whose scope holds `cwd`; two of the same age cannot be told apart and are refused. */
function pickPending(root: string, cwd: string | undefined, now: Date): { run: string } | { none: string } | { deny: Diagnostic } {
  if (cwd === undefined) return { none: "the hook input has no cwd, so no run can be claimed for the session" };
  const open = listRuns(root).runs.filter((r) => r.status === "pending" && r.session_id === null && isInside(cwd, r.scope) && !(r.expires_at !== undefined && Date.parse(r.expires_at) <= now.getTime()));
  if (open.length === 0) return { none: `the session has no run and no pending run's scope holds ${cwd}` };
  if (open.length > 1 && open[0]!.created_at === open[1]!.created_at)
    return {
      deny: fail("guard-failure", `Two pending runs (${open[0]!.run_id}, ${open[1]!.run_id}) were started at the same time for ${cwd}; which one this session runs cannot be decided.`, "stop one (`plangate guard stop RUN`), or start runs with --session ID"),
    };
  return { run: open[0]!.run_id };
}

async function decideInRun(root: string, id: string, input: HookCallInput, c: HookContext): Promise<Answer> {
  const run = readRun(root, id);
  const session = input.session!;
  let audit: AuditLog;
  try {
    // Only the trail's end is checked (its size and last line): the same cost at step 1 and step 1,000.
    audit = new AuditLog(run.audit, { head: run.audit_head, from: run.audit_from, bytes: run.audit_bytes, tail: true }, Buffer.from(run.audit_key, "hex"));
  } catch (err) {
    if (err instanceof AuditError)
      throw new GuardStateError(`the audit trail of run ${id} does not end where the run says: ${err.message} If a guard was interrupted, run \`plangate guard repair ${id}\``);
    throw err;
  }
  const ts = c.now.toISOString();
  const base = { ts, plan_hash: run.plan_hash, nonce: run.nonce };
  const save = () => {
    const a = audit.anchor();
    run.audit_head = a.head;
    run.audit_bytes = a.bytes;
    writeRun(root, run);
  };
  if (run.session_id === null) {
    if (run.status !== "pending") {
      unbindSession(root, session, id);
      return denial(fail("guard-failure", `The run ${id} is ${run.status} and was never claimed.`, "start a new run with `plangate guard start`"), id);
    }
    run.session_id = session;
    run.status = "active";
    audit.append({ ...base, event: "claim", session, reason: `claimed by the session's first call, from ${input.cwd ?? "(no cwd)"}` });
    save();
  } else if (run.session_id !== session) {
    // Another session claimed the run between this session's binding and its lock: this session has none.
    unbindSession(root, session, id);
    return denial(fail("guard-failure", `The run ${id} was claimed by another session at the same moment.`, "call again: the session will claim the next pending run, if any"), id);
  }
  const cursor = run.progress.cursor;
  const stepNo = run.expected[cursor.index]?.step ?? (run.expected[run.expected.length - 1]?.step ?? 0) + 1;
  const refuse = (d: Diagnostic): Answer => {
    audit.append({ ...base, event: "deny", step: d.step ?? stepNo, tool: input.tool, args_hash: argsHash(input.args), rule: d.rule, reason: d.message });
    save();
    return denial(d, id);
  };
  if (input.bytes !== undefined && input.bytes > run.max_input_bytes)
    return refuse(fail("limit-exceeded", `The hook input is ${input.bytes} bytes, over the run's ${run.max_input_bytes} (guard.maxInputBytes at start); it is not decided.`, "keep tool inputs smaller, or raise guard.maxInputBytes and start a new run"));
  if (run.status === "stopped") return refuse(fail("guard-failure", `The run ${id} was stopped${run.stop_reason ? ` (${run.stop_reason})` : ""}; no call runs in it.`, "approve the plan again and start a new run"));
  const bytes = readPlanBytes(run.plan);
  if (bytes === undefined) return refuse(fail("approval-plan-mismatch", `The plan ${run.plan} cannot be read, so it is not the approved plan.`, "restore the approved plan"));
  const raw = "sha256:" + sha256Hex(bytes);
  if (raw !== run.plan_raw_hash)
    return refuse(
      fail("approval-plan-mismatch", `The plan ${run.plan} is not byte for byte the approved file (${raw}, approved ${run.plan_raw_hash}); no further call runs.`, "restore the approved file exactly (a reformatted plan needs a new approval)", { expected: run.plan_raw_hash, actual: raw }),
    );
  if (run.expires_at !== undefined && Date.parse(run.expires_at) <= c.now.getTime())
    return refuse(fail("approval-expired", `The approval expired at ${run.expires_at}; no further call runs.`, "validate and approve the plan again"));
  const shell = { workspace: run.scope, ...run.shell };
  const refused = await hostCommandRefusal(input.tool, input.args, shell);
  if (refused) return refuse({ ...refused, step: stepNo });
  const call = callIdentity(run.profile, { tool: input.tool, args: input.args }, run.scope);
  const outside = outsideScopeDiagnostic(call, stepNo);
  if (outside) return refuse(outside);
  const context = await runContext(run);
  const progressOptions = { free: (t: string) => run.free.includes(t), taskTools: TASK_TOOLS };
  const agent = input.agentId === undefined ? {} : { agentId: input.agentId };
  const decided = run.status === "complete" ? undefined : decideProgress(run.expected, run.progress, { ...call, ...agent }, context, progressOptions);
  // The progress records what the host showed (which agents run): kept whatever the verdict, except
  // that a call refused after its step matched (a confirmation the exit-code answer cannot ask, a path
  // that resolves elsewhere now) takes no step.
  const before = run.progress;
  if (decided) run.progress = decided.progress;
  const untaken = (d: Diagnostic): Answer => {
    run.progress = before;
    return refuse(d);
  };
  const verdict = decided?.verdict;
  // A free call that is not the next approved step moves nothing; one that is, is taken as that step.
  if (run.free.includes(input.tool) && (decided?.free === true || (run.status === "complete" && !TASK_TOOLS.has(input.tool)))) {
    const problem = await callPathProblem(stepNo, input.tool, input.args, { workspace: run.scope, policy: run.policy });
    if (problem) return refuse(problem);
    audit.append({ ...base, event: "free", tool: input.tool, args_hash: argsHash(input.args), reason: `${input.tool} is a free tool: no step taken` });
    save();
    return { decision: "allow", reason: `${input.tool} is free (guard.free): no step taken`, run: id };
  }
  if (verdict === undefined) {
    const last = run.expected[run.expected.length - 1]?.step ?? 0;
    return refuse({ ...fail("guard-step-mismatch", `All ${last} approved steps have run; the call to "${input.tool}" is not in the plan.`, "approve a new plan for further work"), step: last + 1 });
  }
  if (!verdict.allow) return refuse(verdict.diagnostic);
  if (verdict.confirm && c.mode === "exit")
    return untaken(fail("guard-failure", `Step ${verdict.step} asks the person to confirm it, and the exit-code answer cannot ask.`, "run the hook with --output claude", { step: verdict.step }));
  const problem = await callPathProblem(verdict.step, input.tool, input.args, { workspace: run.scope, policy: run.policy });
  if (problem) return untaken(problem);
  const event = verdict.confirm ? "ask" : "allow";
  const step = decided?.parent !== undefined ? decided.parent : verdict.step;
  audit.append({ ...base, event, step, tool: input.tool, args_hash: argsHash(input.args), cursor: run.progress.cursor, progress: run.progress, ...(decided?.parent !== undefined ? { reason: `step ${verdict.step} of step ${decided.parent}'s subagent` } : {}) });
  if (progressDone(run.expected, run.progress) && isFinished(run.expected, run.progress.cursor)) {
    run.status = "complete";
    audit.append({ ...base, event: "complete" });
  }
  save();
  const reason = verdict.confirm ? `Step ${verdict.step} of the approved plan asks for your confirmation.` : `Step ${verdict.step} of the approved plan.`;
  return { decision: event, reason, run: id };
}

/**
 * SubagentStart / SubagentStop of a session's run: the run's progress learns which subagent runs (its
 * calls are then matched against its Task/Agent step's nested steps), under the run's lock, audited.
 * Neither event can be refused here (a start cannot be blocked; blocking a stop would keep a subagent
 * running): what went wrong is returned as a diagnostic, recorded, and the progress makes the
 * subagent's calls denials.
 */
export async function subagentEvent(
  root: string,
  input: { event: "SubagentStart" | "SubagentStop"; session: string | undefined; agentId: string | undefined; agentType: string | undefined },
  now: Date,
): Promise<{ run?: string; diagnostic?: Diagnostic }> {
  if (input.session === undefined || input.session === "") return { diagnostic: fail("guard-failure", `The ${input.event} input has no session_id.`, "run the guard as a Claude Code hook") };
  const id = boundRun(root, input.session);
  // No run for the session: nothing to follow; its subagent's calls meet guard.noRun like any other.
  if (id === undefined) return {};
  return withLock(runFile(root, id), async () => {
    const run = readRun(root, id);
    if (run.session_id !== input.session || run.status !== "active") return { run: id };
    const audit = new AuditLog(run.audit, { head: run.audit_head, from: run.audit_from, bytes: run.audit_bytes, tail: true }, Buffer.from(run.audit_key, "hex"));
    const agent = { agentId: input.agentId ?? null, ...(input.agentType === undefined ? {} : { agentType: input.agentType }) };
    const options = { taskTools: TASK_TOOLS, contextFor: await runContext(run) };
    const r = input.event === "SubagentStart" ? subagentStart(run.expected, run.progress, agent, options) : subagentStop(run.expected, run.progress, { agentId: agent.agentId }, options);
    run.progress = r.progress;
    const event = input.event === "SubagentStart" ? "subagent-start" : "subagent-stop";
    audit.append({ ts: now.toISOString(), event, plan_hash: run.plan_hash, nonce: run.nonce, agent: agent.agentId, progress: run.progress, ...(r.diagnostic ? { rule: r.diagnostic.rule, reason: r.diagnostic.message } : {}) });
    const a = audit.anchor();
    run.audit_head = a.head;
    run.audit_bytes = a.bytes;
    writeRun(root, run);
    return r.diagnostic ? { run: id, diagnostic: r.diagnostic } : { run: id };
  });
}

/** How a run's calls are read: its host profile, and for a plan with constraints validation's own readers. */
async function runContext(run: RunState): Promise<ContextFor> {
  if (!run.constraints) return contextFor(run.profile);
  const v = await defaultValueContexts();
  return contextFor(run.profile, { simpleCommands: v.command.simpleCommands, schema: v.value.schema });
}

/** No further call can be taken: the cursor sits on the last expected call, used up. */
export function isFinished(expected: readonly ExpectedCall[], cursor: Cursor): boolean {
  if (expected.length === 0) return true;
  return cursor.index === expected.length - 1 && cursor.count >= expected[cursor.index]!.repeat;
}

/** A session with no run: guard.noRun decides (block, ask, or only the free tools, path-checked and audited). */
async function noRun(root: string, input: HookCallInput, c: HookContext, why: string): Promise<Answer> {
  const policy = await c.noRunPolicy();
  const mode = policy.guard.noRun;
  if (mode === "ask") {
    if (c.mode === "exit") return denial(fail("guard-failure", `No run for this session (${why}); guard.noRun is ask, and the exit-code answer cannot ask.`, "run the hook with --output claude, or start a run"));
    return { decision: "ask", reason: `plangate: no approved run for this session (${why}); allow this call?` };
  }
  const blocked = fail("guard-failure", `No run for this session: ${why}.`, "approve the plan and run `plangate guard start` (guard.noRun decides sessions without a run)");
  if (mode !== "allow-free" || !policy.guard.free.includes(input.tool)) return denial(blocked);
  const problem =
    (await hostCommandRefusal(input.tool, input.args, hostPolicyOf(policy, policy.workspace))) ??
    (await callPathProblem(0, input.tool, input.args, { workspace: policy.workspace, policy }));
  ensureDirs(root);
  const path = join(layout(root).audit, `no-run-${sessionKey(input.session!)}.jsonl`);
  const key = dirKey(root);
  await withLock(path, async () => {
    let audit: AuditLog;
    try {
      audit = new AuditLog(path, undefined, key);
    } catch (err) {
      if (err instanceof AuditError) throw new GuardStateError(`the no-run audit trail ${path} is broken: ${err.message}`);
      throw err;
    }
    const entry = { ts: c.now.toISOString(), plan_hash: "", nonce: "", session: sessionKey(input.session!), tool: input.tool, args_hash: argsHash(input.args) };
    if (problem) audit.append({ ...entry, event: "deny", rule: problem.rule, reason: problem.message });
    else audit.append({ ...entry, event: "free", reason: `${input.tool} is a free tool (guard.noRun: allow-free)` });
  });
  if (problem) return denial(problem);
  return { decision: "allow", reason: `${input.tool} is free (guard.noRun: allow-free)` };
}

/** The state directory's key for the MACs of no-run audit trails (created once, 0600). */
function dirKey(root: string): Uint8Array {
  const path = join(root, "audit.key");
  try {
    const fd = openSync(path, "wx", 0o600);
    try {
      writeSync(fd, randomBytes(32).toString("hex"));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  const hex = readFileSync(path, "utf8").trim();
  if (!/^[0-9a-f]{64}$/.test(hex)) throw new GuardStateError(`the state directory's key ${path} is not a key`);
  return Buffer.from(hex, "hex");
}

/** `guard stop`: ends a run (audited); its session's later calls are denied. */
export async function stopRun(root: string, id: string, reason: string, now: Date): Promise<RunState> {
  return withLock(runFile(root, id), async () => {
    const run = readRun(root, id);
    if (run.status === "stopped") return run;
    let audit: AuditLog;
    try {
      audit = new AuditLog(run.audit, { head: run.audit_head, from: run.audit_from, bytes: run.audit_bytes }, Buffer.from(run.audit_key, "hex"));
    } catch (err) {
      if (err instanceof AuditError) throw new GuardStateError(`the audit trail of run ${id} does not end where the run says: ${err.message} Run \`plangate guard repair ${id}\` first`);
      throw err;
    }
    audit.append({ ts: now.toISOString(), event: "stop", plan_hash: run.plan_hash, nonce: run.nonce, reason });
    const a = audit.anchor();
    run.audit_head = a.head;
    run.audit_bytes = a.bytes;
    run.status = "stopped";
    run.stop_reason = reason;
    writeRun(root, run);
    return run;
  });
}

/** The run a session is bound to, for `guard stop --session`. */
export function runOfSession(root: string, session: string): string {
  const id = boundRun(root, session);
  if (id === undefined) throw new GuardStateError(`the session ${JSON.stringify(session)} has no run in ${root}`);
  return id;
}

export type RepairOutcome = { action: "none" | "rolled-forward" | "broken"; detail: string; run: RunState };

/**
 * `guard repair`: a guard interrupted between its audit append and its state write leaves a trail
 * longer than the run's anchor. When every line past the anchor chains from it, is complete and carries
 * a valid MAC under the run's key for this run's plan and nonce, the lines prove the decisions: the
 * state is rolled forward (cursor, status, anchor). Anything else (a torn line, a bad MAC, a trail
 * shorter than the anchor or not chaining from it) cannot be trusted: the run is marked broken and
 * stopped, and the trail is left as it is, for inspection.
 */
export async function repairRun(root: string, id: string, now: Date): Promise<RepairOutcome> {
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
    // A guard killed between a last step's allow line and its complete line: every step ran, so the run is complete.
    if (next.status === "active" && progressDone(next.expected, next.progress) && isFinished(next.expected, next.progress.cursor)) next.status = "complete";
    next.repaired_at = now.toISOString();
    next.audit_head = whole.head;
    next.audit_bytes = bytes.byteLength;
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
