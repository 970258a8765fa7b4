import type { FileProbe } from "../../core/file-probe.js";
import {
  normalizeAbsolute,
  realWorkspace,
  resolveArgument,
  whyOutside,
} from "../../core/paths.js";
import { childPointer } from "../../core/pointer.js";
import { probeFor } from "../../core/probe-memo.js";
import { defineRule } from "../../core/rule.js";

/** Why a declared scope is not the workspace or inside it, or undefined when it is. */
function outside(scope: string, ws: string, wsReal: string, files: FileProbe): string | undefined {
  if (scope.trim() === "") return "is empty";
  for (const r of resolveArgument(scope, ws, files)) {
    const why = whyOutside(r, ws, wsReal, files);
    if (why) return why;
  }
  return undefined;
}

export default defineRule({
  meta: {
    id: "scope-mismatch",
    input: "plan",
    defaultSeverity: "error",
    phase: "step",
    messages: {
      planScope: { message: "The plan's scope \"{{scope}}\" {{why}}: it is not the workspace {{workspace}} or inside it.", hint: "run the plan in the workspace it was written for (--workspace), or correct its scope" },
      stepScope: { message: "Step {{step}}: scope \"{{scope}}\" {{why}}: it is not the workspace {{workspace}} or inside it.", hint: "use the workspace root or a folder inside it" },
    },
    summary: "A declared scope is not the workspace root or inside it.",
    docs: {
      description:
        "Reports a plan-level or step-level `scope` that is not the workspace root (`--workspace`, the policy's `workspace`, else the current folder) or a folder inside it. A relative scope resolves against the workspace root; symlinks are followed on the real file system.",
      rationale:
        "The intake protocol §4: the plan's scope must match the workspace. A plan written for another folder may be correct there and destructive here.",
      fix: "Run the plan in the workspace it was written for (`--workspace`), or correct its `scope`.",
      bad: "# workspace: /srv/app\nscope: /home/other/project\nsteps:\n  - {tool: read_file, arguments: {path: a.txt}, intent: read a}",
      good: "# workspace: /srv/app\nscope: /srv/app\nsteps:\n  - {tool: read_file, arguments: {path: a.txt}, intent: read a}",
    },
  },
  check(plan, ctx) {
    const files = probeFor(plan, ctx.files);
    const ws = normalizeAbsolute(ctx.policy.workspace);
    const wsReal = realWorkspace(ws, files);
    if (plan.scope !== undefined) {
      const why = outside(plan.scope, ws, wsReal, files);
      if (why)
        ctx.report({
          at: "/scope",
          messageId: "planScope",
          data: { scope: plan.scope, why, workspace: ws },
          expected: ws,
          actual: plan.scope,
        });
    }
    for (const step of plan.steps) {
      if (step.scope === undefined) continue;
      const why = outside(step.scope, ws, wsReal, files);
      if (why)
        ctx.report({
          at: childPointer(step.at, "scope"),
          step: step.position,
          messageId: "stepScope",
          data: { step: step.position, scope: step.scope, why, workspace: ws },
          expected: ws,
          actual: step.scope,
        });
    }
  },
});
