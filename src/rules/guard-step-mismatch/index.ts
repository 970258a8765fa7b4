import { clip } from "../../core/canonical/clip.js";
import type { GuardAgent } from "../../core/input/approval.js";
import { defineRule } from "../../core/rule.js";

const IN_ORDER = "steps run only in the approved order";
const EXACTLY = "run exactly the approved step, or approve a new plan";

/** An agent as the messages name it: its id (clipped), and its type when known. */
function agentName(agent: GuardAgent): string {
  const id = agent.agentId === null ? "(no agent id)" : clip(agent.agentId);
  return agent.agentType === undefined ? id : `${id} (${clip(agent.agentType)})`;
}

/** The start of a message about a call matched against a subagent's nested steps. */
function within(step: number | undefined): string {
  return step === undefined ? "" : `In the subagent of step ${step}: `;
}

/** Nested step numbers, at most 8 of them. */
function stepList(steps: readonly number[]): string {
  return steps.length > 8 ? `${steps.slice(0, 8).join(", ")}…` : steps.join(", ");
}

/**
 * An "approval" rule: it judges a tool call during the enforcement of an approval, against the
 * steps the verified approval record lets run, so its input is of the approval kind (a guard step).
 * The guard's matching code (src/approval/match.ts, progress.ts, guard.ts, runs.ts and the host
 * profiles) records how a call or a subagent event misses the plan as the step's `mismatch`; this
 * rule words it. Always an error.
 */
