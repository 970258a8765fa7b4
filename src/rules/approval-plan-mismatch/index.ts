import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the record step (the plan hash now against the approved one) and the guard step (the plan file before each step or call, and while a run starts). The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-plan-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      unreadable: { message: "The plan cannot be read, so it cannot be the approved plan.", hint: "restore the approved plan" },
      changed: {
        message: "The plan hash {{now}} differs from the approved {{approved}}: the plan was changed after approval, or this approval is for another plan.",
        hint: "restore the approved plan, or validate and approve the new one",
      },
      fileUnreadable: { message: "The plan {{file}} cannot be read, so it is not the approved plan.", hint: "restore the approved plan" },
      changedBeforeStep: {
        message: "The plan {{file}} changed after approval (hash {{hash}}, approved {{approved}}); no further step runs.",
        hint: "restore the approved plan, or validate and approve the new one",
      },
      changedBeforeCall: {
        message: "The plan {{file}} is not byte for byte the approved file ({{raw}}, approved {{approved}}); no further call runs.",
        hint: "restore the approved file exactly (a reformatted plan needs a new approval)",
      },
      notCheckedBytes: { message: "The plan {{file}} is not the bytes that were checked.", hint: "start the run again" },
      changedWhileStarting: { message: "The plan {{file}} changed while its run was starting.", hint: "start the run again" },
    },
    summary: "The plan is not the one the approval is for.",
    docs: {
      description:
        "Reports a plan whose plan hash differs from the approval's `plan_hash`: the plan was edited after approval, or the approval belongs to another plan. The execution guard reports it too when the plan on disk changes between steps. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The intake protocol: once approved the plan is immutable; any modification is detected and rejected. Substituting an approval of another plan is the same attack from the other side.",
      fix: "Restore the approved plan, or validate and approve the new one.",
      bad: "plangate verify edited-plan.json --approval approval.json --trusted-keys keys/",
      good: "plangate verify plan.json --approval approval.json --trusted-keys keys/",
    },
  },
  check(input, ctx) {
    if (input.step === "record") {
      const plan = input.plan;
      if (!plan || input.schemaErrors.length > 0) return;
      if (plan.now === undefined) ctx.report({ messageId: "unreadable", expected: plan.approved });
      else if (plan.now !== plan.approved) ctx.report({ messageId: "changed", data: { now: plan.now, approved: plan.approved }, expected: plan.approved, actual: plan.now });
      return;
    }
    if (input.step !== "guard" || !input.plan) return;
    const p = input.plan;
    const file = p.file;
    if (p.kind === "step") {
      if (!p.readable) ctx.report({ messageId: "fileUnreadable", data: { file } });
      // Only a file whose bytes changed is hashed again: a reformatted file with the same canonical content is the same plan.
      else if (p.rehashed && p.hash !== p.approved)
        ctx.report({ messageId: "changedBeforeStep", data: { file, hash: p.hash ?? "unreadable", approved: p.approved }, expected: p.approved, ...(p.hash !== undefined ? { actual: p.hash } : {}) });
    } else if (p.kind === "call") {
      if (p.raw === undefined) ctx.report({ messageId: "fileUnreadable", data: { file } });
      else if (p.raw !== p.approved) ctx.report({ messageId: "changedBeforeCall", data: { file, raw: p.raw, approved: p.approved }, expected: p.approved, actual: p.raw });
    } else if (!p.same) ctx.report({ messageId: p.source === "given" ? "notCheckedBytes" : "changedWhileStarting", data: { file } });
  },
});
