import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges a tool call during the enforcement of an approval, against the
 * steps the verified approval record lets run, so its input is of the approval kind (a guard step).
 * Its reports are still made by the guard's matching code (src/approval/match.ts, progress.ts,
 * guard.ts, runs.ts and the host profiles), which words them itself. Always an error.
 */
export default defineRule({
  meta: {
    id: "guard-step-mismatch",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The tool call is not the next approved step.",
    docs: {
      description:
        "Reports, in the execution guard and the `plangate guard` hook, a tool call whose tool or canonical arguments (RFC 8785 JSON) differ from the next approved step, a step run out of order (the hint says which step the call is), and any call after the last approved step. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The approved plan is the plan that runs: an executor that skips, reorders, adds or alters a step runs something nobody approved.",
      fix: "Run exactly the next approved step; for different work, write and approve a new plan.",
      bad: "next approved step: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}; call: write_file {\"path\": \"out.txt\", \"content\": \"rm -rf\"}",
      good: "next approved step: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}; call: write_file {\"path\": \"out.txt\", \"content\": \"ok\"}",
    },
  },
});
