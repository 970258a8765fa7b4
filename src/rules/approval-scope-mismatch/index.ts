import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the conditions step: the approved workspace against the one in force. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-scope-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      otherWorkspace: {
        message: "The approval is for workspace {{scope}}, not {{workspace}}.",
        hint: "run the plan in the workspace it was approved for, or approve it for this one",
      },
    },
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
  check(input, ctx) {
    // A scope that is not an absolute path is approval-invalid's.
    if (input.step !== "conditions" || input.scopeReal === undefined || input.scopeReal === input.workspace) return;
    const scope = input.approved.scope;
    ctx.report({ messageId: "otherWorkspace", data: { scope, workspace: input.workspace }, expected: scope, actual: input.workspace });
  },
});
