import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "session-id-reused",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The session id is already active in the shared registry.",
    docs: {
      description:
        "Reports a `--session-id` that has a live entry in the active-session registry (a folder of one file per id, default `.plangate/sessions/` in the workspace, shared by every process), and with `--register` an id another orchestrator registered first. Entries expire after `delegation.sessionTtlSeconds` (default 86400). Ids that could not be stored safely (path separators, `..`, over 128 characters, characters outside letters, digits, `.`, `_`, `:`, `-`) are refused too.",
      rationale: "Two delegations under one session id mix their returns: an orchestrator could accept a stale or foreign result as its own (the orchestrator validation strategy: \"session_id is unique\").",
      fix: "Generate a fresh id per delegation; release finished sessions with `plangate check-delegation --release --session-id ID`.",
      bad: "plangate check-delegation … --session-id sess_1  # sess_1 registered and not expired",
      good: "plangate check-delegation … --session-id sess_2 --register",
    },
  },
});
