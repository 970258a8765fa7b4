import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../core/canonical/jcs.js";
import { type ApprovedPlan, decideStep } from "../../node/guard.js";
import { NOW } from "../../../test/helpers.js";
import { PLAN } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { guardInput, recordInput } from "../../../test/kind-inputs.js";
import type { GuardStepFacts } from "../../core/input/approval.js";

describe("guard-step-mismatch", () => {
  const bytes = new TextEncoder().encode(JSON.stringify(PLAN));
  const approved = async (): Promise<ApprovedPlan> => {
    const { planHash } = await import("../../ops/hash.js");
    return { file: "plan.json", planHash: (await planHash(bytes, { file: "plan.json" }))!, rawHash: "", steps: PLAN.map((s) => ({ tool: s.tool, args: canonicalJson(s.params) })) };
  };
  it("reports another tool, other arguments, a step out of order and a call after the last step", async () => {
    const ap = await approved();
    const d1 = await decideStep(ap, 0, bytes, "write_file", PLAN[0]!.params, NOW);
    expect(d1.allow || d1.diagnostic.rule).toBe("guard-step-mismatch");
    const d2 = await decideStep(ap, 1, bytes, "write_file", { path: "out.txt", content: "evil" }, NOW);
    expect(d2.allow ? undefined : d2.diagnostic.message).toMatch(/^Step 2: the arguments/);
    const d3 = await decideStep(ap, 0, bytes, "write_file", PLAN[1]!.params, NOW);
    expect(d3.allow ? undefined : d3.diagnostic.hint).toMatch(/step 2/);
    const d4 = await decideStep(ap, 3, bytes, "read_file", PLAN[0]!.params, NOW);
    expect(d4.allow ? undefined : d4.diagnostic.rule).toBe("guard-step-mismatch");
  });
  it("allows exactly the next step, whatever the key order of its arguments", async () => {
    const ap = await approved();
    expect(await decideStep(ap, 1, bytes, "write_file", { content: "ok", path: "out.txt" }, NOW)).toEqual({ allow: true, step: 2 });
  });
});

const mismatch = (m: GuardStepFacts) => guardInput({ mismatch: m });
const WRITE = { tool: "write_file", arguments: { path: "out.txt", content: "ok" } };
const A = { agentId: "a1", agentType: "explore" };

