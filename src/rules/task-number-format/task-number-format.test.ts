import { describe, expect, it } from "vitest";
import { rules, task } from "../../../test/orchestration/fixtures.js";

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
