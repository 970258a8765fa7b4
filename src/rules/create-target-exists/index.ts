import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { teddyFacts } from "../teddy-facts.js";

const CREATE_HINT = "use EDIT with FIND/REPLACE to change it, choose a new path, or add `- **Overwrite:** true` if replacing it is intended";

export default defineRule({
  meta: {
    id: "create-target-exists",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      exists: { message: "Step {{step}} (CREATE): \"{{path}}\" already exists; CREATE would overwrite it.", hint: CREATE_HINT },
      existsAsTwin: {
        message: 'Step {{step}} (CREATE): "{{path}}" is "{{twin}}" on a file system that ignores case, Unicode normalization or trailing dots and spaces (macOS, Windows), and "{{twin}}" already exists: CREATE would overwrite it there.',
        hint: "spell the path as the existing file is spelt and use EDIT, choose a name that differs in more than case, accents' encoding or trailing dots, or add `- **Overwrite:** true` if replacing it is intended",
      },
      existsAsDirectory: { message: "Step {{step}} (CREATE): \"{{path}}\" already exists as a directory; CREATE would overwrite it.", hint: CREATE_HINT },
    },
    summary: "A CREATE action targets a path that already exists.",
    docs: {
      description:
        "Reports a CREATE whose File Path already exists in the workspace (a file, a directory, or a file an earlier action of the same plan creates), also under another spelling that a file system ignoring case or Unicode normalization reads as it (macOS, Windows: `README.MD` beside `README.md`, `caf\u00e9.txt` in NFD beside the NFC name, `notes.txt.` with a trailing dot), where the CREATE would overwrite it. `Overwrite: true` in the action's metadata allows replacing a file, as current TeDDy does. Paths that leave the workspace are not looked at (`path-outside-workspace` reports them).",
      rationale: "Creating over an existing file silently destroys its content; the planner most likely has not seen the file (the TeDDy spec, 3.3).",
      fix: "Use EDIT with FIND/REPLACE to change the existing file, choose another path, or add `- **Overwrite:** true` if replacing it is intended.",
      bad: "### CREATE\n- **File Path:** [src/main.py](/src/main.py)   (src/main.py exists)",
      good: "### CREATE\n- **File Path:** [src/new.py](/src/new.py)",
    },
  },
  check(plan, ctx) {
    const facts = teddyFacts(plan, ctx);
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "CREATE" || action.overwrite) continue;
      const f = facts.byStep.get(step.position);
      if (f?.twin !== undefined) {
        ctx.report({
          at: action.pathAt ?? step.toolAt,
          step: step.position,
          messageId: "existsAsTwin",
          data: { step: step.position, path: String(action.path), twin: f.twin },
          actual: action.path,
        });
        continue;
      }
      if (!f || f.target === "missing" || f.target === "unknown") continue;
      ctx.report({
        at: action.pathAt ?? step.toolAt,
        step: step.position,
        messageId: f.target === "dir" ? "existsAsDirectory" : "exists",
        data: { step: step.position, path: String(action.path) },
        actual: action.path,
      });
    }
  },
});
