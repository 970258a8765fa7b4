import { defineRule } from "../../core/rule.js";
import { artifactPaths, artifactState, place, promisedArtifacts } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "artifact-empty",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      empty: { message: 'Artifact {{path}} is empty (0 bytes), but the return says "{{status}}".', hint: "write the artifact's content, or return partial/failed" },
    },
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
  check(input, ctx) {
    const promised = promisedArtifacts(input);
    if (!promised) return;
    for (const a of artifactPaths(promised.artifacts)) {
      // Paths that are missing, unusable or leave the workspace are artifact-missing's; folders have no size to check.
      const s = artifactState(a.path, input.workspace, input.files);
      if (s.kind !== "present" || s.dir || input.files.size(s.abs) !== 0) continue;
      ctx.report({ messageId: "empty", data: { path: JSON.stringify(a.path), status: promised.status }, actual: s.abs, ...place(input, a.pointer) });
    }
  },
});