export default defineRule({
  meta: {
    id: "guard-step-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      afterLast: { message: '{{within}}All {{steps}} approved steps have run; the call to "{{tool}}" is not in the plan.', hint: "approve a new plan for further work" },
      otherTool: { message: '{{within}}Step {{step}}: the call is to "{{tool}}", but the approved step {{step}} is "{{approvedTool}}"{{skipped}}.', hint: EXACTLY },
      otherArguments: { message: '{{within}}Step {{step}}: the arguments of "{{tool}}" differ from the approved ones.', hint: EXACTLY },
      differingKeys: { message: '{{within}}Step {{step}}: the "{{tool}}" call differs from the approved one in {{keys}} ({{detail}}){{skipped}}.', hint: EXACTLY },
      targetExists: {
        message: 'Step {{step}} creates {{path}} (a CREATE without Overwrite), but {{path}} exists now: the "{{tool}}" call would replace it, which the approved plan does not do.',
        hint: "remove the file if it should not be there, or approve a plan whose CREATE says Overwrite: true",
      },
      strayCall: {
        message: 'The call to "{{tool}}" comes from subagent {{agent}}, which started without an approved Task/Agent step (or while another subagent ran).',
        hint: "run subagents only as the approved Task/Agent steps, one at a time",
      },
      otherAgentCall: {
        message: 'The call to "{{tool}}" comes from agent {{agent}}, but the running subagent is {{running}} (step {{step}}).',
        hint: "only the subagent started for the current Task/Agent step may call tools; check that the SubagentStart and SubagentStop hooks run plangate",
      },
      noAgentCall: {
        message: 'The call to "{{tool}}" comes from agent {{agent}}, but no approved subagent is running.',
        hint: "only the subagent started for the current Task/Agent step may call tools; check that the SubagentStart and SubagentStop hooks run plangate",
      },
      untaggedCall: {
        message: 'The call to "{{tool}}" carries no agent id and subagent {{strays}} started outside the approved steps: it cannot be told which agent made it.',
        hint: "wait until that subagent stops; run subagents only as the approved Task/Agent steps, one at a time",
      },
      untaggedOverflow: {
        message: 'The call to "{{tool}}" carries no agent id and too many subagents started outside the plan: it cannot be told which agent made it.',
        hint: "approve a new plan and start a new run",
      },
      subagentRunning: {
        message: 'The subagent of step {{step}} is still running; the call to "{{tool}}" from the main agent must wait until it stops.',
        hint: "wait for the subagent to finish: the plan resumes after its SubagentStop",
      },
      stepUnfinished: {
        message: 'The call to "{{tool}}" cannot run: the subagent of step {{step}} stopped before its steps {{missing}} ran.',
        hint: 'call step {{step}}\'s "{{stepTool}}" again to finish its steps, or approve a new plan',
      },
      stepNotStarted: {
        message: 'The call to "{{tool}}" cannot run: step {{step}}\'s subagent has not started yet.',
        hint: "wait for the subagent to start and finish; run one subagent at a time",
      },
      noNestedSteps: {
        message: 'In the subagent of step {{step}}: the call to "{{tool}}" is not approved; this step approves no calls but free tools.',
        hint: "give the Task/Agent step the steps its subagent takes, and approve the plan again",
      },
      startedAgain: { message: "Subagent {{agent}} was reported started again while it runs step {{step}}; it keeps its place.", hint: "nothing to do if the host resumed it; otherwise check the hook configuration" },
      strayStartedAgain: { message: "Subagent {{agent}} was reported started again; it stays outside the plan and its calls are denied.", hint: "run subagents only as the approved Task/Agent steps" },
      startedWhileRunning: {
        message: "Subagent {{agent}} started while the subagent of step {{step}} runs: its calls, and every call without an agent id, are denied until it stops.",
        hint: "run subagents one at a time, each as its approved Task/Agent step",
      },
      startedStepOpen: {
        message: 'Subagent {{agent}} started, but no "{{stepTool}}" call was allowed to start it: step {{step}} is still open.',
        hint: 'call step {{step}}\'s "{{stepTool}}" again to finish its steps',
      },
      agentType: { message: "Subagent {{agent}} is of type {{type}}, but step {{step}} approves {{approved}}: its calls are denied.", hint: "start the subagent type the plan names" },
      startedUnlaunched: {
        message: "Subagent {{agent}} started, but no Task/Agent call was allowed to start it: its calls are denied.",
        hint: "run subagents only through the approved Task/Agent steps",
      },
      startedUnlaunchedAt: {
        message: "Subagent {{agent}} started, but no Task/Agent call was allowed to start it: its calls are denied.",
        hint: "run subagents only through the approved Task/Agent steps (the plan is at step {{step}})",
      },
      noTaskStep: { message: "Subagent {{agent}} matches no approved Task/Agent step: {{why}}. Its calls are denied until it stops.", hint: "run subagents only as the approved Task/Agent steps, in order" },
      stopNotRunning: { message: "Subagent {{agent}} stopped, but the running subagent is {{running}}; nothing changes.", hint: "check that the SubagentStart hook runs plangate" },
      stopNoneRunning: { message: "Subagent {{agent}} stopped, but no subagent is running; nothing changes.", hint: "check that the SubagentStart hook runs plangate" },
      stoppedEarly: {
        message: "The subagent of step {{step}} stopped before its steps {{missing}} ran: the plan cannot go on past step {{step}} until they do.",
        hint: 'call step {{step}}\'s "{{stepTool}}" again so a subagent finishes them, or approve a new plan',
      },
    },
    summary: "The tool call is not the next approved step.",
    docs: {
      description:
        "Reports, in the execution guard and the `plangate guard` hook, a tool call whose tool or canonical arguments (RFC 8785 JSON) differ from the next approved step, a step run out of order (the hint says which step the call is), and any call after the last approved step. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The approved plan is the plan that runs: an executor that skips, reorders, adds or alters a step runs something nobody approved.",
      fix: "Run exactly the next approved step; for different work, write and approve a new plan.",
      bad: "next approved step: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}; call: write_file {\"path\": \"out.txt\", \"content\": \"rm -rf\"}",
      good: "next approved step: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}; call: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}",
    },
  },
  check(input, ctx) {
    if (input.step !== "guard" || !input.mismatch) return;
    const f = input.mismatch;
    switch (f.kind) {
      case "after-last":
        return ctx.report({ messageId: "afterLast", data: { within: within(f.subagentOf), steps: f.steps, tool: f.tool }, ...(f.call ? { actual: f.call } : {}) });
      case "other-call": {
        const skipped = f.skipped ? ` (optional steps ${f.skipped.from}–${f.skipped.to} did not match either)` : "";
        const hint = f.later !== undefined ? `that call is step ${f.later}: ${IN_ORDER}` : undefined;
        const common = { step: f.step, expected: f.expected, actual: f.actual, ...(hint !== undefined ? { hint } : {}) };
        const data = { within: within(f.subagentOf), step: f.step, tool: f.actual.tool, skipped };
        if (f.actual.tool !== f.expected.tool) return ctx.report({ messageId: "otherTool", data: { ...data, approvedTool: f.expected.tool }, ...common });
        if (!f.differing) return ctx.report({ messageId: "otherArguments", data, ...common });
        const keys = f.differing.map((d) => `"${d.key}"`).join(", ");
        const detail = f.differing.map((d) => `${d.key}: expected ${clip(d.expected)}, got ${clip(d.actual)}`).join("; ");
        return ctx.report({ messageId: "differingKeys", data: { ...data, keys, detail }, ...common });
      }
      case "target-exists":
        return ctx.report({ messageId: "targetExists", data: { step: f.step, path: f.path, tool: f.tool }, step: f.step });
      case "stray-call":
        return ctx.report({ messageId: "strayCall", data: { tool: f.tool, agent: clip(f.agentId) } });
      case "other-agent-call":
        if (!f.running) return ctx.report({ messageId: "noAgentCall", data: { tool: f.tool, agent: clip(f.agentId) } });
        return ctx.report({
          messageId: "otherAgentCall",
          data: { tool: f.tool, agent: clip(f.agentId), running: f.running.agentId === null ? "unnamed" : clip(f.running.agentId), step: f.running.step },
        });
      case "untagged-call":
        if (f.strays === "overflow") return ctx.report({ messageId: "untaggedOverflow", data: { tool: f.tool } });
        return ctx.report({ messageId: "untaggedCall", data: { tool: f.tool, strays: f.strays.map((id) => (id === null ? "(unnamed)" : clip(id))).join(", ") } });
      case "subagent-running":
        return ctx.report({ messageId: "subagentRunning", data: { step: f.step, tool: f.tool } });
      case "step-open":
        if (f.missing) return ctx.report({ messageId: "stepUnfinished", data: { tool: f.tool, step: f.step, stepTool: f.stepTool, missing: stepList(f.missing) } });
        return ctx.report({ messageId: "stepNotStarted", data: { tool: f.tool, step: f.step } });
      case "no-nested-steps":
        return ctx.report({ messageId: "noNestedSteps", data: { step: f.step, tool: f.tool } });
      case "started-again":
        if (f.step === undefined) return ctx.report({ messageId: "strayStartedAgain", data: { agent: agentName(f.agent) } });
        return ctx.report({ messageId: "startedAgain", data: { agent: agentName(f.agent), step: f.step }, step: f.step });
      case "started-while-running":
        return ctx.report({ messageId: "startedWhileRunning", data: { agent: agentName(f.agent), step: f.step }, step: f.step });
      case "started-step-open":
        return ctx.report({ messageId: "startedStepOpen", data: { agent: agentName(f.agent), step: f.step, stepTool: f.stepTool }, step: f.step });
      case "agent-type":
        return ctx.report({
          messageId: "agentType",
          data: { agent: agentName(f.agent), type: clip(f.agent.agentType), step: f.step, approved: clip(f.approved) },
          step: f.step,
          expected: f.approved,
          actual: f.agent.agentType,
        });
      case "started-unlaunched":
        if (f.at === undefined) return ctx.report({ messageId: "startedUnlaunched", data: { agent: agentName(f.agent) } });
        return ctx.report({ messageId: "startedUnlaunchedAt", data: { agent: agentName(f.agent), step: f.at }, step: f.at });
      case "no-task-step": {
        const w = f.why;
        const why =
          w.kind === "type"
            ? `step ${w.step} approves a subagent of type ${clip(w.approved)}, not ${clip(f.agent.agentType)}`
            : w.kind === "other-step"
              ? `the next approved step is ${w.step}, a "${w.tool}" call`
              : "all approved steps have run";
        return ctx.report({ messageId: "noTaskStep", data: { agent: agentName(f.agent), why } });
      }
      case "stop-not-running":
        if (!f.running) return ctx.report({ messageId: "stopNoneRunning", data: { agent: agentName(f.agent) } });
        return ctx.report({ messageId: "stopNotRunning", data: { agent: agentName(f.agent), running: agentName(f.running) } });
      case "stopped-early":
        return ctx.report({ messageId: "stoppedEarly", data: { step: f.step, stepTool: f.stepTool, missing: stepList(f.missing) }, step: f.step });
    }
  },
});
