import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The dialects record the facts while they normalise the plan (src/dialects/shape.ts `emptyPlan`); the rule words them. */
export default defineRule({
  meta: {
    id: "empty-plan",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "structure",
    summary: "The plan has no steps.",
    docs: {
      description: "Reports a plan whose list of steps (or actions) is empty.",
      rationale: "An empty plan is almost always a planner failure; approving it approves nothing and hides the failure (scQC check 6).",
      fix: "Add at least one step, or do not submit a plan.",
      bad: '{"version": "1.0", "plan": []}',
      good: '{"version": "1.0", "plan": [{"tool": "plot_qc"}]}',
    },
  },
  check(input, context) {
    reportFacts("empty-plan", input, context);
  },
});
