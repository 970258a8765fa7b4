import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { isAbsolute } from "node:path";
import { sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { AuditError, AuditLog } from "./audit.js";
import { type ApprovedPlan, approvedSteps, decideStep, type GuardOptions, GuardRefusal, hostCommands, hostPolicyOf, openApproved, readPlanBytes, recordDecision } from "./guard.js";
import { isInside } from "./keys.js";
import { untrustedPlace } from "./private-place.js";
import { guardFailure, judgeApproval } from "../approval/judge.js";
import { DEFAULT_MAX_INPUT_BYTES, defaultPolicy } from "../policy/defaults.js";
import { parseJson } from "../syntax/json.js";
import { auditKeyOf, consumeNonce, type GuardState, GuardStateError, readState, withLock, writeState } from "./guard-state.js";
import type { HookInputProblem } from "../core/input/approval.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import { hookInputFactDiagnostic } from "../rules/hook-input.js";
import { guardDecision } from "../rules/guard-failure/decisions.js";

/** A Claude Code PreToolUse hook input, as far as the guard reads it. */
export interface HookCall {
  tool: string;
  args: Record<string, unknown>;
  /** The input's `cwd`, the host's working folder (absent: the input names none, so it is unknown). */
  cwd?: string;
}

/** The hook input is refused (the call is blocked): the diagnostic says why, its rule id is the deny's. */
export class HookInputError extends GuardStateError {
  readonly rule: string;
  constructor(readonly diagnostic: Diagnostic) {
    super(diagnostic.message);
    this.rule = diagnostic.rule;
  }
}

/** A hook input the guard cannot decide on, refused under guard-failure. */
const badInput = (problem: HookInputProblem) => new HookInputError(guardFailure({ kind: "hook-input", problem }));

/** The hook events the guard reads (others are read too, and answered by `otherEvent`). */
export type HookEvent = "PreToolUse" | "PostToolUse" | "PermissionRequest" | "SubagentStart" | "SubagentStop" | (string & {});

/** A Claude Code hook input, as far as plangate reads it; `raw` is the whole object for the event's own fields. */
export interface HookInput {
  event: HookEvent;
  session: string | undefined;
  cwd: string | undefined;
  agentId?: string;
  agentType?: string;
  tool?: string;
  args?: Record<string, unknown>;
  /** The host's id of the tool call (`tool_use_id`), the same in its PreToolUse and PostToolUse. */
  useId?: string;
  raw: Record<string, unknown>;
}

/** Events that name a tool call (tool_name and tool_input). */
const TOOL_EVENTS = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

/** Events that report a tool call that has run, with the input it ran with. */
export const RAN_EVENTS: ReadonlySet<string> = new Set(["PostToolUse", "PostToolUseFailure"]);

/**
 * Reads a hook's JSON strictly, as plans are read: more than `maxBytes`, invalid UTF-8, a duplicate key
 * (the host and the guard could read different calls), deep nesting, unsafe values, a member of the
 * wrong type or a tool event without tool_name is a HookInputError (the call is blocked). An input
 * without hook_event_name is a PreToolUse input (as plangate 0.1 read it).
 */
export function parseHookInput(bytes: Uint8Array, maxBytes = DEFAULT_MAX_INPUT_BYTES): HookInput {
  if (bytes.byteLength > maxBytes) throw new HookInputError(ruleDiagnostic("limit-exceeded", "hookInputTooLarge", { max: maxBytes }));
  let text: string;
  try {
    // The BOM is kept for the reader, which allows one: a second would otherwise vanish unseen.
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new HookInputError(ruleDiagnostic("parse-error", "hookNotUtf8", undefined));
  }
  // Nothing but JSON's white space (a BOM aside): the reader's own words speak of a plan file.
  if (/^\uFEFF?[ \t\n\r]*$/.test(text)) throw new HookInputError(ruleDiagnostic("parse-error", "hookEmpty", undefined));
  const doc = parseJson(text);
  const issue = doc.issues[0];
  if (issue) throw new HookInputError(hookInputFactDiagnostic(issue, doc.lines.position(issue.start)));
  if (doc.value === undefined) throw new HookInputError(ruleDiagnostic("parse-error", "hookNotJson", undefined));
  const v = doc.value;
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw badInput({ kind: "not-object" });
  const o = v as Record<string, unknown>;
  const str = (key: string, max = 4096): string | undefined => {
    const x = o[key];
    if (x === undefined) return undefined;
    if (typeof x !== "string") throw badInput({ kind: "not-string", key });
    if (x.length > max) throw new HookInputError(ruleDiagnostic("limit-exceeded", "hookMemberTooLong", { key, max }));
    return x;
  };
  const event = str("hook_event_name", 64) ?? "PreToolUse";
  if (!/^[A-Za-z]+$/.test(event)) throw badInput({ kind: "not-event-name", value: event });
  const input: HookInput = { event, session: str("session_id"), cwd: str("cwd"), raw: o };
  if (input.cwd !== undefined && !isAbsolute(input.cwd)) throw badInput({ kind: "relative-cwd", value: input.cwd.slice(0, 200) });
  const agentId = str("agent_id");
  const agentType = str("agent_type");
  if (agentId !== undefined) input.agentId = agentId;
  if (agentType !== undefined) input.agentType = agentType;
  const useId = str("tool_use_id", 256);
  if (useId !== undefined) input.useId = useId;
  const tool = str("tool_name");
  if (TOOL_EVENTS.has(event) && (tool === undefined || tool === "")) throw badInput({ kind: "no-tool-name" });
  if (tool !== undefined) {
    // Absent is no arguments; null is a member of the wrong type (the host sent something the guard would read as {}).
    const args = o.tool_input === undefined ? {} : o.tool_input;
    if (typeof args !== "object" || args === null || Array.isArray(args)) throw badInput({ kind: "tool-input-not-object" });
    input.tool = tool;
    input.args = args as Record<string, unknown>;
  }
  return input;
}

/**
 * Claude Code's events that run no tool and grant no permission: a session starting, resuming or ending,
 * a prompt, a notification, the agent stopping, compaction. Blocking one protects nothing and breaks the
 * session (a blocked Stop keeps the agent working, a blocked UserPromptSubmit erases the person's prompt,
 * a blocked PreCompact stops compaction), so the guard answers none (exit 0, nothing on stdout). An
 * event not named here, one a later host adds included, is still denied.
 */
const NO_TOOL_EVENTS: ReadonlySet<string> = new Set(["SessionStart", "SessionEnd", "UserPromptSubmit", "Notification", "Stop", "PreCompact", "PostCompact"]);

/**
 * Events the runs do not handle (the deprecated single-file state's too): SubagentStart and SubagentStop
 * are ignored (blocking a SubagentStop would keep the subagent running); any other event,
 * PermissionRequest included, is denied: the guard has decided nothing for it. (With runs, PostToolUse
 * and PostToolUseFailure check the call that ran, ExitPlanMode's events are plan mode.)
 */
export function otherEvent(input: HookInput): { decision: "deny" | "ignore"; reason: string } {
  if (input.event === "SubagentStart" || input.event === "SubagentStop")
    return { decision: "ignore", reason: guardDecision("ignoreSubagentEvent", { event: input.event }) };
  if (NO_TOOL_EVENTS.has(input.event)) return { decision: "ignore", reason: guardDecision("ignoreNoToolEvent", { event: input.event }) };
  const other = guardFailure({ kind: "other-event", event: input.event, ...(input.tool === undefined ? {} : { tool: input.tool }) });
  return { decision: "deny", reason: other.message };
}

/** The largest hook input a state allows (a version 1 state: the default). */
export function maxInputBytesOf(state: GuardState): number {
  return state.max_input_bytes ?? DEFAULT_MAX_INPUT_BYTES;
}

/**
 * `guard start`: verifies and consumes the approval, then writes a new state file (refusing to replace one).
 * `alsoConsumedIn`: another store of consumed approvals (the per-user one, when `consumedDir` is another
 * folder): a single-use approval is recorded there too, so that naming a fresh `consumedDir` cannot replay it.
 */
export async function startGuard(statePath: string, options: GuardOptions & { alsoConsumedIn?: string }): Promise<GuardState> {
  if (existsSync(statePath))
    throw new GuardRefusal([guardFailure({ kind: "state-exists", path: statePath })]);
  if (isInside(statePath, options.workspace))
    throw new GuardRefusal([guardFailure({ kind: "inside-workspace", file: "state", path: statePath, workspace: options.workspace })]);
  for (const [path, what] of [[statePath, "the guard state file"], [options.alsoConsumedIn, "the store of consumed approvals"]] as const) {
    const problem = path === undefined ? undefined : untrustedPlace(path, what);
    if (problem !== undefined) throw new GuardRefusal([guardFailure({ kind: "untrusted-place", problem })]);
  }
  // The run's audit key: every audit line carries an HMAC under it; only the state (0600) keeps it.
  const auditKey = options.auditKey ?? randomBytes(32);
  const { plan, record, audit, now } = await openApproved({ ...options, auditKey });
  if (record.single_use && options.alsoConsumedIn !== undefined && !consumeNonce(options.alsoConsumedIn, record.nonce, now()))
    throw new GuardRefusal(judgeApproval({ step: "guard", consumed: { nonce: record.nonce, recordedIn: options.alsoConsumedIn } }));
  const anchor = audit.anchor();
  const state: GuardState = {
    version: 2,
    plan: plan.file,
    plan_hash: plan.planHash,
    nonce: record.nonce,
    workspace: options.workspace,
    audit: audit.path,
    consumed: options.consumedDir,
    next: 0,
    steps: plan.steps.length,
    audit_head: anchor.head,
    audit_key: anchor.key,
    audit_from: anchor.from,
    audit_bytes: anchor.bytes,
    max_input_bytes: options.policy?.guard.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES,
  };
  if (record.expires_at !== undefined) state.expires_at = record.expires_at;
  const host = hostPolicyOf(options.policy, options.workspace);
  state.host = { commands: hostCommands(host.commands), protected: [...host.protected] };
  writeState(statePath, state);
  return state;
}

/**
 * One hook call: under the state's lock, re-reads the plan, checks the call against the next approved
 * step, records the decision in the audit trail and advances the state on allow. Returns the refusal,
 * or undefined when the call may run. Throws on anything it cannot decide (the caller blocks), and
 * instead of an allow when `commit` says the host was already answered.
 */
export async function hookCall(statePath: string, call: HookCall, now: Date, commit?: () => boolean): Promise<Diagnostic | undefined> {
  return withLock(statePath, async () => {
    const state = readState(statePath);
    const key = auditKeyOf(state);
    if (key === undefined || state.audit_from === undefined || state.audit_bytes === undefined)
      throw new GuardStateError(guardFailure({ kind: "keyless-state", path: statePath }).message);
    let audit: AuditLog;
    try {
      // The head (line count and last hash) from the state pins every line through the chain, so each
      // call checks the chain and the head only; `audit verify --state` also checks each line's MAC.
      audit = new AuditLog(state.audit, { head: state.audit_head, from: state.audit_from, bytes: state.audit_bytes }, key);
    } catch (err) {
      if (err instanceof AuditError) throw new GuardStateError(guardFailure({ kind: "trail-broken", error: err.message }).message);
      throw err;
    }
    const bytes = readPlanBytes(state.plan);
    // The host reads the call's relative paths in its working folder: decided as a run decides it.
    const decision = await decideStep(await approvedPlanOf(state, bytes, now), state.next, bytes, call.tool, call.args, now, { cwd: call.cwd });
    // An allow is recorded only while the host still waits for it (a timeout may have answered already).
    if (decision.allow && commit !== undefined && !commit()) throw new GuardStateError(guardFailure({ kind: "answered" }).message);
    if (decision.allow) state.next++;
    recordDecision(audit, decision, { now, planHash: state.plan_hash, nonce: state.nonce, tool: call.tool, args: call.args, last: decision.allow && state.next === state.steps });
    const after = audit.anchor();
    state.audit_head = after.head;
    state.audit_bytes = after.bytes;
    writeState(statePath, state);
    return decision.allow ? undefined : decision.diagnostic;
  });
}

/** The approved steps, read from the plan itself: its hash is checked against the state before they are used. */
async function approvedPlanOf(state: GuardState, bytes: Uint8Array | undefined, now: Date): Promise<ApprovedPlan> {
  const ap: ApprovedPlan = { file: state.plan, planHash: state.plan_hash, rawHash: "", steps: [], paths: { workspace: state.workspace } };
  // A call's paths are checked with the built-in policy, and the package managers the run's policy lets install outside.
  if (state.host?.commands.installOutside !== undefined) {
    const policy = defaultPolicy(state.workspace);
    policy.commands = { ...policy.commands, installOutside: [...state.host.commands.installOutside] };
    ap.paths = { workspace: state.workspace, policy };
  }
  if (state.expires_at !== undefined) ap.expiresAt = state.expires_at;
  ap.host = state.host ? { workspace: state.workspace, ...state.host } : hostPolicyOf(undefined, state.workspace);
  if (bytes === undefined) return ap;
  const { validatePlan } = await import("./validate-plan.js");
  const report = await validatePlan(bytes, { file: state.plan, workspace: state.workspace, now });
  // Steps are taken only from the approved content; for a changed plan decideStep refuses before using them.
  if (report.planHash === state.plan_hash) {
    ap.steps = approvedSteps(report) ?? [];
    ap.rawHash = sha256Hex(bytes);
  }
  return ap;
}
