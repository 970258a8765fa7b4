import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "duplicate-key",
    input: "read",
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
});
