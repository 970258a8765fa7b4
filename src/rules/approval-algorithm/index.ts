import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the envelope step: the signer algorithm the record declares and the trusted key that signed it. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-algorithm",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      declared: { message: "The approval was signed with {{alg}}; plangate accepts only Ed25519.", hint: "sign with an Ed25519 key from `plangate keygen`" },
      trustedKey: { message: "The trusted key {{keyid}}… ({{file}}) is {{alg}}; plangate accepts only Ed25519.", hint: "replace it with an Ed25519 public key from `plangate keygen`" },
    },
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
  check(input, ctx) {
    if (input.step !== "envelope" || input.unreadable) return;
    const s = input.signature;
    if (s?.kind === "declared-algorithm") ctx.report({ messageId: "declared", data: { alg: String(JSON.stringify(s.alg)) } });
    else if (s?.kind === "key-algorithm") ctx.report({ messageId: "trustedKey", data: { keyid: s.keyid.slice(0, 16), file: s.file, alg: s.alg } });
  },
});
