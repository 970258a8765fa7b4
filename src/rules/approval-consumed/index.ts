import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-consumed",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "A single-use approval was already used.",
    docs: {
      description:
        "Reports an approval whose random `nonce` is recorded as consumed: the execution guard records it durably (one file per nonce, created exclusively and flushed) when it starts running the plan, so replaying the approval, even after a restart, is refused. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The intake protocol makes the approved plan the plan that runs, once; replaying an approval re-runs every step, including the writes, without anyone approving it again.",
      fix: "Approve the plan again to run it again, or approve with `--reusable` when re-running is intended.",
      bad: "plangate guard start plan.json --approval approval.json --state s2.json …   # same approval, second time",
      good: "plangate guard start plan.json --approval fresh-approval.json --state s2.json …",
    },
  },
});
