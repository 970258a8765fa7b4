import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-expired",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval has expired, or is dated in the future.",
    docs: {
      description:
        "Reports an approval whose `expires_at` (set by `approve --ttl`) has passed, or whose `validated_at` is more than 5 minutes in the future. The execution guard also refuses the remaining steps once the approval expires. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "An approval is a decision about the world as it was; a short lifetime limits how long a leaked approval can be used.",
      fix: "Validate and approve the plan again.",
      bad: "plangate verify plan.json --approval approved-yesterday-ttl-1h.json",
      good: "plangate verify plan.json --approval approved-just-now.json",
    },
  },
});
