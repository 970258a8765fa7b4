import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";

export default defineRule({
  meta: {
    id: "edit-missing-find-replace",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      noPairs: { message: "Step {{step}} (EDIT): no `#### FIND:` / `#### REPLACE:` pair, so the edit does not say what to change.", hint: "add `#### FIND:` with a code block of the exact current text, then `#### REPLACE:` with the new text" },
      noFind: { message: "Step {{step}} (EDIT): pair {{pair}} has no FIND block.", hint: "add `#### FIND:` with a code block of the exact text to replace, before the REPLACE" },
      emptyFind: { message: "Step {{step}} (EDIT): the FIND block of pair {{pair}} is empty, so it would match everywhere.", hint: "put the exact text to replace in the FIND block" },
      noReplace: { message: "Step {{step}} (EDIT): pair {{pair}} has no REPLACE block.", hint: "add `#### REPLACE:` with a code block of the new text after the FIND block (an empty block deletes the text)" },
    },
    summary: "An EDIT action lacks a complete `#### FIND:` / `#### REPLACE:` pair.",
    docs: {
      description:
        "Reports an EDIT with no FIND/REPLACE pair, and each pair that is incomplete: a `#### FIND:` heading without a `#### REPLACE:` after it (or the reverse), a heading without its code block, or an empty FIND block (which would match everywhere). The headings may be wrapped in backticks (`#### `FIND:``).",
      rationale: "The pair is the edit: without it the executor has nothing to apply, or applies half of it (the TeDDy spec, 3.3).",
      fix: "Under the EDIT, write `#### FIND:` with a code block of the exact text to replace, then `#### REPLACE:` with a code block of the new text.",
      bad: "### EDIT\n- **File Path:** [a.py](/a.py)\n#### FIND:\n```\nx = 1\n```",
      good: "### EDIT\n- **File Path:** [a.py](/a.py)\n#### FIND:\n```\nx = 1\n```\n#### REPLACE:\n```\nx = 2\n```",
    },
  },
  check(plan, ctx) {
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "EDIT") continue;
      if (action.edits.length === 0) {
        ctx.report({ at: step.toolAt, step: step.position, messageId: "noPairs", data: { step: step.position } });
        continue;
      }
      action.edits.forEach((pair, i) => {
        const messageId = pair.find === undefined ? "noFind" : pair.find === "" ? "emptyFind" : pair.replace === undefined ? "noReplace" : undefined;
        if (messageId) ctx.report({ at: pair.at, step: step.position, messageId, data: { step: step.position, pair: i + 1 } });
      });
    }
  },
});
