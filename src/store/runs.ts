import { decideProgress, type Progress, progressDone, subagentStart, subagentStop, TASK_TOOLS } from "../approval/progress.js";
import { randomBytes } from "node:crypto";
import { closeSync, fstatSync, lstatSync, mkdirSync, openSync, readSync, constants as fsConstants } from "node:fs";
import { dirname, join } from "node:path";
import { replaceFile } from "../node/atomic-write.js";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { defaultValueContexts } from "../commands/value-contexts.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { FileProbe } from "../core/file-probe.js";
import { contextFor, hasConstraints, type HostProfile, HostProfileError, outsideScopeDiagnostic, profileHash } from "../host/profile.js";
import { DEFAULT_MAX_INPUT_BYTES, defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { ensureDirs, FileStore, layout, planStamp, sessionKey } from "./file.js";
import { type RepairOutcome, type RunState, type RunTx, type Store, STORED_PLAN } from "./types.js";
import { isFinished } from "./validate.js";
import { AuditChain } from "../node/audit.js";
import { callPathProblem } from "../approval/call-paths.js";
import { argsHash, existingFileDiagnostic, type GuardOptions, GuardRefusal, hookCallIdentity, hostCommands, hostPolicyOf, openApproved, readPlanBytes } from "../node/guard.js";
import { hostCommandRefusal } from "../approval/host-command.js";
import { isInside, realPathOf } from "../node/keys.js";
import { type CallInput, type ContextFor, type ExpectedCall, START } from "../approval/match.js";
import { guardFailure, guardMismatch, judgeApproval } from "../approval/judge.js";
import { consumedDiagnostic } from "../approval/record.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import { guardDecision } from "../rules/guard-failure/decisions.js";
import { consumeNonce, GuardStateError } from "../node/guard-state.js";
import { untrustedPlace } from "../node/private-place.js";
import { RunNotFoundError } from "./errors.js";
import { loadHostProfile } from "../node/host-profile.js";

/*
 * Runs per session, kept in a Store (src/store/types.ts): the file store of a state directory
 * (src/store/file.ts describes its files) or a PostgreSQL database shared by several machines. Each
 * operation takes a Store, or a state directory's path (its file store).
 */

export type { RepairOutcome, RunState, RunStatus } from "./types.js";
export { RUN_ID } from "./types.js";
export { isFinished } from "./validate.js";
export { boundRun, layout, listRuns, readRun, runFile, sessionKey, writeRun } from "./file.js";

/** A state directory's path is its file store. */
export function storeOf(root: string | Store): Store {
  return typeof root === "string" ? new FileStore(root) : root;
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
  /**
   * The plan arrived as text and was written to the state directory (plan mode, POST /v1/runs): keep its
   * bytes in the store, so every machine sharing the store reads them (a database's plans table).
   */
  keepPlan?: boolean;
  /** Asked just before the run is written (see HookContext.commit): false, and no run is started. */
  commit?: () => boolean;
}

/**
 * Writes a plan that arrived as text to its file in the state directory (mode 600, its folder 700): a
 * temporary file renamed over the name, so a symlink planted there is replaced, never written through.
 */
function writeKeptPlan(path: string, bytes: Uint8Array): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = lstatSync(dir);
  if (!st.isDirectory()) throw new GuardStateError(guardFailure({ kind: "kept-plans-not-a-folder", dir }).message);
  replaceFile(path, bytes, 0o600);
}

