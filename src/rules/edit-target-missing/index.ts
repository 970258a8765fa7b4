import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { teddyFacts } from "../teddy-facts.js";

export default defineRule({
  meta: {
    id: "edit-target-missing",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      missing: { message: "Step {{step}} (EDIT): \"{{path}}\" does not exist in the workspace.", hint: "check the path (it resolves to {{resolved}}), or use CREATE for a new file" },
      directory: { message: "Step {{step}} (EDIT): \"{{path}}\" is a directory, not a file in the workspace.", hint: "check the path (it resolves to {{resolved}}), or use CREATE for a new file" },
      notFile: { message: "Step {{step}} (EDIT): \"{{path}}\" is not a regular file in the workspace.", hint: "check the path (it resolves to {{resolved}}), or use CREATE for a new file" },
    },
    summary: "An EDIT action targets a file that does not exist.",
    docs: {
      description:
        "Reports an EDIT whose File Path is not an existing file of the workspace (missing, or a directory). A file created by an earlier CREATE of the same plan counts as existing. Paths that leave the workspace are not looked at (`path-outside-workspace` reports them).",
      rationale: "An edit of a missing file fails mid-plan, after earlier actions have already changed the workspace (the TeDDy spec, 3.3).",
      fix: "Correct the path (the hint shows it resolved), or CREATE the file instead.",
      bad: "### EDIT\n- **File Path:** [src/utils.py](/src/utils.py)   (no such file)",
      good: "### EDIT\n- **File Path:** [src/util.py](/src/util.py)",
    },
  },
  check(plan, ctx) {
    const facts = teddyFacts(plan, ctx);
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "EDIT") continue;
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
