import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "task-not-found",
    input: "task",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "No task with this number in TODO.md or state.json.",
    docs: {
      description:
        "Reports a task number with no `### N. Title` heading in TODO.md whose section has a Status line (headings without one, such as numbered section titles, are not tasks; YAML front matter and fenced code are skipped), or with no `active_projects[]` entry of that `project_number` in state.json. With both files, the task must be in both. The message follows the orchestrator validation strategy: `Task 999 not found in TODO.md`.",
      rationale: "Delegating work for a task that does not exist wastes a subagent run and writes artifacts nobody tracks; the orchestrator must stop before delegating.",
      fix: "Check the number (`grep '^### ' TODO.md`), or add the task to TODO.md / state.json first.",
      bad: "### 12. Fix parser\n- **Status**: [PLANNED]    (checked: task 999)",
      good: "### 999. Fix parser\n- **Status**: [PLANNED]    (checked: task 999)",
    },
  },
});
