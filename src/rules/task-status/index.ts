import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "task-status",
    input: "task",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The task's status does not allow the operation.",
    docs: {
      description:
        "With `--operation OP`, reports a task whose status (TODO.md's `[NOT STARTED]` is read as `not_started`, the state.json spelling) is not in `tasks.operations.OP`, and an operation the table does not define. Defaults: research from not_started, researched, partial, blocked; plan from not_started, researched, partial, blocked; revise from planned, revised, partial, blocked; implement from planned, revised, partial. In-progress, completed and abandoned tasks allow nothing. When TODO.md and state.json are both given, both statuses must allow it.",
      rationale: "Status transitions keep two agents from working the same task and keep finished work from being redone (the orchestrator validation strategy stage 1: \"Task status allows operation\").",
      fix: "Run the operation the status allows (the hint names it), update the task's status, or change `tasks.operations` in plangate.yaml.",
      bad: "plangate check-task 81 --todo TODO.md --operation research   # task 81 is [PLANNED]",
      good: "plangate check-task 81 --todo TODO.md --operation implement",
    },
  },
});
