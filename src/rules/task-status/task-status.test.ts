import { describe, expect, it } from "vitest";
import { rules, task } from "../../../test/orchestration/fixtures.js";

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
