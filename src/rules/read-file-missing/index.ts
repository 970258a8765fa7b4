import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { teddyFacts } from "../teddy-facts.js";

export default defineRule({
  meta: {
    id: "read-file-missing",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      missing: { message: "Step {{step}} (READ): \"{{path}}\" does not exist in the workspace.", hint: "check the path (it resolves to {{resolved}}), or remove the READ" },
      directory: { message: "Step {{step}} (READ): \"{{path}}\" is a directory, not a file in the workspace.", hint: "check the path (it resolves to {{resolved}}), or remove the READ" },
      notFile: { message: "Step {{step}} (READ): \"{{path}}\" is not a regular file in the workspace.", hint: "check the path (it resolves to {{resolved}}), or remove the READ" },
    },
    summary: "A READ action names a local file that does not exist.",
    docs: {
      description:
        "Reports a READ whose Resource is a local path that is not an existing file of the workspace. URLs (`https://…`) are not checked. A file created by an earlier CREATE of the same plan counts as existing. Paths that leave the workspace are not looked at (`path-outside-workspace` reports them).",
      rationale: "Reading a missing file wastes a turn: the planner's next turn starts without the context it asked for (the TeDDy spec, 3.3).",
      fix: "Correct the path, or drop the READ.",
      bad: "### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)   (no such file)",
      good: "### READ\n- **Resource:** [https://example.com/spec](https://example.com/spec)",
    },
  },
  check(plan, ctx) {
    const facts = teddyFacts(plan, ctx);
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "READ" || action.url !== undefined) continue;
      const f = facts.byStep.get(step.position);
      if (!f || (f.target !== "missing" && f.target !== "dir" && f.target !== "other")) continue;
      ctx.report({
        at: action.pathAt ?? step.toolAt,
        step: step.position,
        messageId: f.target === "dir" ? "directory" : f.target === "other" ? "notFile" : "missing",
        data: { step: step.position, path: String(action.path), resolved: String(f.resolved?.abs) },
        actual: action.path,
      });
    }
  },
});
