import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { teddyFacts } from "../teddy-facts.js";

export default defineRule({
  meta: {
    id: "find-no-match",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      noMatch: { message: "Step {{step}} (EDIT): the FIND block of pair {{pair}} does not occur in \"{{path}}\".", hint: "copy the text to find exactly from the current file, whitespace and indentation included" },
      alreadyApplied: { message: "Step {{step}} (EDIT): the FIND block of pair {{pair}} does not occur in \"{{path}}\"; the file already contains the REPLACE text, so the edit looks applied already.", hint: "drop this edit, it is already applied" },
    },
    summary: "A FIND block does not occur in the target file.",
    docs: {
      description:
        "Reports a FIND block that occurs nowhere in the EDIT's target file, as the file stands when the edit runs (after the plan's earlier CREATEs and EDITs). Matching is exact, whitespace included; only line endings are normalised (CRLF and CR read as LF on both sides). There is no fuzzy matching.",
      rationale: "An edit whose anchor is not in the file fails at execution time, after the earlier actions have run; often the planner remembers an older version of the file (the TeDDy spec, 3.3).",
      fix: "Copy the FIND text exactly from the current file (indentation and blank lines included). If the file already holds the REPLACE text, the edit was applied already: drop it.",
      bad: "#### FIND:\n```\ndef helo():\n```",
      good: "#### FIND:\n```\ndef hello():\n```",
    },
  },
  check(plan, ctx) {
    const facts = teddyFacts(plan, ctx);
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "EDIT") continue;
      for (const r of facts.byStep.get(step.position)?.finds ?? []) {
        if (r.count !== 0) continue;
        const pair = action.edits[r.pair]!;
        const applied = r.applied;
        ctx.report({
          at: pair.at + "/find",
          step: step.position,
          messageId: applied ? "alreadyApplied" : "noMatch",
          data: { step: step.position, pair: r.pair + 1, path: String(action.path) },
        });
      }
    }
  },
});
