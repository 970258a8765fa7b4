import { describe, expect, it } from "vitest";
import { validatePlan } from "../src/node/validate-plan.js";
import { memoryFiles } from "./rule-tester.js";
import { NOW } from "./helpers.js";

describe("the report's plan hash", () => {
  it("is the hash of the plan as validated, whatever a caller changes in the report afterwards", async () => {
    const text = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "a.txt" }, intent: "read it" }] });
    const fresh = await validatePlan(text, { file: "plan.json", now: NOW, workspace: "/ws", files: memoryFiles({ "a.txt": "x" }) });
    const report = await validatePlan(text, { file: "plan.json", now: NOW, workspace: "/ws", files: memoryFiles({ "a.txt": "x" }) });
    expect(report.valid).toBe(true);
    (report.plan!.steps[0]!.args as Record<string, unknown>).path = "../../../etc/cron.d/x";
    expect(report.planHash).toBe(fresh.planHash);
  });
});
