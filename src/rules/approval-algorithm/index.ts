import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-algorithm",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval was signed with an algorithm other than Ed25519.",
    docs: {
      description:
        "Reports an approval whose record names a signature algorithm other than `ed25519`, or that matches a trusted key that is not an Ed25519 key (RSA, ECDSA…). plangate signs and verifies with Ed25519 only. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "Accepting several algorithms invites downgrade and key-confusion attacks (a verifier tricked into checking an HMAC with a public key); one fixed algorithm closes them.",
      fix: "Generate an Ed25519 key pair with `plangate keygen` and approve again.",
      bad: "record: \"signer\": {\"keyid\": \"…\", \"alg\": \"rsa-pss-sha256\"}",
      good: "record: \"signer\": {\"keyid\": \"…\", \"alg\": \"ed25519\"}",
    },
  },
});
