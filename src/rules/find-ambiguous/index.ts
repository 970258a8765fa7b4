import { defineRule } from "../../core/rule.js";
import { actionOf } from "../../core/step-extra.js";
import { MAX_LISTED_LINES, teddyFacts } from "../teddy-facts.js";

/** The lines of the matches in words: the first MAX_LISTED_LINES of `count`. */
function listLines(lines: readonly number[], count: number): string {
  const shown = lines.slice(0, MAX_LISTED_LINES);
  const text = shown.length > 1 ? `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}` : String(shown[0]);
  return count > MAX_LISTED_LINES ? `${shown.join(", ")} and ${count - MAX_LISTED_LINES} more` : text;
}

export default defineRule({
  meta: {
    id: "find-ambiguous",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "step",
    messages: {
      ambiguous: { message: "Step {{step}} (EDIT): the FIND block of pair {{pair}} occurs {{count}} times in \"{{path}}\", at {{lines}}; it must occur exactly once.", hint: "add neighbouring lines to the FIND block until it matches one place only, or add `- **Match All:** true` to replace every occurrence" },
    },
    summary: "A FIND block occurs more than once in the target file.",
    docs: {
      description:
        "Reports a FIND block that occurs more than once in the EDIT's target file (as it stands when the edit runs); the message gives the line number of every match. Occurrences are counted at every starting position, overlapping ones included (`aa` occurs twice in `aaa`), with line endings normalised on both sides. `Match All: true` in the action's metadata allows several matches.",
      rationale: "With two matches the executor edits one of them, perhaps the wrong one: the approved plan no longer says what will change (the TeDDy spec, 3.3 \"exactly one time\").",
      fix: "Add neighbouring lines to the FIND block until it matches only the intended place, or add `- **Match All:** true` to replace every occurrence.",
      bad: "#### FIND:\n```\npass\n```",
      good: "#### FIND:\n```\ndef block():\n    pass\n```",
    },
  },
  check(plan, ctx) {
    const facts = teddyFacts(plan, ctx);
    for (const step of plan.steps) {
      const action = actionOf(step);
      if (action?.type !== "EDIT" || action.matchAll) continue;
      for (const r of facts.byStep.get(step.position)?.finds ?? []) {
        if (r.count < 2) continue;
        // Overlapping matches can share a line; each line is listed once.
        const lines = r.lines;
        ctx.report({
          at: action.edits[r.pair]!.at + "/find",
          step: step.position,
          messageId: "ambiguous",
          data: { step: step.position, pair: r.pair + 1, count: r.count, path: String(action.path), lines: `${r.lineCount === 1 ? "line" : "lines"} ${listLines(lines, r.lineCount)}` },
          expected: 1,
          actual: r.count,
        });
      }
    }
  },
});
