import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "artifact-empty",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "A successful return lists an empty artifact file.",
    docs: {
      description:
        "For statuses in `returns.successStatuses` (default `completed`) only, reports an artifact that is a file of zero bytes (following a symlink inside the workspace). Directories are accepted.",
      rationale: "An empty file passes an existence check but holds none of the work (the orchestrator validation strategy: \"Artifacts are non-empty (if status=completed)\").",
      fix: "Write the artifact's content before returning, or return `partial`/`failed`.",
      bad: "{\"status\": \"completed\", \"artifacts\": [\"plan.md\"]}   # plan.md is 0 bytes",
      good: "{\"status\": \"completed\", \"artifacts\": [\"plan.md\"]}   # plan.md has content",
    },
  },
});
