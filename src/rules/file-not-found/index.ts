import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

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
