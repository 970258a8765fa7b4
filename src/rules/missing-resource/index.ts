import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";

export default defineRule({
  meta: {
    id: "missing-resource",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      noResource: { message: "Step {{step}} ({{action}}): no \"Resource\" in the metadata, so it is not known what to {{verb}}.", hint: "add `- **Resource:** [path/to/file](/path/to/file)` under the action heading" },
    },
    summary: "A READ or PRUNE action has no `Resource`.",
    docs: {
      description:
        "Reports a READ or PRUNE action whose metadata names no `Resource` (a local path, written like a File Path, or for READ a URL).",
      rationale: "The TeDDy spec (3.3) requires the resource: without it the action reads or prunes nothing, and the planner's next turn lacks what it expected.",
      fix: "Add `- **Resource:** [path/to/file](/path/to/file)` (or a URL for READ) under the action heading.",
      bad: "### READ\n- **Description:** the spec",
      good: "### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)",
    },
  },
  check(plan, ctx) {
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (!action || (action.type !== "READ" && action.type !== "PRUNE")) continue;
      if ((action.path !== undefined && action.path !== "") || action.url) continue;
      ctx.report({
        at: action.pathAt ?? step.toolAt,
        step: step.position,
        messageId: "noResource",
        data: { step: step.position, action: action.type, verb: action.type === "READ" ? "read" : "prune" },
      });
    }
  },
});
