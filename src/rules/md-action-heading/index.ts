import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The teddy dialect records the facts while it reads the plan's structure; the rule words them. */
export default defineRule({
  meta: {
    id: "md-action-heading",
    input: "read",
    messages,
    defaultSeverity: "error",
    dialects: ["teddy"],
    phase: "structure",
    summary: "An action is not under an H3 heading, or its type is unknown.",
    docs: {
      description:
        "Reports an action written under a heading of another level (`## EDIT`, `#### CREATE`), content under `## Action Plan` before the first action heading, an action heading outside `## Action Plan` (it would never be checked), and an H3 whose action type is not known. Known types: CREATE, EDIT, READ, PRUNE (the TeDDy spec) and EXECUTE, RESEARCH, CHAT_WITH_USER, PROMPT, INVOKE, RETURN, CONCLUDE (current TeDDy). Backticks and emphasis around the type are tolerated (`### `EDIT``). Types are compared exactly (upper case).",
      rationale: "The executor dispatches on the heading: an action it cannot find or does not know is either skipped or fails mid-plan (the TeDDy spec, 3.2).",
      fix: "Write each action as `### TYPE` with a known type; the hint names the closest one. A message to the user is a `## Message` section, not an action.",
      bad: "### `MESSAGE`",
      good: "### `EDIT`",
    },
  },
  check(input, context) {
    reportFacts("md-action-heading", input, context);
  },
});
