import { defineRule } from "../../core/rule.js";
import { basename } from "node:path";
import { quoteList } from "../../core/quote-list.js";
import { closest } from "../../core/tools.js";
import { taskNumber } from "../tasks.js";

/** A "task" rule: it judges a task reference as src/orchestration/task.ts looks it up, outside plan validation. */
export default defineRule({
  meta: {
    id: "task-status",
    input: "task",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      unknownOperation: { message: 'Unknown operation "{{op}}"; task statuses are checked only for {{operations}}.', hint: "add it to tasks.operations in plangate.yaml" },
      unknownOperationNear: { message: 'Unknown operation "{{op}}"; task statuses are checked only for {{operations}}.', hint: 'did you mean "{{near}}"?' },
      notAllowed: {
        message: 'Task {{n}} is {{raw}} in {{name}}; "{{op}}" is allowed only from {{allowed}}.',
        hint: "from {{status}} run {{others}} instead, or change tasks.operations.{{op}} in plangate.yaml",
      },
      noOperation: {
        message: 'Task {{n}} is {{raw}} in {{name}}; "{{op}}" is allowed only from {{allowed}}.',
        hint: "no operation starts from {{status}}; change the task's status first, or tasks.operations.{{op}} in plangate.yaml",
      },
    },
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
  check(input, ctx) {
    const n = taskNumber(input.reference);
    const op = input.operation;
    if (n === undefined || op === undefined || !input.sources.some((s) => s.entry)) return;
    const operations = input.operations;
    const names = Object.keys(operations);
    // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
    const allowed = Object.hasOwn(operations, op) && Array.isArray(operations[op]) ? operations[op] : undefined;
    if (!allowed) {
      const near = closest(op, names);
      const data = { op, operations: quoteList(names, "and"), near: near ?? "" };
      ctx.report({ messageId: near ? "unknownOperationNear" : "unknownOperation", data, expected: names, actual: op, file: input.file });
      return;
    }
    for (const s of input.sources) {
      const entry = s.entry;
      if (entry?.status === undefined || entry.rawStatus === undefined || allowed.includes(entry.status)) continue;
      const others = names.filter((o) => o !== op && operations[o]!.includes(entry.status!));
      ctx.report({
        messageId: others.length ? "notAllowed" : "noOperation",
        data: { n, raw: entry.rawStatus, name: basename(s.file), op, allowed: allowed.length ? quoteList(allowed) : "no status", status: entry.status, others: quoteList(others) },
        expected: allowed,
        actual: entry.status,
        file: s.file,
        ...(s.kind === "todo" ? { offset: s.entry!.statusOffset } : {}),
      });
    }
  },
});
