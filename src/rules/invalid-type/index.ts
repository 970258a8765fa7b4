import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The dialects record the facts while they normalise the plan (src/dialects/shape.ts `wrongType`, and their own checks); the rule words them. */
export default defineRule({
  meta: {
    id: "invalid-type",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "structure",
    summary: "A field has the wrong type or value.",
    docs: {
      description:
        "Reports a wrong type or value: a step that is not an object, a tool name that is not a string, arguments that are not an object, a `created_at` that is not an ISO 8601 timestamp, a step number below 1, citations that are not positive integers.",
      rationale: "An executor that coerces types runs something other than what was reviewed.",
      fix: "Write the field with the type the message names.",
      bad: '[{"tool": "plot_qc", "params": "all"}]',
      good: '[{"tool": "plot_qc", "params": {"all": true}}]',
    },
  },
  check(input, context) {
    reportFacts("invalid-type", input, context);
  },
});
