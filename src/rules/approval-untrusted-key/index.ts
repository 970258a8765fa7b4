import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-untrusted-key",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval is signed by a key that is not trusted, or no trusted keys were given.",
    docs: {
      description:
        "Reports a signed approval when no trusted keys were given (`--trusted-keys` or the policy's `approval.trustedKeys`), or when none of its signatures is by a trusted key. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "Anyone can generate a key and sign; a signature means something only when the key belongs to someone allowed to approve plans.",
      fix: "Have the plan approved with a trusted key, or add the signer's public key to the trusted keys after checking whose it is.",
      bad: "plangate verify plan.json --approval signed-by-stranger.json --trusted-keys keys/",
      good: "plangate verify plan.json --approval approval.json --trusted-keys keys/",
    },
  },
});