/** `guard start`: verifies and consumes the approval, then writes a new run (pending, or bound to `session`). */
export async function startRun(root: string | Store, o: StartRunOptions): Promise<RunState> {
  const store = storeOf(root);
  const file = store instanceof FileStore ? store : undefined;
  if (file) {
    if (stateDirProblem(file.root, o.workspace)) throw new GuardRefusal([guardFailure({ kind: "state-dir-overlaps", root: file.root, workspace: o.workspace })]);
    // Before anything is consumed: a store another user could write would make the run theirs.
    file.trust();
    ensureDirs(file.root);
  }
  for (const dir of [o.consumedDir, o.alsoConsumedIn]) {
    const problem = dir === undefined ? undefined : untrustedPlace(dir, "the store of consumed approvals");
    if (problem !== undefined) throw new GuardStateError(guardFailure({ kind: "untrusted-place", problem }).message);
  }
  if (!file && o.consumedDir !== undefined) throw new GuardStateError(guardFailure({ kind: "consumed-dir-with-store", location: store.location }).message);
  const id = randomBytes(16).toString("hex");
  if (o.session !== undefined && !(await store.bindSession(o.session, id)) && !(await store.rebindFinished(o.session, id)))
    throw new GuardRefusal([guardFailure({ kind: "session-bound", session: o.session, run: await store.boundRun(o.session) })]);
  try {
    const auditKey = o.auditKey ?? randomBytes(32);
    // A file store's trail is a file, opened (and its nonce consumed) by openApproved; a database's trail
    // lines and the nonce are written with the run, in one transaction.
    const chain = file ? undefined : new AuditChain(`${store.kind}:${id}`, auditKey);
    const opened = await openApproved(
      file
        ? { ...o, auditKey, audit: join(layout(file.root).audit, `${id}.jsonl`), consumedDir: o.consumedDir ?? layout(file.root).consumed }
        : { ...o, auditKey, audit: chain!.path, consumedDir: "", auditChain: chain!, storeConsumed: (n: string) => store.isConsumed(n) },
    );
    const { plan, record, audit } = opened;
    const now = opened.now();
    if (record.single_use && o.alsoConsumedIn !== undefined && !consumeNonce(o.alsoConsumedIn, record.nonce, now))
      throw new GuardRefusal(judgeApproval({ step: "guard", consumed: { nonce: record.nonce, recordedIn: o.alsoConsumedIn } }));
    let planRef = plan.file;
    if (o.planBytes !== undefined) {
      // Checked from memory; written only now that its approval checked out. A database keeps its own copy.
      const given = judgeApproval({ step: "guard", plan: { kind: "start", file: plan.file, source: "given", same: sha256Hex(o.planBytes) === plan.rawHash } });
      if (given.length > 0) throw new GuardRefusal(given);
      planRef = file ? (writeKeptPlan(plan.file, o.planBytes), plan.file) : await store.keepPlan(plan.file, o.planBytes, plan.rawHash);
    } else if (o.keepPlan) {
      // The bytes the checks read, once more: a file changed in between is not the plan that was checked.
      const bytes = readPlanBytes(plan.file);
      const again = judgeApproval({ step: "guard", plan: { kind: "start", file: plan.file, source: "file", same: bytes !== undefined && sha256Hex(bytes) === plan.rawHash } });
      if (again.length > 0 || bytes === undefined) throw new GuardRefusal(again);
      planRef = await store.keepPlan(plan.file, bytes, plan.rawHash);
    }
    const anchor = audit.anchor();
    const policy = o.policy ?? defaultPolicy(o.workspace);
    const host = hostPolicyOf(policy, o.workspace);
    const run: RunState = {
      version: 3,
      run_id: id,
      session_id: o.session ?? null,
      status: o.session !== undefined ? "active" : "pending",
      created_at: now.toISOString(),
      plan: planRef,
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
      shell: { commands: hostCommands(host.commands), protected: [...host.protected] },
      policy,
    };
    if (record.expires_at !== undefined) run.expires_at = record.expires_at;
    if (o.commit !== undefined && !o.commit()) throw new GuardRefusal([guardFailure({ kind: "answered" })]);
    const created = await store.createRun({ run, auditLines: chain?.lines ?? [], now, ...(!file && record.single_use ? { consume: record.nonce } : {}) });
    if (created === "consumed") throw new GuardRefusal([consumedDiagnostic(record.nonce)]);
    return run;
  } catch (err) {
    if (o.session !== undefined) await store.unbindSession(o.session, id);
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
  /** The real clock (ms) that file timestamps are compared with (default Date.now); tests move it. */
  fsNow?: () => number;
  /** A fresh probe of the real file system, for each check of a call's paths and command. */
  files: () => FileProbe;
  /**
   * Asked the moment an allow, an ask or a free call is about to be recorded: false when the host has
   * already been answered (a deny: no decision within the hook's timeout), and the call then takes
   * nothing (the decision throws, nothing is written). True ties the answer to this decision. Absent:
   * every decision may be recorded (a caller that answers only once it has decided).
   */
  commit?: () => boolean;
}

/** The host was already told no: a decision reached after that takes nothing (thrown, so nothing is written). */
export class AnsweredError extends GuardStateError {}

function mayRecord(c: Pick<HookContext, "commit">): void {
  if (c.commit !== undefined && !c.commit()) throw new AnsweredError(guardFailure({ kind: "answered" }).message);
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
  /** The hook input's `tool_use_id`: the host's id of the call, the same in its PreToolUse and PostToolUse. */
  useId?: string;
}

/** How many allowed calls a run remembers until their PostToolUse (a call never run, declined or failed, gets none). */
export const MAX_ISSUED = 64;

/** Remembers a call the guard allowed, until its PostToolUse shows the input it ran with. */
function issue(run: RunState, input: HookCallInput): void {
  const list = run.issued ?? [];
  list.push({ tool: input.tool, args_hash: argsHash(input.args), ...(input.useId === undefined ? {} : { id: input.useId }) });
  run.issued = list.slice(-MAX_ISSUED);
}

function denial(d: Diagnostic, run?: string): Answer {
  const a: Answer = { decision: "deny", reason: `${d.message}${d.hint ? ` (${d.hint})` : ""}`, rule: d.rule };
  if (run !== undefined) a.run = run;
  return a;
}

/** A PreToolUse call: finds (or claims) the session's run in the store and decides in its critical section. */
export async function decideHook(root: string | Store, input: HookCallInput, c: HookContext): Promise<Answer> {
  const store = storeOf(root);
  if (input.session === undefined || input.session === "")
    return denial(guardFailure({ kind: "no-session" }));
  if (input.cwd !== undefined && store.holds(input.cwd))
    return denial(guardFailure({ kind: "cwd-in-state-dir", cwd: input.cwd, root: typeof root === "string" ? root : store.location }));
  let id = await store.boundRun(input.session);
  if (id === undefined) {
    const claim = await pickPending(store, input.cwd, c.now);
    if ("none" in claim) return noRun(store, input, c, claim.none);
    if ("deny" in claim) return denial(claim.deny);
    // The binding is made exclusively: a racing call of the same session finds it and uses that run.
    id = (await store.bindSession(input.session, claim.run)) ? claim.run : await store.boundRun(input.session);
    if (id === undefined) return denial(guardFailure({ kind: "binding-vanished" }));
  }
  const runId = id;
  return store.withRun(runId, async (tx) => decideInRun(tx, runId, input, c));
}

/** The oldest pending run whose scope holds `cwd`; two of the same age cannot be told apart and are refused. */
async function pickPending(store: Store, cwd: string | undefined, now: Date): Promise<{ run: string } | { none: string } | { deny: Diagnostic }> {
  if (cwd === undefined) return { none: guardDecision("noRunNoCwd") };
  const open = (await store.pendingRuns()).filter((r) => isInside(cwd, r.scope) && !(r.expires_at !== undefined && Date.parse(r.expires_at) <= now.getTime()));
  if (open.length === 0) return { none: guardDecision("noRunNoPending", { cwd }) };
  if (open.length > 1 && open[0]!.created_at === open[1]!.created_at)
    return {
      deny: guardFailure({ kind: "same-time", runs: [open[0]!.run_id, open[1]!.run_id], cwd }),
    };
  return { run: open[0]!.run_id };
}

async function decideInRun(tx: RunTx, id: string, input: HookCallInput, c: HookContext): Promise<Answer> {
  const run = tx.run;
  const session = input.session!;
  const ts = c.now.toISOString();
  const base = { ts, plan_hash: run.plan_hash, nonce: run.nonce };
  const save = () => tx.save();
  const audit = { append: (e: Parameters<RunTx["append"]>[0]) => tx.append(e) };
  if (run.session_id === null) {
    if (run.status !== "pending") {
      await tx.unbindSession(session);
      return denial(guardFailure({ kind: "never-claimed", run: id, status: run.status }), id);
    }
    run.session_id = session;
    run.status = "active";
    await audit.append({ ...base, event: "claim", session, reason: input.cwd === undefined ? guardDecision("auditClaimNoCwd") : guardDecision("auditClaim", { cwd: input.cwd }) });
    await save();
  } else if (run.session_id !== session) {
    // Another session claimed the run between this session's binding and its lock: this session has none.
    await tx.unbindSession(session);
    return denial(guardFailure({ kind: "claimed-by-other", run: id }), id);
  }
  const cursor = run.progress.cursor;
  const stepNo = run.expected[cursor.index]?.step ?? (run.expected[run.expected.length - 1]?.step ?? 0) + 1;
  const refuse = async (d: Diagnostic): Promise<Answer> => {
    await audit.append({ ...base, event: "deny", step: d.step ?? stepNo, tool: input.tool, args_hash: argsHash(input.args), rule: d.rule, reason: d.message });
    await save();
    return denial(d, id);
  };
  if (input.bytes !== undefined && input.bytes > run.max_input_bytes)
    return refuse(ruleDiagnostic("limit-exceeded", "runInputTooLarge", { size: input.bytes, max: run.max_input_bytes }));
  if (run.status === "stopped") return refuse(guardFailure({ kind: "stopped", run: id, ...(run.stop_reason ? { reason: run.stop_reason } : {}) }));
  // The plan must still be the approved bytes. A plan file whose stamp is the one it had when its bytes
  // last checked out is not read again (the cost of a call does not grow with the plan).
  const stamped = STORED_PLAN.test(run.plan) ? undefined : planStamp(run.plan);
  if (stamped === undefined || run.plan_checked !== stamped) {
    delete run.plan_checked;
    const read = await tx.readPlan(c.fsNow?.() ?? Date.now());
    const raw = read === undefined ? undefined : "sha256:" + sha256Hex(read.bytes);
    const changed = judgeApproval({ step: "guard", plan: { kind: "call", file: run.plan, ...(raw !== undefined ? { raw } : {}), approved: run.plan_raw_hash } });
    if (changed.length > 0 || read === undefined) return refuse(changed[0]!);
    // The stamp of the very file whose bytes were just checked, when it may stand for them.
    if (read.stamp !== undefined) run.plan_checked = read.stamp;
  }
  const expired = run.expires_at === undefined ? [] : judgeApproval({ step: "guard", expiry: { expiresAt: run.expires_at, now: c.now } });
  if (expired.length > 0) return refuse(expired[0]!);
  const shell = { workspace: run.scope, ...run.shell };
  const refused = await hostCommandRefusal(input.tool, input.args, shell, c.files);
  if (refused) return refuse({ ...refused, step: stepNo });
  // The host resolves relative paths and runs command lines in its working folder (the input's cwd).
  const call = hookCallIdentity(run.profile, { tool: input.tool, args: input.args }, run.scope, input.cwd, { workspace: run.scope, policy: run.policy }, c.files);
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
  const untaken = (d: Diagnostic): Promise<Answer> => {
    run.progress = before;
    return refuse(d);
  };
  const verdict = decided?.verdict;
  // A free call that is not the next approved step moves nothing; one that is, is taken as that step.
  if (run.free.includes(input.tool) && (decided?.free === true || (run.status === "complete" && !TASK_TOOLS.has(input.tool)))) {
    const problem = await callPathProblem(stepNo, input.tool, input.args, { workspace: run.scope, policy: run.policy }, c.files);
    if (problem) return refuse(problem);
    mayRecord(c);
    await audit.append({ ...base, event: "free", tool: input.tool, args_hash: argsHash(input.args), reason: guardDecision("auditFree", { tool: input.tool }) });
    issue(run, input);
    await save();
    return { decision: "allow", reason: guardDecision("allowFree", { tool: input.tool }), run: id };
  }
  if (verdict === undefined || !verdict.allow) {
    // The step just taken, asked for again where running it again does what running it once did.
    const again = repeatOfLast(run, before, call, input);
    if (again !== undefined) {
      run.progress = before;
      const problem = existingFileDiagnostic(again, call, run.scope, again.step) ?? (await callPathProblem(again.step, input.tool, input.args, { workspace: run.scope, policy: run.policy }, c.files));
      if (problem) return refuse(problem);
      // A step the person confirms is confirmed again.
      if (again.confirm && c.mode === "exit") return refuse(guardFailure({ kind: "cannot-ask", step: again.step }));
      const event = again.confirm ? "ask" : "allow";
      mayRecord(c);
      await audit.append({ ...base, event, step: again.step, tool: input.tool, args_hash: argsHash(input.args), cursor: run.progress.cursor, progress: run.progress, reason: guardDecision("auditRepeat", { step: again.step }) });
      issue(run, input);
      await save();
      return { decision: event, reason: guardDecision("allowRepeat", { step: again.step }), run: id };
    }
  }
  if (verdict === undefined) {
    const last = run.expected[run.expected.length - 1]?.step ?? 0;
    return refuse({ ...guardMismatch({ kind: "after-last", steps: last, tool: input.tool }), step: last + 1 });
  }
  if (!verdict.allow) return refuse(verdict.diagnostic);
  if (verdict.confirm && c.mode === "exit")
    return untaken(guardFailure({ kind: "cannot-ask", step: verdict.step }));
  const problem =
    existingFileDiagnostic(takenCall(run.expected, run.progress), call, run.scope, verdict.step) ??
    (await callPathProblem(verdict.step, input.tool, input.args, { workspace: run.scope, policy: run.policy }, c.files));
  if (problem) return untaken(problem);
  const event = verdict.confirm ? "ask" : "allow";
  // The step is taken only while the host still waits for this answer.
  mayRecord(c);
  const step = decided?.parent !== undefined ? decided.parent : verdict.step;
  await audit.append({ ...base, event, step, tool: input.tool, args_hash: argsHash(input.args), cursor: run.progress.cursor, progress: run.progress, ...(decided?.parent !== undefined ? { reason: guardDecision("auditSubagentStep", { step: verdict.step, parent: decided.parent }) } : {}) });
  if (progressDone(run.expected, run.progress) && isFinished(run.expected, run.progress.cursor)) {
    run.status = "complete";
    await audit.append({ ...base, event: "complete" });
  }
  issue(run, input);
  await save();
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
  root: string | Store,
  input: { event: "SubagentStart" | "SubagentStop"; session: string | undefined; agentId: string | undefined; agentType: string | undefined },
  now: Date,
): Promise<{ run?: string; diagnostic?: Diagnostic }> {
  const store = storeOf(root);
  if (input.session === undefined || input.session === "") return { diagnostic: guardFailure({ kind: "no-session", event: input.event }) };
  const id = await store.boundRun(input.session);
  // No run for the session: nothing to follow; its subagent's calls meet guard.noRun like any other.
  if (id === undefined) return {};
  return store.withRun(id, async (tx) => {
    const run = tx.run;
    if (run.session_id !== input.session || run.status !== "active") return { run: id };
    const agent = { agentId: input.agentId ?? null, ...(input.agentType === undefined ? {} : { agentType: input.agentType }) };
    const options = { taskTools: TASK_TOOLS, contextFor: await runContext(run) };
    const r = input.event === "SubagentStart" ? subagentStart(run.expected, run.progress, agent, options) : subagentStop(run.expected, run.progress, { agentId: agent.agentId }, options);
    run.progress = r.progress;
    const event = input.event === "SubagentStart" ? "subagent-start" : "subagent-stop";
    await tx.append({ ts: now.toISOString(), event, plan_hash: run.plan_hash, nonce: run.nonce, agent: agent.agentId, progress: run.progress, ...(r.diagnostic ? { rule: r.diagnostic.rule, reason: r.diagnostic.message } : {}) });
    await tx.save();
    return r.diagnostic ? { run: id, diagnostic: r.diagnostic } : { run: id };
  });
}

/** A PostToolUse (or PostToolUseFailure) of a tool call: the call as it ran. */
export interface RanCallInput {
  event: string;
  session: string | undefined;
  tool: string;
  args: Record<string, unknown>;
  useId?: string;
}

/**
 * A tool call has run (PostToolUse, PostToolUseFailure): in a session with a run, it must be a call the
 * guard allowed, with the very input the guard decided on. Another hook may rewrite a call's input after
 * the guard allowed it (Claude Code applies a PreToolUse or PermissionRequest hook's `updatedInput`), and
 * the host reports the input it ran with here: a call that ran with another input, or that the guard never
 * allowed, stops the run (audited), so every later call is denied. This is found after the fact: that one
 * call has run. The call is found by its tool_use_id when the host gave one, else by its tool and input.
 * A session without a run, or whose run is pending or already stopped, has nothing to check.
 */
export async function ranCall(root: string | Store, input: RanCallInput, now: Date): Promise<{ run?: string; diagnostic?: Diagnostic }> {
  const store = storeOf(root);
  if (input.session === undefined || input.session === "") return {};
  const id = await store.boundRun(input.session);
  if (id === undefined) return {};
  return store.withRun(id, async (tx) => {
    const run = tx.run;
    if (run.session_id !== input.session || (run.status !== "active" && run.status !== "complete")) return { run: id };
    const hash = argsHash(input.args);
    const issued = run.issued ?? [];
    const same = (e: { tool: string; args_hash: string }) => e.tool === input.tool && e.args_hash === hash;
    const byId = input.useId === undefined ? -1 : issued.findIndex((e) => e.id === input.useId);
    // A call the host names is that call, or none: its id's entry with another input is the rewritten call.
    const at = byId >= 0 ? (same(issued[byId]!) ? byId : -1) : issued.findIndex((e) => same(e) && (input.useId === undefined || e.id === undefined));
    if (at >= 0) {
      issued.splice(at, 1);
      run.issued = issued;
      await tx.save();
      return { run: id };
    }
    const ts = now.toISOString();
    const diagnostic = guardFailure({ kind: "ran-unallowed", run: id, tool: input.tool, event: input.event });
    await tx.append({ ts, event: "deny", plan_hash: run.plan_hash, nonce: run.nonce, tool: input.tool, args_hash: hash, rule: diagnostic.rule, reason: diagnostic.message });
    run.issued = [];
    await stopInTx(tx, guardDecision("auditRanUnallowed", { tool: input.tool, event: input.event }), now);
    return { run: id, diagnostic };
  });
}

/** How a run's calls are read: its host profile, and for a plan with constraints validation's own readers. */
async function runContext(run: RunState): Promise<ContextFor> {
  if (!run.constraints) return contextFor(run.profile);
  const v = await defaultValueContexts();
  return contextFor(run.profile, { simpleCommands: v.command.simpleCommands, schema: v.value.schema });
}

/** The largest file an Edit's repeat reads to see whether the first one took effect. */
const MAX_REPEAT_PROBE_BYTES = 16 * 1024 * 1024;

/**
 * The step just taken (outside any subagent), when this call is exactly its call again and running it
 * again does what running it once did. The host sends a call again when its tool did not carry it out (the
 * person declined the permission prompt, the file changed under an Edit, an interrupted read):
 * - a tool the host profile marks read-only;
 * - Claude Code's `Write` (same file, same content: the file ends as one Write leaves it; a CREATE's
 *   "no file there" still holds);
 * - Claude Code's `Edit`, while the file shows it did not take effect: `old_string` is there (once, unless
 *   `replace_all`) and `new_string`, which a replacement that took effect leaves in the file, is not.
 * Never a command (`Bash`), a Task/Agent call or any other tool: once run, running it again is another act.
 * Claude Code runs the calls that write one after another, each call's hook after the last call ended, so
 * the file an Edit's repeat reads is the file the first call left.
 */
function repeatOfLast(run: RunState, progress: Progress, call: CallInput, input: HookCallInput): ExpectedCall | undefined {
  if (progress.sub || progress.awaiting !== undefined || progress.stray?.length || progress.strayOverflow || input.agentId !== undefined) return undefined;
  const { index, count } = progress.cursor;
  const last = run.expected[index];
  if (last === undefined || count < 1 || last.steps !== undefined || TASK_TOOLS.has(call.tool) || last.tool !== call.tool) return undefined;
  // Exactly the approved call (a step with constraints admits other calls, which would be no repeat).
  if (canonicalJson(last.args) !== canonicalJson(call.args)) return undefined;
  if (run.profile.tools[call.tool]?.read === true) return last;
  if (run.profile.name !== "claude-code") return undefined;
  if (call.tool === "Write") return last;
  if (call.tool === "Edit") return editNotApplied(run.scope, call.args) ? last : undefined;
  return undefined;
}

/** Does the file show that this Edit has not taken effect (see repeatOfLast)? Anything unclear: no. */
function editNotApplied(scope: string, args: Record<string, unknown>): boolean {
  const { file_path: file, old_string: from, new_string: to, replace_all: all } = args;
  if (typeof file !== "string" || typeof from !== "string" || typeof to !== "string" || from === "" || to === "") return false;
  let text: string;
  try {
    // Not through a link at the end (the path was checked inside the workspace as written), nor a device or a pipe.
    const fd = openSync(join(scope, file), fsConstants.O_RDONLY | fsConstants.O_NOFOLLOW | fsConstants.O_NONBLOCK);
    try {
      const st = fstatSync(fd);
      if (!st.isFile() || st.size > MAX_REPEAT_PROBE_BYTES) return false;
      const buf = Buffer.alloc(st.size);
      let done = 0;
      while (done < st.size) {
        const n = readSync(fd, buf, done, st.size - done, null);
        if (n === 0) break;
        done += n;
      }
      text = new TextDecoder("utf-8", { fatal: true }).decode(buf.subarray(0, done));
    } finally {
      closeSync(fd);
    }
  } catch {
    return false;
  }
  if (text.includes(to)) return false;
  const first = text.indexOf(from);
  if (first < 0) return false;
  return all === true || text.indexOf(from, first + 1) < 0;
}

/** The expected call the progress has just taken (a subagent's nested call while one runs). */
function takenCall(expected: readonly ExpectedCall[], progress: Progress): ExpectedCall | undefined {
  if (progress.sub) return expected[progress.sub.parent]?.steps?.[progress.sub.cursor.index];
  return expected[progress.cursor.index];
}

/**
 * A free call of a session with no run, read with the policy's host profile as a run would read it: a
 * path, a left-out search folder or a glob that reaches outside the workspace is refused. A profile
 * that cannot be loaded refuses the call.
 */
async function hostScopeProblem(policy: Policy, input: HookCallInput, files: () => FileProbe): Promise<Diagnostic | undefined> {
  let profile: HostProfile;
  try {
    // No host: the generic profile, which still refuses a relative path or a command line read in another folder.
    profile = await loadHostProfile(policy.host ?? "generic", policy.workspace);
  } catch (err) {
    if (err instanceof HostProfileError) return guardFailure({ kind: "host-profile", from: "policy", error: err.message });
    throw err;
  }
  const identity = hookCallIdentity(profile, { tool: input.tool, args: input.args }, realPathOf(policy.workspace), input.cwd, { workspace: policy.workspace, policy }, files);
  return outsideScopeDiagnostic(identity, 0);
}

/** The free tools of the policy's host profile (none when it cannot be loaded: the call is then not free). */
async function profileFree(policy: Policy): Promise<readonly string[]> {
  try {
    return (await loadHostProfile(policy.host ?? "generic", policy.workspace)).free;
  } catch (err) {
    if (err instanceof HostProfileError) return [];
    throw err;
  }
}

/** A session with no run: guard.noRun decides (block, ask, or only the free tools, path-checked and audited). */
async function noRun(store: Store, input: HookCallInput, c: HookContext, why: string): Promise<Answer> {
  const policy = await c.noRunPolicy();
  const mode = policy.guard.noRun;
  if (mode === "ask") {
    if (c.mode === "exit") return denial(guardFailure({ kind: "no-run", why, ask: true }));
    return { decision: "ask", reason: guardDecision("askNoRun", { why }) };
  }
  const blocked = guardFailure({ kind: "no-run", why, ask: false });
  // The free tools: the policy's guard.free, and the host profile's own (claude-code's TodoWrite), as in a run.
  if (mode !== "allow-free" || !(policy.guard.free.includes(input.tool) || (await profileFree(policy)).includes(input.tool))) return denial(blocked);
  const problem =
    (await hostScopeProblem(policy, input, c.files)) ??
    (await hostCommandRefusal(input.tool, input.args, hostPolicyOf(policy, policy.workspace), c.files)) ??
    (await callPathProblem(0, input.tool, input.args, { workspace: policy.workspace, policy }, c.files));
  const key = sessionKey(input.session!);
  const entry = { ts: c.now.toISOString(), plan_hash: "", nonce: "", session: key, tool: input.tool, args_hash: argsHash(input.args) };
  if (problem) await store.appendNoRun(key, { ...entry, event: "deny", rule: problem.rule, reason: problem.message });
  else {
    mayRecord(c);
    await store.appendNoRun(key, { ...entry, event: "free", reason: guardDecision("auditFreeNoRun", { tool: input.tool }) });
  }
  if (problem) return denial(problem);
  return { decision: "allow", reason: guardDecision("allowFreeNoRun", { tool: input.tool }) };
}

/** Stops the run a transaction holds: the stop audited, then the run saved as stopped. */
async function stopInTx(tx: RunTx, reason: string, now: Date): Promise<void> {
  const run = tx.run;
  await tx.append({ ts: now.toISOString(), event: "stop", plan_hash: run.plan_hash, nonce: run.nonce, reason });
  run.status = "stopped";
  run.stop_reason = reason;
  await tx.save();
}

/** `guard stop`: ends a run (audited); its session's later calls are denied. */
export async function stopRun(root: string | Store, id: string, reason: string, now: Date): Promise<RunState> {
  const store = storeOf(root);
  return store.withRun(
    id,
    async (tx) => {
      const run = tx.run;
      if (run.status === "stopped") return run;
      await stopInTx(tx, reason, now);
      return run;
    },
    { check: "whole", purpose: "stop" },
  );
}

/**
 * Plan mode: the person accepted another plan for a session whose run is still active. That acceptance
 * replaces the plan: the run is stopped (audited) so that the new one can be bound to the session. A
 * pending, stopped or complete run is left as it is. Returns the stopped run's id.
 */
export async function supersedeSessionRun(root: string | Store, session: string, now: Date): Promise<string | undefined> {
  const store = storeOf(root);
  const id = await store.boundRun(session);
  if (id === undefined) return undefined;
  return store.withRun(
    id,
    async (tx) => {
      const run = tx.run;
      if (run.status !== "active" || run.session_id !== session) return undefined;
      await stopInTx(tx, guardDecision("auditSuperseded"), now);
      return id;
    },
    { check: "whole", purpose: "stop" },
  );
}

/** The run a session is bound to, for `guard stop --session`. */
export async function runOfSession(root: string | Store, session: string): Promise<string> {
  const store = storeOf(root);
  const id = await store.boundRun(session);
  if (id === undefined) throw new RunNotFoundError(guardFailure({ kind: "session-without-run", session, location: typeof root === "string" ? root : store.location }).message);
  return id;
}

/**
 * `guard repair`: a guard interrupted between its audit append and its state write (file store) is
 * rolled forward when the lines past the run's anchor prove the decisions, else marked broken and
 * stopped (src/store/file.ts); in a database the two are one transaction, so repair only checks the
 * trail against the run and stops a run whose trail does not verify.
 */
export async function repairRun(root: string | Store, id: string, now: Date): Promise<RepairOutcome> {
  return storeOf(root).repairRun(id, now);
}

/** A run's step k of n (k counts a step whose calls began). */
export function stepOf(run: RunState): { done: number; total: number } {
  const c = run.progress.cursor;
  return { done: c.count > 0 ? c.index + 1 : c.index, total: run.expected.length };
}

/** A run as `guard status -o json` (and GET /v1/runs) lists it. */
export function runSummary(run: RunState): Record<string, unknown> {
  const { done, total } = stepOf(run);
  return { run: run.run_id, session: run.session_id, status: run.status, plan: run.plan, step: done, steps: total, expires_at: run.expires_at ?? null, created_at: run.created_at, ...(run.stop_reason ? { stop_reason: run.stop_reason } : {}) };
}
