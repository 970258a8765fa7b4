import { defineRule } from "../../core/rule.js";
import { artifactPaths, artifactState, place, promisedArtifacts } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "artifact-missing",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      none: {
        message: 'Status "{{status}}" but the return lists no artifacts; a completed task must produce at least one.',
        hint: 'report "partial" if nothing was produced, or list the files written',
      },
      unusable: "Artifact path {{path}} is not a usable path.",
      outside: "Artifact {{path}} is outside the workspace {{workspace}}; artifacts must be written inside it.",
      missing: { message: 'Artifact {{path}} does not exist, but the return says "{{status}}".', hint: "write the artifact before returning, or return partial/failed" },
      brokenLink: "Artifact {{path}} is a broken symlink.",
      linkOutside: "Artifact {{path}} is a symlink to {{real}}, outside the workspace.",
    },
    summary: "A successful return lists an artifact that does not exist.",
    docs: {
      description:
        "For statuses in `returns.successStatuses` (default `completed`) only (the orchestrator validation strategy's \"Artifact Existence (Partial)\": partial and failed returns may lack artifacts), reports an artifact path that does not exist in the workspace, a broken symlink, a path or symlink that leaves the workspace (never probed), and a success with no artifacts at all. Artifact paths are read as every path check reads a path: each spelling an executor may decode (percent-encoding, spaces at the ends, `file:` URLs; `~` and NUL bytes are unusable) resolved through every symbolic link on the way, so `out/secret` under a folder `out` linked out of the workspace is outside.",
      rationale: "A task marked complete without its output is lost work the orchestrator would record as done.",
      fix: "Write the artifact before returning, fix its path (relative to the workspace), or return `partial`/`failed`.",
      bad: "{\"status\": \"completed\", \"artifacts\": [\"reports/missing.md\"], …}",
      good: "{\"status\": \"completed\", \"artifacts\": [\"reports/research-001.md\"], …}   # file exists",
    },
  },
  check(input, ctx) {
    const promised = promisedArtifacts(input);
    if (!promised) return;
    const { status, artifacts } = promised;
    if (artifacts.length === 0) ctx.report({ messageId: "none", data: { status }, ...place(input, "/artifacts") });
    for (const a of artifactPaths(artifacts)) {
      const data = { path: JSON.stringify(a.path), status, workspace: input.workspace };
      const at = place(input, a.pointer);
      const s = artifactState(a.path, input.workspace, input.files);
      if (s.kind === "unusable") ctx.report({ messageId: "unusable", data, ...at });
      else if (s.kind === "outside") ctx.report({ messageId: "outside", data, actual: s.abs, ...at });
      else if (s.kind === "missing") ctx.report({ messageId: "missing", data, actual: s.abs, ...at });
      else if (s.kind === "broken-link") ctx.report({ messageId: "brokenLink", data, actual: s.abs, ...at });
      else if (s.kind === "link-outside") ctx.report({ messageId: "linkOutside", data: { ...data, real: s.real }, actual: s.real, ...at });
    }
  },
});
