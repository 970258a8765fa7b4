import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the conditions step: the policy, tool registry and host profile approved against those in force. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-policy-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      policy: {
        message: "The approval was made under policy {{approved}}, but the policy in force is {{current}}.",
        hint: "use the policy file the plan was approved with, or approve it again under this one",
      },
      tools: {
        message: "The approval was made with tool registry {{approved}}, but the registry in force is {{current}}.",
        hint: "use the --tools registry the plan was approved with, or approve it again",
      },
      host: { message: 'The approval is for host "{{approved}}", but the host in force is "{{current}}".', hint: "run with --host {{approved}}, or approve the plan again for {{current}}" },
      profile: {
        message: "The approval was made with the {{host}} host profile {{approved}}, but the profile in force is {{current}}: the profile changed since approval.",
        hint: "use the profile the plan was approved with, or approve the plan again",
      },
    },
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
  check(input, ctx) {
    if (input.step !== "conditions") return;
    const a = input.approved;
    if (a.policyHash !== input.policyHash)
      ctx.report({ messageId: "policy", data: { approved: a.policyHash, current: input.policyHash }, expected: a.policyHash, actual: input.policyHash });
    if (a.toolsHash !== input.toolsHash)
      ctx.report({ messageId: "tools", data: { approved: a.toolsHash ?? "(none)", current: input.toolsHash ?? "(none)" }, expected: a.toolsHash, actual: input.toolsHash });
    if (a.host.name !== input.host.name)
      ctx.report({ messageId: "host", data: { approved: a.host.name, current: input.host.name }, expected: a.host.name, actual: input.host.name });
    else if (a.host.hash !== input.host.hash)
      ctx.report({ messageId: "profile", data: { host: a.host.name, approved: a.host.hash, current: input.host.hash }, expected: a.host.hash, actual: input.host.hash });
  },
});
