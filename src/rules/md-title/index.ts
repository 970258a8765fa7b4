import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The teddy dialect records the facts while it reads the plan's structure; the rule words them. */
export default defineRule({
  meta: {
    id: "md-title",
    input: "read",
    messages,
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "structure",
    summary: "A Markdown plan does not have exactly one H1 title.",
    docs: {
      description:
        "Reports a plan.md with no `# Title` heading, or with more than one H1 (headings inside code blocks do not count). A first line `#Title` without the space is read as the title, as TeDDy does.",
      rationale: "The title names the plan for the person who approves it; two H1s usually mean two plans pasted together (the TeDDy spec, 3.1).",
      fix: "Start the plan with exactly one line `# <what this plan does>`; demote other H1s to `##` or put them in a code block.",
      bad: "## Rationale\n...",
      good: "# Add the login form\n\n## Rationale\n...",
    },
  },
  check(input, context) {
    reportFacts("md-title", input, context);
  },
});
