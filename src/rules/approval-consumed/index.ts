import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the conditions step and the guard step: whether a single-use approval was already used. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-consumed",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      usedForPlan: { message: "The approval {{nonce}} was already used to run this plan; it is single-use.", hint: "approve the plan again to run it again" },
      used: { message: "The approval {{nonce}} was already used; it is single-use.", hint: "approve the plan again to run it again" },
      usedRecorded: { message: "The approval {{nonce}} was already used (recorded in {{where}}); it is single-use.", hint: "approve the plan again to run it again" },
    },
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
  check(input, ctx) {
    if (input.step === "conditions" && input.consumed) ctx.report({ messageId: "usedForPlan", data: { nonce: input.approved.nonce } });
    else if (input.step === "guard" && input.consumed) {
      const c = input.consumed;
      if (c.recordedIn !== undefined) ctx.report({ messageId: "usedRecorded", data: { nonce: c.nonce, where: c.recordedIn } });
      else ctx.report({ messageId: "used", data: { nonce: c.nonce } });
    }
  },
});
