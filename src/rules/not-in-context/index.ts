import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { teddyFacts } from "../teddy-facts.js";

export default defineRule({
  meta: {
    id: "not-in-context",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      noContext: { message: "The turn context was not checked: no context was given, so EDIT and PRUNE targets may be files the planner has not read.", hint: "pass --context FILE (one path a line, or a JSON array) with the paths in the turn's context" },
      editNotRead: { message: "Step {{step}} (EDIT): \"{{path}}\" is not in the turn context; the planner has not read the file it edits.", hint: "READ the file first and EDIT it in the next turn" },
      pruneNotInContext: { message: "Step {{step}} (PRUNE): \"{{path}}\" is not in the turn context, so there is nothing to prune.", hint: "prune only paths listed in the turn context" },
    },
    summary: "An EDIT or PRUNE targets a path that is not in the turn context.",
    docs: {
      description:
        "Reports an EDIT or PRUNE whose path is not listed in the turn context (`--context FILE`: one path a line, or a JSON array; `context` in the library). Context paths and plan paths are compared after resolving both against the workspace root (a leading `/` in a context entry that is not inside the workspace means the root). A file created by an earlier CREATE of the same plan counts as in context. Without a turn context the check cannot run: one info diagnostic says so.",
      rationale: "An agent that edits a file it has not read is guessing at its content; the TeDDy spec (3.3) requires the file to be in `turn.context`.",
      fix: "READ the file in one turn and EDIT it in the next, or pass the turn's context with --context.",
      bad: "### EDIT\n- **File Path:** [src/a.py](/src/a.py)   (context: src/b.py)",
      good: "### EDIT\n- **File Path:** [src/b.py](/src/b.py)   (context: src/b.py)",
    },
  },
  check(plan, ctx) {
    const targets = plan.steps.filter((s) => {
      const a = actionOf(s);
      return a && (a.type === "EDIT" || a.type === "PRUNE") && a.path;
    });
    if (targets.length === 0) return;
    if (ctx.context === undefined) {
      ctx.report({
        at: plan.stepsAt,
        notice: true,
        messageId: "noContext",
      });
      return;
    }
    const facts = teddyFacts(plan, ctx);
    for (const step of targets) {
      const action = actionOf(step)!;
      if (facts.byStep.get(step.position)?.inContext) continue;
      ctx.report({
        at: action.pathAt ?? step.toolAt,
        step: step.position,
        messageId: action.type === "EDIT" ? "editNotRead" : "pruneNotInContext",
        data: { step: step.position, path: String(action.path) },
        actual: action.path,
      });
    }
  },
});
