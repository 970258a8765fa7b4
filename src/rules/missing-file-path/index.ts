import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";

export default defineRule({
  meta: {
    id: "missing-file-path",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      noFilePath: { message: "Step {{step}} ({{action}}): no \"File Path\" in the metadata, so it is not known which file to {{verb}}.", hint: "add `- **File Path:** [path/to/file](/path/to/file)` under the action heading" },
    },
    summary: "A CREATE or EDIT action has no `File Path`.",
    docs: {
      description:
        "Reports a CREATE or EDIT action whose metadata (a list item `- **File Path:** …` or a line `**File Path:** …`) names no file. The path may be a Markdown link (`[src/a.py](/src/a.py)`, the leading `/` meaning the workspace root), backticked or bare.",
      rationale: "The executor cannot write a file it is not told about; the TeDDy spec (3.3) requires the path.",
      fix: "Add `- **File Path:** [path/to/file](/path/to/file)` under the action heading.",
      bad: "### CREATE\n- **Description:** new module\n```python\n```",
      good: "### CREATE\n- **File Path:** [src/a.py](/src/a.py)\n```python\n```",
    },
  },
  check(plan, ctx) {
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (!action || (action.type !== "CREATE" && action.type !== "EDIT")) continue;
      if (action.path !== undefined && action.path !== "") continue;
      ctx.report({
        at: action.pathAt ?? step.toolAt,
        step: step.position,
        messageId: "noFilePath",
        data: { step: step.position, action: action.type, verb: action.type === "CREATE" ? "create" : "edit" },
      });
    }
  },
});
