import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-signature",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
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
});
