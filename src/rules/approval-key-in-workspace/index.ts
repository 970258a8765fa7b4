import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges where the keys are: the trusted key that verified an approval, and the key `approve` signs with. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-key-in-workspace",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      trustedKey: {
        message: "The trusted key {{file}} lives inside the workspace {{workspace}}, which the plan may write: an agent could replace it with its own.",
        hint: "keep trusted keys outside the workspace (e.g. ~/.config/plangate/keys)",
      },
      trustedKeyInProject: {
        message: "The trusted key {{file}} lives inside the repository {{project}} that holds the workspace: whoever writes the project (its policy file included) could replace it with their own.",
        hint: "keep trusted keys outside every repository (e.g. ~/.config/plangate/keys)",
      },
      signingKeyInProject: {
        message: "The signing key {{file}} lives inside the repository {{project}} that holds the workspace: whoever writes the project could read it and sign their own approvals.",
        hint: "move the key outside every repository (plangate keygen --out ~/.config/plangate)",
      },
      signingKey: {
        message: "The signing key {{file}} lives inside the workspace {{workspace}}: the plan's steps could read it and sign their own approvals.",
        hint: "move the key outside the workspace (plangate keygen --out ~/.config/plangate)",
      },
    },
    summary: "The signing or trusted key lives inside the workspace the plan may write.",
    docs: {
      description:
        "Reports a trusted public key whose file (real path, symlinks resolved) is inside the workspace, and `approve --key` with a private key inside the workspace; and either inside the repository that holds the workspace (the nearest folder at or above it with `.git`): a policy whose `workspace:` names a subfolder, with `approval.trustedKeys` pointing beside itself, would otherwise trust a key planted by whoever edits that policy. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The plan's steps may write anywhere in the workspace: a step could replace the trusted key with its own, or read the private key and sign its own approvals.",
      fix: "Keep keys outside every workspace, e.g. `plangate keygen --out ~/.config/plangate`.",
      bad: "plangate verify plan.json --approval a.json --trusted-keys ./keys/plangate.pub   # inside the workspace",
      good: "plangate verify plan.json --approval a.json --trusted-keys ~/.config/plangate/plangate.pub",
    },
  },
  check(input, ctx) {
    if (input.step === "signing" && input.workspace !== undefined) ctx.report({ messageId: "signingKey", data: { file: input.key, workspace: input.workspace } });
    else if (input.step === "signing" && input.project !== undefined) ctx.report({ messageId: "signingKeyInProject", data: { file: input.key, project: input.project } });
    if (input.step !== "envelope" || input.unreadable) return;
    const s = input.signature;
    if (s?.kind === "verified" && s.workspace !== undefined) ctx.report({ messageId: "trustedKey", data: { file: s.file, workspace: s.workspace } });
    else if (s?.kind === "verified" && s.project !== undefined) ctx.report({ messageId: "trustedKeyInProject", data: { file: s.file, project: s.project } });
  },
});
