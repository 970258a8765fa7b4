import { describe, expect, it } from "vitest";
import { rules, task } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { TODO_12, taskInput } from "../../../test/kind-inputs.js";

describe("task-number-format", () => {
  it.each(["12a", "-3", "1.5", "", " ", "0x1f", "12 13", "99999999999999999999", "１２"])("reports %j and stops", (n) => {
    const r = task(n, { operation: "implement" });
    expect(rules(r)).toEqual(["task-number-format"]);
    expect(r.valid).toBe(false);
    expect(r.task).toBeUndefined();
    expect(r.diagnostics[0]!.message).toContain(`"${n}"`);
  });
  it("accepts digits (surrounding blanks trimmed)", () => {
    expect(rules(task("12"))).toEqual([]);
    expect(rules(task(" 12 "))).toEqual([]);
  });
  it("follows the policy's severity", () => {
    const r = task("x", { policy: { rules: { "task-number-format": "warning" } } });
    expect(r.diagnostics[0]!.severity).toBe("warning");
    expect(r.valid).toBe(true);
  });
});

kindRuleTester("task-number-format", "task", {
  valid: [
    { name: "digits", input: taskInput("12", [TODO_12]) },
    { name: "digits among blanks", input: taskInput(" 12 ", [TODO_12]) },
  ],
  invalid: [
    {
      name: "not digits",
      input: taskInput("#12", []),
      errors: [{ messageId: "notNumber", message: 'Task number "#12" is not a number; give the task\'s digits only, e.g. "42".', hint: "task numbers match ^\\d+$", expected: "^\\d+$", actual: "#12" }],
    },
    { name: "beyond a safe integer", input: taskInput("99999999999999999999", []), errors: [{ messageId: "notNumber" }] },
  ],
});
