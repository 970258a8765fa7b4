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

describe("intake step controls and nested steps", () => {
  const plan = (step: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "x", ...step }] });
  it("reads repeat, optional, confirm and a Task step's nested steps", async () => {
    const r = await run(plan({ repeat: 3, optional: true, confirm: true, steps: [{ tool: "Read", arguments: { file_path: "a" }, intent: "read", repeat: 2 }] }));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.plan!.steps[0]).toMatchObject({ repeat: 3, optional: true, confirm: true });
    expect(r.plan!.steps[0]!.substeps![0]).toMatchObject({ tool: "Read", repeat: 2, position: 1, at: "/steps/0/steps/0" });
  });
  it.each([
    [{ repeat: 0 }, "invalid-type", "/steps/0/repeat"],
    [{ repeat: 1001 }, "invalid-type", "/steps/0/repeat"],
    [{ repeat: 1.5 }, "invalid-type", "/steps/0/repeat"],
    [{ repeat: "2" }, "invalid-type", "/steps/0/repeat"],
    [{ optional: "yes" }, "invalid-type", "/steps/0/optional"],
    [{ confirm: 1 }, "invalid-type", "/steps/0/confirm"],
    [{ steps: [] }, "invalid-type", "/steps/0/steps"],
    [{ steps: {} }, "invalid-type", "/steps/0/steps"],
    [{ steps: [{ tool: "Task", arguments: {}, intent: "x", steps: [{ tool: "Read", arguments: {}, intent: "y" }] }] }, "limit-exceeded", "/steps/0/steps/0/steps"],
    [{ steps: [{ arguments: {}, intent: "y" }] }, "missing-field", "/steps/0/steps/0"],
  ])("reports %j", async (step, rule, pointer) => {
    const r = await run(plan(step));
    expect(r.diagnostics.filter((d) => d.rule === rule).map((d) => d.pointer)).toEqual([pointer]);
  });
  it("allows nested steps on Task and Agent steps only", async () => {
    const r = await run(JSON.stringify({ steps: [{ tool: "Bash", arguments: { command: "ls" }, intent: "x", steps: [{ tool: "Read", arguments: {}, intent: "y" }] }] }));
    expect(r.diagnostics.filter((d) => d.rule === "invalid-type").map((d) => d.pointer)).toEqual(["/steps/0/steps"]);
  });
  it("publishes the new keys and constraint objects in the schema", () => {
    const ok = { steps: [{ tool: "Task", arguments: { p: { $glob: "x" } }, intent: "x", repeat: 2, optional: true, confirm: false, steps: [{ tool: "Read", arguments: { f: { $literal: { $x: 1 } } }, intent: "y" }] }] };
    expect(Value.Check(IntakePlanSchema, ok)).toBe(true);
    expect(Value.Check(IntakePlanSchema, { steps: [{ tool: "a", arguments: {}, intent: "x", repeat: 0 }] })).toBe(false);
    expect(Value.Check(IntakePlanSchema, { steps: [{ tool: "a", arguments: {}, intent: "x", steps: [{ tool: "b", arguments: {}, intent: "y", steps: [] }] }] })).toBe(false);
  });
  it("hashes constraints as written", async () => {
    const a = await run(JSON.stringify({ steps: [{ tool: "Read", arguments: { f: { $glob: "src/*" } }, intent: "x" }] }));
    const b = await run(JSON.stringify({ steps: [{ tool: "Read", arguments: { f: { $glob: "src/**" } }, intent: "x" }] }));
    const c = await run(JSON.stringify({ steps: [{ intent: "x", arguments: { f: { $glob: "src/*" } }, tool: "Read" }] }));
    expect(a.planHash).not.toBe(b.planHash);
    expect(a.planHash).toBe(c.planHash);
  });
});
