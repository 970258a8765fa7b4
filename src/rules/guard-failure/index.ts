import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it reports that the execution guard cannot enforce an approval at all (its
 * state, its run, its host profile or its input unusable), so it belongs to the approval kind. Its
 * reports are still made by the guard's code (src/approval guard.ts, runs.ts, hook.ts,
 * progress.ts), which words them itself. Always an error.
 */
export default defineRule({
  meta: {
    id: "guard-failure",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The guard could not decide, so the tool call is blocked.",
    docs: {
      description:
        "Reports what stops the guard from deciding: a missing or unreadable state file, hook input that is not a PreToolUse JSON object (unreadable, ambiguous or oversized input is blocked under `parse-error`, `duplicate-key`, `unsafe-value` or `limit-exceeded`), a state written by plangate 0.1 (no audit key), a lock held too long, a timeout, an internal error, guard files (audit trail, consumed store) inside the workspace, or a state file that already exists. The hook blocks the call (exit 2) in every such case. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "A security check that fails open is no check: a crash, a timeout or unreadable input must block, never read as allow.",
      fix: "Read the reason, fix the guard's setup (run `plangate guard start`, keep its files outside the workspace) and retry the call.",
      bad: "echo 'not json' | plangate guard --state state.json   # exit 2",
      good: "echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"read_file\",\"tool_input\":{\"path\":\"in.txt\"}}' | plangate guard --state state.json",
    },
  },
});