kindRuleTester("guard-step-mismatch", "approval", {
  valid: [
    { name: "a guard step with no mismatch", input: guardInput({}) },
    { name: "another approval step", input: recordInput() },
  ],
  invalid: [
    {
      name: "after the last step",
      input: mismatch({ kind: "after-last", steps: 2, tool: "Bash", call: { tool: "Bash", arguments: { command: "ls" } } }),
      errors: [{ messageId: "afterLast", message: 'All 2 approved steps have run; the call to "Bash" is not in the plan.', hint: "approve a new plan for further work", actual: { tool: "Bash", arguments: { command: "ls" } } }],
    },
    {
      name: "another tool, in a subagent, optional steps skipped",
      input: mismatch({ kind: "other-call", step: 3, expected: WRITE, actual: { tool: "read_file", arguments: {} }, skipped: { from: 1, to: 2 }, subagentOf: 4 }),
      errors: [
        {
          messageId: "otherTool",
          step: 3,
          message: 'In the subagent of step 4: Step 3: the call is to "read_file", but the approved step 3 is "write_file" (optional steps 1–2 did not match either).',
          hint: "run exactly the approved step, or approve a new plan",
          expected: WRITE,
        },
      ],
    },
    {
      name: "other arguments, a later step",
      input: mismatch({ kind: "other-call", step: 1, expected: WRITE, actual: { tool: "write_file", arguments: {} }, later: 2 }),
      errors: [{ messageId: "otherArguments", message: 'Step 1: the arguments of "write_file" differ from the approved ones.', hint: "that call is step 2: steps run only in the approved order" }],
    },
    {
      name: "differing keys",
      input: mismatch({ kind: "other-call", step: 1, expected: WRITE, actual: { tool: "write_file", arguments: { path: "out.txt" } }, differing: [{ key: "content", expected: "ok", actual: undefined }] }),
      errors: [{ messageId: "differingKeys", message: 'Step 1: the "write_file" call differs from the approved one in "content" (content: expected "ok", got (absent)).' }],
    },
    {
      name: "a CREATE's target exists",
      input: mismatch({ kind: "target-exists", step: 2, path: "a.txt", tool: "Write" }),
      errors: [{ messageId: "targetExists", step: 2, message: 'Step 2 creates a.txt (a CREATE without Overwrite), but a.txt exists now: the "Write" call would replace it, which the approved plan does not do.' }],
    },
    { name: "a stray subagent's call", input: mismatch({ kind: "stray-call", tool: "Read", agentId: "s1" }), errors: [{ messageId: "strayCall", message: 'The call to "Read" comes from subagent "s1", which started without an approved Task/Agent step (or while another subagent ran).' }] },
    {
      name: "another agent's call",
      input: mismatch({ kind: "other-agent-call", tool: "Read", agentId: "x", running: { agentId: null, step: 2 } }),
      errors: [{ messageId: "otherAgentCall", message: 'The call to "Read" comes from agent "x", but the running subagent is unnamed (step 2).' }],
    },
    { name: "an agent's call, none running", input: mismatch({ kind: "other-agent-call", tool: "Read", agentId: "x" }), errors: [{ messageId: "noAgentCall" }] },
    {
      name: "an untagged call among strays",
      input: mismatch({ kind: "untagged-call", tool: "Read", strays: ["s1", null] }),
      errors: [{ messageId: "untaggedCall", message: 'The call to "Read" carries no agent id and subagent "s1", (unnamed) started outside the approved steps: it cannot be told which agent made it.' }],
    },
    { name: "an untagged call, too many strays", input: mismatch({ kind: "untagged-call", tool: "Read", strays: "overflow" }), errors: [{ messageId: "untaggedOverflow", hint: "approve a new plan and start a new run" }] },
    { name: "the main agent while a subagent runs", input: mismatch({ kind: "subagent-running", tool: "Read", step: 2 }), errors: [{ messageId: "subagentRunning" }] },
    {
      name: "a step left unfinished",
      input: mismatch({ kind: "step-open", tool: "Read", step: 2, stepTool: "Task", missing: [1, 2, 3, 4, 5, 6, 7, 8, 9] }),
      errors: [{ messageId: "stepUnfinished", message: 'The call to "Read" cannot run: the subagent of step 2 stopped before its steps 1, 2, 3, 4, 5, 6, 7, 8… ran.', hint: 'call step 2\'s "Task" again to finish its steps, or approve a new plan' }],
    },
    { name: "a step's subagent not started", input: mismatch({ kind: "step-open", tool: "Read", step: 2, stepTool: "Task" }), errors: [{ messageId: "stepNotStarted" }] },
    { name: "no nested steps", input: mismatch({ kind: "no-nested-steps", tool: "Read", step: 2 }), errors: [{ messageId: "noNestedSteps" }] },
    {
      name: "started again while running",
      input: mismatch({ kind: "started-again", agent: A, step: 2 }),
      errors: [{ messageId: "startedAgain", step: 2, message: 'Subagent "a1" ("explore") was reported started again while it runs step 2; it keeps its place.' }],
    },
    { name: "a stray started again", input: mismatch({ kind: "started-again", agent: { agentId: null } }), errors: [{ messageId: "strayStartedAgain", message: "Subagent (no agent id) was reported started again; it stays outside the plan and its calls are denied." }] },
    { name: "started while another runs", input: mismatch({ kind: "started-while-running", agent: A, step: 2 }), errors: [{ messageId: "startedWhileRunning", step: 2 }] },
    { name: "started while a step is open", input: mismatch({ kind: "started-step-open", agent: A, step: 2, stepTool: "Task" }), errors: [{ messageId: "startedStepOpen", step: 2 }] },
    {
      name: "another agent type",
      input: mismatch({ kind: "agent-type", agent: A, step: 2, approved: "plan" }),
      errors: [{ messageId: "agentType", step: 2, message: 'Subagent "a1" ("explore") is of type "explore", but step 2 approves "plan": its calls are denied.', expected: "plan", actual: "explore" }],
    },
    { name: "started with no call", input: mismatch({ kind: "started-unlaunched", agent: A }), errors: [{ messageId: "startedUnlaunched", hint: "run subagents only through the approved Task/Agent steps" }] },
    {
      name: "started with no call, the plan at a step",
      input: mismatch({ kind: "started-unlaunched", agent: A, at: 3 }),
      errors: [{ messageId: "startedUnlaunchedAt", step: 3, hint: "run subagents only through the approved Task/Agent steps (the plan is at step 3)" }],
    },
    {
      name: "no Task step fits",
      input: mismatch({ kind: "no-task-step", agent: A, why: { kind: "type", step: 2, approved: "plan" } }),
      errors: [{ messageId: "noTaskStep", message: 'Subagent "a1" ("explore") matches no approved Task/Agent step: step 2 approves a subagent of type "plan", not "explore". Its calls are denied until it stops.' }],
    },
    { name: "the next step is another call", input: mismatch({ kind: "no-task-step", agent: A, why: { kind: "other-step", step: 2, tool: "Read" } }), errors: [{ messageId: "noTaskStep", message: 'Subagent "a1" ("explore") matches no approved Task/Agent step: the next approved step is 2, a "Read" call. Its calls are denied until it stops.' }] },
    { name: "all steps have run", input: mismatch({ kind: "no-task-step", agent: A, why: { kind: "done" } }), errors: [{ messageId: "noTaskStep", message: 'Subagent "a1" ("explore") matches no approved Task/Agent step: all approved steps have run. Its calls are denied until it stops.' }] },
    {
      name: "another subagent stopped",
      input: mismatch({ kind: "stop-not-running", agent: { agentId: "b" }, running: A }),
      errors: [{ messageId: "stopNotRunning", message: 'Subagent "b" stopped, but the running subagent is "a1" ("explore"); nothing changes.' }],
    },
    { name: "stopped, none running", input: mismatch({ kind: "stop-not-running", agent: { agentId: "b" } }), errors: [{ messageId: "stopNoneRunning" }] },
    {
      name: "stopped early",
      input: mismatch({ kind: "stopped-early", step: 2, stepTool: "Task", missing: [2, 3] }),
      errors: [{ messageId: "stoppedEarly", step: 2, message: "The subagent of step 2 stopped before its steps 2, 3 ran: the plan cannot go on past step 2 until they do." }],
    },
  ],
});
