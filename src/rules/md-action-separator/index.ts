import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The teddy dialect records the facts while it reads the plan's structure; the rule words them. */
export default defineRule({
  meta: {
    id: "md-action-separator",
    input: "read",
    messages,
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "structure",
    summary: "Two actions are not separated by a `---` line.",
    docs: {
      description:
        "Reports an action that follows the previous one without a thematic break (`---`) between them. Current TeDDy plans put actions back to back: set `markdown.requireSeparators: false` in plangate.yaml to accept them.",
      rationale: "The TeDDy spec (3.2) requires the separator; it keeps one action from running into the next when a code block or list is malformed.",
      fix: "Put a line `---` (with blank lines around it) between consecutive actions, or turn the requirement off in the policy.",
      bad: "### READ\n- **Resource:** [a.md](/a.md)\n### READ\n- **Resource:** [b.md](/b.md)",
      good: "### READ\n- **Resource:** [a.md](/a.md)\n\n---\n\n### READ\n- **Resource:** [b.md](/b.md)",
    },
  },
  check(input, context) {
    reportFacts("md-action-separator", input, context);
  },
});
