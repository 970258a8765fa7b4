import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-plan-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
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
});
