import { describe, expect, it } from "vitest";
import { rules, task } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { TODO_12, taskInput } from "../../../test/kind-inputs.js";

describe("task-status", () => {
  it("reports an operation the status does not allow, at the Status line", () => {
    const r = task("12", { operation: "research" });
    expect(rules(r)).toEqual(["task-status"]);
    const d = r.diagnostics[0]!;
    expect(d.message).toContain('Task 12 is [PLANNED] in TODO.md; "research" is allowed only from');
    expect(d.actual).toBe("planned");
    expect(d.line).toBe(26);
    expect(d.hint).toContain('"revise" or "implement"');
  });
  it("accepts an allowed operation", () => {
    expect(rules(task("12", { operation: "implement" }))).toEqual([]);
    expect(rules(task("5", { operation: "research" }))).toEqual([]);
  });
  it("lets nothing start from completed", () => {
    for (const op of ["research", "plan", "revise", "implement"]) expect(rules(task("3", { operation: op }))).toEqual(["task-status"]);
  });
  it("checks both statuses when TODO.md and state.json disagree", () => {
    // Task 5 is [NOT STARTED] in TODO.md but researched in state.json: "plan" is fine for both, "revise" for neither.
    expect(rules(task("5", { withState: true, operation: "plan" }))).toEqual([]);
    const r = task("5", { withState: true, operation: "revise" });
    expect(r.diagnostics.map((d) => d.file)).toEqual(["TODO.md", "state.json"]);
  });
  it("uses the policy's table", () => {
    const policy = { tasks: { operations: { research: ["planned"], ship: ["completed"] } } };
    expect(rules(task("12", { operation: "research", policy }))).toEqual([]);
    expect(rules(task("3", { operation: "ship", policy }))).toEqual([]);
  });
  it("refuses an unknown operation, including Object.prototype names", () => {
    for (const op of ["resarch", "constructor", "__proto__", "toString"]) {
      const r = task("12", { operation: op });
      expect(rules(r)).toEqual(["task-status"]);
      expect(r.diagnostics[0]!.message).toContain(`Unknown operation "${op}"`);
    }
    expect(task("12", { operation: "resarch" }).diagnostics[0]!.hint).toBe('did you mean "research"?');
  });
  it("does not check status without an operation", () => {
    expect(rules(task("3"))).toEqual([]);
  });
});

kindRuleTester("task-status", "task", {
  text: (input) => input.text,
  valid: [
    { name: "an operation allowed from the status", input: taskInput("12", [TODO_12], { operation: "implement" }) },
    { name: "no operation", input: taskInput("12", [TODO_12]) },
    { name: "a task not found: task-not-found's", input: taskInput("13", [{ kind: "todo", file: "TODO.md" }], { operation: "zzz" }) },
  ],
  invalid: [
    {
      name: "an operation not allowed from the status",
      input: taskInput("12", [TODO_12], { operation: "research" }),
      errors: [
        {
          messageId: "notAllowed",
          line: 3,
          column: 16,
          message: 'Task 12 is PLANNED in TODO.md; "research" is allowed only from "not_started", "researched", "partial" or "blocked".',
          hint: 'from planned run "revise" or "implement" instead, or change tasks.operations.research in plangate.yaml',
          actual: "planned",
        },
      ],
    },
    {
      name: "a status no operation starts from",
      input: taskInput("12", [{ kind: "state", file: "state.json", entry: { rawStatus: "completed", status: "completed" } }], { operation: "implement" }),
      errors: [{ messageId: "noOperation", hint: "no operation starts from completed; change the task's status first, or tasks.operations.implement in plangate.yaml" }],
    },
    { name: "an unknown operation, near a known one", input: taskInput("12", [TODO_12], { operation: "implment" }), errors: [{ messageId: "unknownOperationNear", hint: 'did you mean "implement"?' }] },
    {
      name: "an unknown operation",
      input: taskInput("12", [TODO_12], { operation: "constructor" }),
      errors: [{ messageId: "unknownOperation", message: 'Unknown operation "constructor"; task statuses are checked only for "research", "plan", "revise" and "implement".' }],
    },
  ],
});
