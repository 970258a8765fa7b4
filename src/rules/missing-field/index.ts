import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The dialects record the facts while they normalise the plan (src/dialects/shape.ts `missing`); the rule words them. */
export default defineRule({
  meta: {
    id: "missing-field",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "structure",
    summary: "A required field is absent.",
    docs: {
      description:
        "Reports a required field that is absent, in the dialect's own words: `tool` (scQC, intake), `tool_name`, `step`, `args`, `description`, `plan`, `reasoning` (iKOMA), `steps`, `arguments` (intake).",
      rationale: "An executor that fills in a missing field guesses; plans must say everything the executor needs (scQC check 7).",
      fix: "Add the field the message names.",
      bad: '[{"description": "plot", "params": {}}]',
      good: '[{"tool": "plot_qc", "description": "plot", "params": {}}]',
    },
  },
  check(input, context) {
    reportFacts("missing-field", input, context);
  },
});
