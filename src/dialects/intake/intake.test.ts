import Value from "typebox/value";
import { describe, expect, it } from "vitest";
import { ids, run } from "../../../test/helpers.js";
import { IntakePlanSchema } from "../../schemas/intake.js";

const YAML = `# a two-step intake plan
scope: /workspace
steps:
  - tool: read_file
    arguments: {path: data/in.csv}
    intent: Read the input table
  - tool: write_file
    arguments:
      path: out/report.md
      content: "# Report\\n"
    intent: Write the report
    timeout: 30
    continue_on_error: false
`;
const JSON_TEXT = JSON.stringify({
  steps: [
    { tool: "read_file", arguments: { path: "data/in.csv" }, intent: "Read the input table" },
    { intent: "Write the report", tool: "write_file", arguments: { content: "# Report\n", path: "out/report.md" }, continue_on_error: false, timeout: 30 },
  ],
  scope: "/workspace",
});

describe("intake dialect", () => {
  it("reads the YAML and JSON spellings into the same plan, with the same plan hash", async () => {
    const y = await run(YAML, { file: "plan.yaml" });
    const j = await run(JSON_TEXT, { file: "plan.json" });
    expect(y.dialect).toBe("intake");
    expect(j.dialect).toBe("intake");
    expect(y.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(y.planHash).toBe(j.planHash);
    expect(y.steps).toBe(2);
    expect(y.plan!.scope).toBe("/workspace");
    expect(y.plan!.steps[1]).toMatchObject({ tool: "write_file", timeout: 30, continueOnError: false, intent: "Write the report" });
  });
  it("detects intake from stdin content too", async () => {
    expect((await run(YAML, { file: "-" })).dialect).toBe("intake");
  });
  it("reports unknown keys with the closest valid key", async () => {
    const r = await run("steps:\n  - tool: a\n    arguments: {}\n    intent: x\n    argumets: {}\nscop: /x\n", { file: "p.yaml" });
    const d = r.diagnostics.filter((x) => x.rule === "unknown-key");
    expect(d.map((x) => [x.pointer, x.line, x.hint])).toEqual([
      ["/steps/0/argumets", 5, 'rename it to "arguments"'],
      ["/scop", 6, 'rename it to "scope"'],
    ]);
  });
  it("reports missing fields and wrong types", async () => {
    const r = await run(JSON.stringify({ steps: [{ intent: "x" }, { tool: 3, arguments: [], intent: "x", timeout: -1, continue_on_error: "yes", scope: 1 }, "read"] }));
    const by = (rule: string) => r.diagnostics.filter((d) => d.rule === rule).map((d) => d.pointer);
    expect(by("missing-field")).toEqual(["/steps/0", "/steps/0"]);
    expect(by("invalid-type").sort()).toEqual(["/steps/1/tool", "/steps/1/arguments", "/steps/1/timeout", "/steps/1/continue_on_error", "/steps/1/scope", "/steps/2"].sort());
  });
  it("reports a missing or mistyped steps list and an empty plan", async () => {
    expect(ids(await run('{"steps": {}}'))).toContain("invalid-type");
    expect(ids(await run('{"steps": []}'))).toContain("empty-plan");
    expect(ids(await run("steps:\n", { file: "p.yaml" }))).toContain("invalid-type");
    expect(ids(await run('{"steps": [], "scope": 5}'))).toContain("invalid-type");
  });
  it("publishes a schema that accepts the valid plan and rejects an unknown key", () => {
    expect(Value.Check(IntakePlanSchema, JSON.parse(JSON_TEXT))).toBe(true);
    expect(Value.Check(IntakePlanSchema, { steps: [{ tool: "a", arguments: {}, intent: "x", extra: 1 }] })).toBe(false);
    expect(Value.Check(IntakePlanSchema, { steps: [{ tool: "a", arguments: {}, intent: "  " }] })).toBe(false);
    expect(Value.Check(IntakePlanSchema, { steps: [] })).toBe(false);
  });
});
