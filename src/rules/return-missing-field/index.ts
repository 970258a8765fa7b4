import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "return-missing-field",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "A required field of the return is absent or has the wrong type.",
    docs: {
      description:
        "Reports a return without one of `returns.requiredFields` (default the orchestrator validation strategy's five: `status`, `summary`, `artifacts`, `metadata`, `session_id`; `session_id` may sit in `metadata.session_id`; dotted paths such as `metadata.delegation_path` reach into objects), a field of the wrong type (`artifacts` not an array, `summary` not a string…), and, when `returns.artifactFields` is set, artifacts that are bare paths or lack those fields. A null field counts as absent.",
      rationale: "The orchestrator's next stage reads these fields; a missing one turns into a crash or a silent default later (the orchestrator validation strategy: \"Required fields present\").",
      fix: "Add the field to the subagent's return, or change returns.requiredFields if your protocol differs.",
      bad: "{\"status\": \"completed\", \"summary\": \"…\", \"metadata\": {}}",
      good: "{\"status\": \"completed\", \"summary\": \"…\", \"artifacts\": [\"a.md\"], \"metadata\": {\"session_id\": \"sess_1\"}}",
    },
  },
});
