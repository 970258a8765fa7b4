import { formatMessage, type MessageData } from "../../core/rule.js";

/**
 * The guard's words for what it lets run, beside guard-failure's for what it cannot decide: the reason of
 * an allow, an ask or an ignored event, and the reasons it writes into audit trails. None is a finding (a
 * call that runs is no error), so they are not this rule's messages; they live here so that the guard's
 * code (src/node, src/store, src/cli) writes no words of its own. Audit reasons are part of trails that are
 * verified later: a change here changes what new trails say, never what old ones must.
 */
export const GUARD_DECISIONS = {
  // The reason of the hook's answer.
  allowNext: "the next approved step",
  allowFree: "{{tool}} is free (guard.free): no step taken",
  allowFreeNoRun: "{{tool}} is free (guard.noRun: allow-free)",
  askNoRun: "plangate: no approved run for this session ({{why}}); allow this call?",
  allowRepeat: "Step {{step}} of the approved plan, again: its call had not taken effect",
  ignoreSubagentEvent: "plangate guard: the {{event}} event is not handled yet; nothing was decided",
  ignoreNoToolEvent: "plangate guard: the {{event}} event runs no tool and grants no permission; nothing was decided (the guard decides PreToolUse)",
  // Why a session has no run: the `why` of guard-failure's noRun messages and of askNoRun.
  noRunNoCwd: "the hook input has no cwd, so no run can be claimed for the session",
  noRunNoPending: "the session has no run and no pending run's scope holds {{cwd}}",
  // The reason of an audit line.
  auditOpen: "{{steps}} steps approved",
  auditClaim: "claimed by the session's first call, from {{cwd}}",
  auditClaimNoCwd: "claimed by the session's first call, from (no cwd)",
  auditFree: "{{tool}} is a free tool: no step taken",
  auditFreeNoRun: "{{tool}} is a free tool (guard.noRun: allow-free)",
  auditRepeat: "step {{step}} again: the same call, which had not taken effect",
  auditSuperseded: "superseded: the person accepted another plan for this session in plan mode",
  auditRanUnallowed: "the host ran a call of {{tool}} ({{event}}) that the guard did not allow: its input was rewritten after the guard decided (another hook's updatedInput), or the guard never saw it",
  auditSubagentStep: "step {{step}} of step {{parent}}'s subagent",
  auditRepairComplete: "completed by guard repair: the last step's line was written",
} as const satisfies Record<string, string>;

export type GuardDecisionId = keyof typeof GUARD_DECISIONS;

/** The words of one of the guard's decisions, filled with its data. */
export function guardDecision(id: GuardDecisionId, data?: MessageData): string {
  return formatMessage(GUARD_DECISIONS[id], data);
}
