import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The teddy dialect records the facts while it reads the plan's structure; the rule words them. */
export default defineRule({
  meta: {
    id: "md-missing-section",
    input: "read",
    messages,
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "structure",
    summary: "A Markdown plan lacks `## Rationale` or an `## Action Plan` / `## Message` section, or repeats one.",
    docs: {
      description:
        "Reports a plan.md without a `## Rationale` section, or with neither an `## Action Plan` (the actions) nor a `## Message` (a turn that only talks to the user). Also reports a section given twice, and a plan with both `## Action Plan` and `## Message` (a turn either acts or talks, as TeDDy requires). Other sections (such as `## Memos`) are allowed.",
      rationale: "The TeDDy spec (3.1) requires both core sections; without them the executor cannot tell reasoning from actions.",
      fix: "Add the missing `## Rationale` or `## Action Plan` heading (level 2).",
      bad: "# Plan\n\n## Action Plan\n### READ\n- **Resource:** [a.md](/a.md)",
      good: "# Plan\n\n## Rationale\nWhy.\n\n## Action Plan\n### READ\n- **Resource:** [a.md](/a.md)",
    },
  },
  check(input, context) {
    reportFacts("md-missing-section", input, context);
  },
});
