import { defineRule } from "../../core/rule.js";
import { basename } from "node:path";
import { taskNumber } from "../tasks.js";

/** A "task" rule: it judges a task reference as src/orchestration/task.ts looks it up, outside plan validation. */
export default defineRule({
  meta: {
    id: "task-not-found",
    input: "task",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      notInTodo: { message: "Task {{n}} not found in {{name}}", hint: 'add a "### {{n}}. Title" heading with a "- **Status**:" line, or check the task number' },
      headingOnly: {
        message: "Task {{n}} not found in {{name}}",
        hint: '"### {{n}}. {{title}}" has no Status line, so it is a section heading, not a task; check the task number',
      },
      todoTooManyLines: {
        message: "Task {{n}} cannot be looked up: {{name}} has more than {{max}} lines, too many to read as Markdown.",
        hint: "archive finished tasks to another file, or split {{name}}",
      },
      todoTooManyTokens: {
        message: "Task {{n}} cannot be looked up: {{name}} makes more than {{max}} Markdown tokens by line {{line}}, too many to read.",
        hint: "archive finished tasks to another file, or split {{name}}",
      },
      stateUnreadable: { message: "Task {{n}} cannot be looked up: {{name}} {{error}}.", hint: "fix or regenerate state.json" },
      notInState: {
        message: "Task {{n}} not found in {{name}}",
        hint: "no active_projects entry has this project_number; check the task number or sync state.json with TODO.md",
      },
    },
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
  check(input, ctx) {
    const n = taskNumber(input.reference);
    if (n === undefined) return;
    for (const s of input.sources) {
      const where = { n, name: basename(s.file) };
      if (s.kind === "todo") {
        if (s.entry) continue;
        if (s.tooBusy) {
          const messageId = s.tooBusy.what === "lines" ? "todoTooManyLines" : "todoTooManyTokens";
          ctx.report({ messageId, data: { ...where, max: s.tooBusy.max, line: s.tooBusy.line + 1 }, file: s.file });
        } else if (s.heading) ctx.report({ messageId: "headingOnly", data: { ...where, title: s.heading.title }, file: s.file, offset: s.heading.offset });
        else ctx.report({ messageId: "notInTodo", data: where, file: s.file });
      } else if (s.error !== undefined) ctx.report({ messageId: "stateUnreadable", data: { ...where, error: s.error }, file: s.file });
      else if (!s.entry) ctx.report({ messageId: "notInState", data: where, at: "/active_projects", file: s.file });
    }
  },
});
