import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** No text reader records it: the commands that read a plan file build its diagnostic from these messages (src/node/read-bounded.ts), and a read input's fact of it is reported like any other. */
export default defineRule({
  meta: {
    id: "file-not-found",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "read",
    summary: "The plan file is missing or unreadable.",
    docs: {
      description: "Reports a plan path that does not exist, is a directory, or cannot be read.",
      rationale: "scQC check 1: fail fast when the path is wrong or the file was deleted, before anything else runs.",
      fix: "Check the path, or that the file was written before validation runs.",
      bad: "plangate validate plans/missing.json",
      good: "plangate validate plans/stored.json",
    },
  },
  check(input, context) {
    reportFacts("file-not-found", input, context);
  },
});
