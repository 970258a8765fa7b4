import { defineRule } from "../../core/rule.js";
import { taskNumber } from "../tasks.js";

/** A "task" rule: it judges a task reference as src/orchestration/task.ts looks it up, outside plan validation. */
export default defineRule({
  meta: {
    id: "task-number-format",
    input: "task",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      notNumber: { message: 'Task number "{{reference}}" is not a number; give the task\'s digits only, e.g. "42".', hint: "task numbers match ^\\d+$" },
    },
    summary: "The task number is not digits only.",
    docs: {
      description:
        "Reports a task number that does not match `^\\d+$` (the orchestrator validation strategy: \"Task number is integer\"), such as `12a`, `-3`, `1.5` or an empty string, and numbers too large to be exact. The other task checks do not run.",
      rationale: "A malformed number would silently select no task or the wrong one; catching it before delegation gives the user a clear message instead of a confused agent (the orchestrator validation strategy: prevents most user errors).",
      fix: "Pass the task's number as digits: `plangate check-task 42 --todo TODO.md`.",
      bad: "plangate check-task 12a --todo TODO.md",
      good: "plangate check-task 12 --todo TODO.md",
    },
  },
  check(input, ctx) {
    if (taskNumber(input.reference) !== undefined) return;
    ctx.report({ messageId: "notNumber", data: { reference: input.reference }, expected: "^\\d+$", actual: input.reference });
  },
});
