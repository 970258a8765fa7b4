import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-scope-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval is for another workspace.",
    docs: {
      description:
        "Reports an approval whose `scope` (the real path of the workspace it was approved for) is not the workspace the plan is about to run in. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "A plan approved for a scratch folder must not be replayed against another project: its paths would mean other files there (the intake protocol §4).",
      fix: "Run the plan in the workspace it was approved for, or approve it for this one.",
      bad: "plangate verify plan.json --approval approval.json --workspace /other/project",
      good: "plangate verify plan.json --approval approval.json --workspace /the/approved/project",
    },
  },
});
