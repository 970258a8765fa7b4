import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the envelope step (is the approval signed, does the signature verify and bind its signer) and the signing step of `approve`. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-signature",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      unsigned: {
        message: "The approval is not signed: anyone who can write the file could have made it.",
        hint: "approve with `plangate approve --key KEY`, or pass --allow-unsigned if the file comes from a trusted channel",
      },
      noSignature: { message: "The approval envelope has no signature.", hint: "sign it with `plangate approve --key KEY`" },
      doesNotVerify: {
        message: "The approval's signature does not verify: the record was changed after signing, or signed by another key.",
        hint: "approve the plan again; never edit an approval by hand",
      },
      signerMissing: { message: "The signed record has no signer field, so the key that signed it is not bound into it.", hint: "approve the plan again with `plangate approve --key KEY`" },
      signerMismatch: { message: "The record names signer {{declared}}… but was signed by {{keyid}}….", hint: "approve the plan again with `plangate approve --key KEY`" },
      keyUnusable: { message: "{{error}}", hint: "point approval.key at a private key from plangate keygen" },
    },
    summary: "The approval is unsigned, or its signature does not verify.",
    docs: {
      description:
        "Reports an approval without a signature (unless `--allow-unsigned`), an envelope whose Ed25519 signature over the DSSE pre-authentication encoding does not verify with the trusted key it names (the record was edited after signing, or signed by another key), or a record whose `signer.keyid` is not the key that signed it. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "A checksum can be recomputed by whoever edits the plan (scQC's threat model); a signature by a key the agent does not hold cannot.",
      fix: "Never edit an approval: approve the plan again with `plangate approve --key KEY`.",
      bad: "plangate verify plan.json --approval edited-approval.json --trusted-keys keys/",
      good: "plangate verify plan.json --approval approval.json --trusted-keys keys/",
    },
  },
  check(input, ctx) {
    if (input.step === "signing") {
      if (input.keyError !== undefined) ctx.report({ messageId: "keyUnusable", data: { error: input.keyError } });
      return;
    }
    if (input.step !== "envelope" || input.unreadable) return;
    const s = input.signature;
    if (s === undefined) {
      if (!input.allowUnsigned) ctx.report({ messageId: "unsigned" });
    } else if (s.kind === "no-signature") ctx.report({ messageId: "noSignature" });
    else if (s.kind === "does-not-verify") ctx.report({ messageId: "doesNotVerify" });
    else if (s.kind === "verified" && s.declaredKeyid !== s.keyid) {
      // The signer named inside the signed record binds the key to it; an envelope re-signed by another key must not pass.
      if (s.declaredKeyid === undefined) ctx.report({ messageId: "signerMissing" });
      else ctx.report({ messageId: "signerMismatch", data: { declared: String(s.declaredKeyid).slice(0, 16), keyid: s.keyid.slice(0, 16) } });
    }
  },
});
