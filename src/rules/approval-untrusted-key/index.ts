import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the envelope step: whether any trusted key could check the signature. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-untrusted-key",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      noTrustedKeys: {
        message: "No trusted keys were given, so the approval's signature cannot be checked.",
        hint: "pass --trusted-keys DIR|FILE, or set approval.trustedKeys in plangate.yaml",
      },
      unknownSigner: {
        message: "The approval is signed by key {{keyids}}, which is not among the trusted keys.",
        hint: "have it approved with a trusted key, or add the signer's public key to --trusted-keys after checking whose it is",
      },
    },
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
  check(input, ctx) {
    if (input.step !== "envelope" || input.unreadable) return;
    const s = input.signature;
    if (s?.kind === "no-trusted-keys") ctx.report({ messageId: "noTrustedKeys" });
    else if (s?.kind === "unknown-signer") ctx.report({ messageId: "unknownSigner", data: { keyids: s.keyids.map((k) => (k ? `${k.slice(0, 16)}…` : "(no keyid)")).join(", ") } });
  },
});
