import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-policy-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval was made under another policy or tool registry.",
    docs: {
      description:
        "Reports an approval whose `policy_hash` differs from the hash of the policy file in force, or whose `tools_hash` differs from the tool registry in force. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "A plan valid under a strict policy may be invalid under a loose one; an approval binds the rules it was checked against, so loosening the policy afterwards cannot widen what runs.",
      fix: "Use the policy file and tool registry the plan was approved with, or approve it again under the current ones.",
      bad: "plangate verify plan.json --approval approval.json --policy looser.yaml",
      good: "plangate verify plan.json --approval approval.json --policy plangate.yaml",
    },
  },
});
