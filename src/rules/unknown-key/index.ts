import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The dialects record the facts while they normalise the plan (src/dialects/shape.ts `checkKeys`); the rule words them. */
export default defineRule({
  meta: {
    id: "unknown-key",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "structure",
    summary: "A key the dialect does not define.",
    docs: {
      description: "Reports a member that the dialect's schema does not define; the hint names the closest valid key.",
      rationale:
        "Unknown keys are either typos of real fields (so the real field is silently missing) or instructions that some executor may act on and the reviewer never saw (no unknown keys; additionalProperties: false).",
      fix: "Rename the key to the one the hint suggests, or remove it.",
      bad: '[{"tool": "plot_qc", "parms": {}}]',
      good: '[{"tool": "plot_qc", "params": {}}]',
    },
  },
  check(input, context) {
    reportFacts("unknown-key", input, context);
  },
});
