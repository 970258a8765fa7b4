import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "return-session-mismatch",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The return's session id is not the delegated one.",
    docs: {
      description:
        "Reports a return whose `session_id` (or `metadata.session_id`) differs from `--session-id`, a return without any session id when one is expected, and a return whose `session_id` and `metadata.session_id` disagree.",
      rationale: "A return from another or an earlier session must not be merged into this one: it is how stale results and cross-talk between parallel subagents slip in (the orchestrator validation strategy: \"session_id matches expected\").",
      fix: "Discard the return and re-run the delegation; make the subagent echo the session id it was given.",
      bad: "plangate check-return r.json --session-id sess_2   # r.json says sess_1",
      good: "plangate check-return r.json --session-id sess_1",
    },
  },
});
