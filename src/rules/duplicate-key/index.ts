import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The JSON and YAML readers, and the teddy dialect for an action's metadata, record the facts; the rule words them. */
export default defineRule({
  meta: {
    id: "duplicate-key",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "read",
    summary: "The same key appears twice in one object.",
    docs: {
      description: "Reports a member name that occurs more than once in the same JSON object or YAML mapping.",
      rationale:
        "JSON and YAML consumers disagree on which duplicate wins (first, last, or an error), so a reviewer can approve one value while the executor runs the other: a tampering vector.",
      fix: "Keep exactly one member with that name.",
      bad: '{"tool": "read_file", "tool": "delete_file"}',
      good: '{"tool": "read_file"}',
    },
  },
  check(input, context) {
    reportFacts("duplicate-key", input, context);
  },
});
