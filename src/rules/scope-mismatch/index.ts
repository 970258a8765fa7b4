import { type PathWhy, why } from "../../core/place.js";
import type { PathService } from "../../core/path-service.js";
import { childPointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";

/** Why a declared scope is not the workspace or inside it, or undefined when it is. */
function outside(scope: string, paths: PathService): PathWhy | undefined {
  if (scope.trim() === "") return why("empty");
  for (const r of paths.resolve(scope)) {
    const w = paths.whyOutside(r);
    if (w) return w;
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
    const paths = ctx.facts.paths;
    const ws = paths.workspace;
    if (plan.scope !== undefined) {
      const why = outside(plan.scope, paths);
      if (why)
        ctx.report({
          at: "/scope",
          messageId: "planScope",
          data: { scope: plan.scope, why, workspace: ws },
          expected: ws,
          actual: plan.scope,
        });
    }
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      if (step.scope === undefined) continue;
      const why = outside(step.scope, paths);
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
