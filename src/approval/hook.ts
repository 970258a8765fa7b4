import { existsSync } from "node:fs";
import { sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { validatePlan } from "../engine.js";
import { AuditError, AuditLog } from "./audit.js";
import { type ApprovedPlan, approvedSteps, decideStep, type GuardOptions, GuardRefusal, openApproved, readPlanBytes, recordDecision } from "./guard.js";
import { isInside } from "./keys.js";
import { approvalDiagnostic as fail } from "./record.js";
import { type GuardState, GuardStateError, readState, withLock, writeState } from "./state.js";

/** A Claude Code PreToolUse hook input, as far as the guard reads it. */
export interface HookCall {
  tool: string;
  args: Record<string, unknown>;
}

/** Reads a PreToolUse hook's JSON (tool_name, tool_input); throws GuardStateError on anything else. */
export function parseHookInput(bytes: Uint8Array): HookCall {
  let v: unknown;
  try {
    v = JSON.parse(Buffer.from(bytes).toString("utf8"));
  } catch {
    throw new GuardStateError("the hook input on standard input is not JSON");
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new GuardStateError("the hook input is not a JSON object");
  const o = v as Record<string, unknown>;
  if (o.hook_event_name !== undefined && o.hook_event_name !== "PreToolUse")
    throw new GuardStateError(`the guard answers PreToolUse hooks, not ${JSON.stringify(o.hook_event_name)}`);
  if (typeof o.tool_name !== "string" || o.tool_name === "") throw new GuardStateError("the hook input has no tool_name");
  const input = o.tool_input ?? {};
  if (typeof input !== "object" || input === null || Array.isArray(input)) throw new GuardStateError("the hook input's tool_input is not an object");
  return { tool: o.tool_name, args: input as Record<string, unknown> };
}

/** `guard start`: verifies and consumes the approval, then writes a new state file (refusing to replace one). */
export async function startGuard(statePath: string, options: GuardOptions): Promise<GuardState> {
  if (existsSync(statePath))
    throw new GuardRefusal([fail("guard-failure", `The guard state ${statePath} already exists: a run is in progress or finished.`, "use a new state file for a new approval")]);
  if (isInside(statePath, options.workspace))
    throw new GuardRefusal([fail("guard-failure", `The guard state ${statePath} is inside the workspace ${options.workspace}, where the plan's steps could rewrite it.`, "keep the guard's files outside the workspace")]);
  const { plan, record, audit } = await openApproved(options);
  const state: GuardState = {
    version: 1,
    plan: plan.file,
    plan_hash: plan.planHash,
    nonce: record.nonce,
    workspace: options.workspace,
    audit: audit.path,
    consumed: options.consumedDir,
    next: 0,
    steps: plan.steps.length,
    audit_head: audit.head,
  };
  if (record.expires_at !== undefined) state.expires_at = record.expires_at;
  writeState(statePath, state);
  return state;
}

/**
 * One hook call: under the state's lock, re-reads the plan, checks the call against the next approved
 * step, records the decision in the audit trail and advances the state on allow. Returns the refusal,
 * or undefined when the call may run. Throws on anything it cannot decide (the caller blocks).
 */
export async function hookCall(statePath: string, call: HookCall, now: Date): Promise<Diagnostic | undefined> {
  return withLock(statePath, async () => {
    const state = readState(statePath);
    let audit: AuditLog;
    try {
      audit = new AuditLog(state.audit, state.audit_head);
    } catch (err) {
      if (err instanceof AuditError) throw new GuardStateError(`the audit trail is broken: ${err.message}`);
      throw err;
    }
    const bytes = readPlanBytes(state.plan);
    const decision = await decideStep(await approvedPlanOf(state, bytes, now), state.next, bytes, call.tool, call.args, now);
    if (decision.allow) state.next++;
    recordDecision(audit, decision, { now, planHash: state.plan_hash, nonce: state.nonce, tool: call.tool, args: call.args, last: decision.allow && state.next === state.steps });
    state.audit_head = audit.head;
    writeState(statePath, state);
    return decision.allow ? undefined : decision.diagnostic;
  });
}

/** The approved steps, read from the plan itself: its hash is checked against the state before they are used. */
async function approvedPlanOf(state: GuardState, bytes: Uint8Array | undefined, now: Date): Promise<ApprovedPlan> {
  const ap: ApprovedPlan = { file: state.plan, planHash: state.plan_hash, rawHash: "", steps: [], paths: { workspace: state.workspace } };
  if (state.expires_at !== undefined) ap.expiresAt = state.expires_at;
  if (bytes === undefined) return ap;
  const report = await validatePlan(bytes, { file: state.plan, workspace: state.workspace, now });
  // Steps are taken only from the approved content; for a changed plan decideStep refuses before using them.
  if (report.planHash === state.plan_hash) {
    ap.steps = approvedSteps(report) ?? [];
    ap.rawHash = sha256Hex(bytes);
  }
  return ap;
}
