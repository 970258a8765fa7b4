import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The engine records the fact when no dialect reads the document, or the dialect's syntax is another; Claude Code's plan mode words its refusals with these messages too. */
export default defineRule({
  meta: {
    id: "unknown-format",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "structure",
    summary: "No plan dialect matches the document's shape.",
    docs: {
      description:
        "Reports a document that is none of the dialects: a JSON array (scqc-legacy, ikoma list), an object with `plan` (scqc-envelope, ikoma), an object with `steps` (intake), or a Markdown plan (teddy).",
      rationale: "scQC check 3: guessing the format of an unrecognised plan would run steps nobody meant.",
      fix: "Wrap the steps in one of the dialect shapes, or pass --dialect to say which one you meant and see what is missing.",
      bad: '{"tool": "bad_format"}',
      good: '[{"tool": "plot_qc"}]',
    },
  },
  check(input, context) {
    reportFacts("unknown-format", input, context);
  },
});
