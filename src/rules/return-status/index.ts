import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "return-status",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The return's status is not an allowed value.",
    docs: {
      description:
        "Reports a `status` not in `returns.statuses` (default `completed`, `partial`, `failed`, `blocked`, the orchestrator validation strategy). Comparison is exact: `COMPLETED` is not `completed`; the hint names the closest allowed value.",
      rationale: "The orchestrator branches on status; an unknown value falls into no branch, or the wrong one (the orchestrator validation strategy: \"Status is valid enum\").",
      fix: "Return one of the allowed statuses, or list your protocol's statuses in returns.statuses.",
      bad: "{\"status\": \"done\", …}",
      good: "{\"status\": \"completed\", …}",
    },
  },
});
