import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-key-in-workspace",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The signing or trusted key lives inside the workspace the plan may write.",
    docs: {
      description:
        "Reports a trusted public key whose file (real path, symlinks resolved) is inside the workspace, and `approve --key` with a private key inside the workspace. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The plan's steps may write anywhere in the workspace: a step could replace the trusted key with its own, or read the private key and sign its own approvals.",
      fix: "Keep keys outside every workspace, e.g. `plangate keygen --out ~/.config/plangate`.",
      bad: "plangate verify plan.json --approval a.json --trusted-keys ./keys/plangate.pub   # inside the workspace",
      good: "plangate verify plan.json --approval a.json --trusted-keys ~/.config/plangate/plangate.pub",
    },
  },
});
