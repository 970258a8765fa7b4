import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "artifact-missing",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "A successful return lists an artifact that does not exist.",
    docs: {
      description:
        "For statuses in `returns.successStatuses` (default `completed`) only (the orchestrator validation strategy's \"Artifact Existence (Partial)\": partial and failed returns may lack artifacts), reports an artifact path that does not exist in the workspace, a broken symlink, a path or symlink that leaves the workspace (never probed), and a success with no artifacts at all.",
      rationale: "A task marked complete without its output is lost work the orchestrator would record as done.",
      fix: "Write the artifact before returning, fix its path (relative to the workspace), or return `partial`/`failed`.",
      bad: "{\"status\": \"completed\", \"artifacts\": [\"reports/missing.md\"], …}",
      good: "{\"status\": \"completed\", \"artifacts\": [\"reports/research-001.md\"], …}   # file exists",
    },
  },
});
