import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ids, run, tools } from "../../../test/helpers.js";
import { loadToolsFile } from "../../node/tools-file.js";
import { realPlan } from "../../../test/real-plans.js";

const ok = {
  plan: [
    { step: 1, tool_name: "search_web", args: { query: "q" }, description: "Search [[1]]", citations: [1] },
    { step: 2, tool_name: "create_text_file", args: { filename_and_content: "a.txt|||x" }, description: "Write" },
  ],
  reasoning: "why",
};
const reg = tools("search_web", "create_text_file", "list_sandbox_files");
const text = (v: unknown) => JSON.stringify(v, null, 2);
const with_ = (f: (p: any) => void) => {
  const p = structuredClone(ok) as any;
  f(p);
  return text(p);
};

describe("ikoma dialect", () => {
  it("reads a valid plan into the common model", async () => {
    const r = await run(text(ok), { tools: reg });
    expect(r).toMatchObject({ dialect: "ikoma", valid: true, steps: 2 });
    expect(r.diagnostics).toEqual([]);
    expect(r.plan!.steps[0]).toMatchObject({ tool: "search_web", toolAt: "/plan/0/tool_name", args: { query: "q" }, intent: "Search [[1]]", citations: [1] });
    expect(r.plan!.fields.tool).toBe("tool_name");
    expect(r.plan!.meta).toEqual({ reasoning: "why" });
  });
  it("reports each missing required field in iKOMA's words", async () => {
    const r = await run('{"plan": [{"step": 1}]}', { tools: reg });
    const missing = r.diagnostics.filter((d) => d.rule === "missing-field").map((d) => d.expected);
    expect(missing.sort()).toEqual(["args", "description", "reasoning", "tool_name"]);
    expect(r.diagnostics.find((d) => d.expected === "tool_name")!.message).toBe('Step 1 is missing the required field "tool_name".');
  });
  it("rejects unknown keys on the plan and on steps (additionalProperties: false)", async () => {
    const r = await run(with_((p) => {
      p.extra_top_level = 1;
      p.plan[0].descriptoin = "x";
    }), { tools: reg });
    const d = r.diagnostics.filter((x) => x.rule === "unknown-key");
    expect(d.map((x) => x.pointer)).toEqual(["/plan/0/descriptoin", "/extra_top_level"]);
    expect(d.find((x) => x.pointer === "/plan/0/descriptoin")!.message).toContain('did you mean "description"');
  });
  it("rejects bad types: step < 1, true or 0 as a citation, args not an object, reasoning not a string", async () => {
    const r = await run(with_((p) => {
      p.plan[0].step = 0;
      p.plan[0].citations = [true, 0, 2];
      p.plan[1].args = "x";
      p.reasoning = 5;
    }), { tools: reg });
    const d = r.diagnostics.filter((x) => x.rule === "invalid-type").map((x) => x.pointer);
    expect(d).toEqual(["/plan/0/step", "/plan/0/citations/0", "/plan/0/citations/1", "/plan/1/args", "/reasoning"]);
    expect(r.plan!.steps[0]!.citations).toEqual([2]);
  });
  it("rejects an empty plan", async () => {
    expect(ids(await run('{"plan": [], "reasoning": "r"}', { tools: reg }))).toEqual(["empty-plan"]);
  });
  it("reports the missing wrapper of a bare list of steps", async () => {
    const r = await run(text(ok.plan), { tools: reg });
    expect(r.dialect).toBe("ikoma");
    expect(r.diagnostics.map((d) => [d.rule, d.expected])).toEqual([["missing-field", "plan"]]);
  });
  it("checks tool names against the registry with a did-you-mean", async () => {
    const r = await run(with_((p) => (p.plan[0].tool_name = "serch_web")), { tools: reg });
    expect(r.diagnostics).toMatchObject([{ rule: "unknown-tool", pointer: "/plan/0/tool_name", step: 1, line: 5 }]);
    expect(r.diagnostics[0]!.message).toBe('Step 1: unknown tool "serch_web"; did you mean "search_web"?');
  });
  it("is chosen by --dialect even for a plan without iKOMA keys", async () => {
    const r = await run('{"plan": [{"tool": "a"}]}', { dialect: "ikoma", tools: reg });
    expect(ids(r)).toContain("unknown-key");
  });
});

const realDir = realPlan("ikoma");
describe.skipIf(!existsSync(realDir))("real iKOMA plans", () => {
  // plangate follows iKOMA's schema, not its runtime: the bare fallback list and the step's extra_field are rejected.
  const expected: Record<string, string[]> = {
    "agent_fallback__current_plan.json": ["missing-field"],
    "agent_prompt__plan_template.json": ["unknown-tool"],
    "planning_doc__invalid_plan.json": ["parse-error"],
    "test_additional_properties_rejected.json": ["unknown-key", "unknown-key"],
    "test_citations__expected_plan.json": ["unknown-tool"],
    "test_empty_plan_fails.json": ["empty-plan"],
    "test_invalid_citations_fail.json": ["invalid-type", "invalid-type"],
    "test_invalid_step_number_fails.json": ["invalid-type"],
    "test_missing_field_fails__no_tool_name.json": ["missing-field"],
    "test_plan_reflection__invalid_plan.json": ["missing-field", "missing-field", "missing-field", "missing-field"],
    "test_unknown_tool_fails.json": ["unknown-tool"],
    "test_valid_minimal_plan.json": [],
    "test_valid_plan_with_citations.json": [],
  };
  it("covers every plan in the folder", () => {
    const files = readdirSync(realDir).filter((f) => f.endsWith(".json") && f !== "mcp_schema.json" && f !== "plan.schema.json");
    expect(files.sort()).toEqual(Object.keys(expected).sort());
  });
  for (const [file, rules] of Object.entries(expected)) {
    it(`${file}: ${rules.length ? rules.join(", ") : "valid"}`, async () => {
      const registry = loadToolsFile(join(realDir, "mcp_schema.json"));
      const r = await run(readFileSync(join(realDir, file)), { file, tools: registry });
      expect(ids(r).sort()).toEqual([...rules].sort());
      expect(r.valid).toBe(rules.length === 0);
    });
  }
});

describe("ikoma key lists", () => {
  it("equal the published schema's", async () => {
    const { IkomaPlanSchema, IkomaStepSchema } = await import("../../schemas/ikoma.js");
    const { IKOMA_ROOT_KEYS } = await import("./index.js");
    const { IKOMA_STEP_KEYS, IKOMA_REQUIRED_STEP_KEYS } = await import("./steps.js");
    expect([...IKOMA_ROOT_KEYS].sort()).toEqual(Object.keys(IkomaPlanSchema.properties).sort());
    expect([...IKOMA_STEP_KEYS].sort()).toEqual(Object.keys(IkomaStepSchema.properties).sort());
    expect([...IKOMA_REQUIRED_STEP_KEYS].sort()).toEqual([...(IkomaStepSchema.required ?? [])].sort());
  });
});

describe("iKOMA step controls and nested steps", () => {
  const plan = (step: Record<string, unknown>) => JSON.stringify({ plan: [{ step: 1, tool_name: "Agent", args: { prompt: "p" }, description: "x", ...step }], reasoning: "r" });
  it("reads repeat, optional, confirm and nested steps numbered within their list", async () => {
    const r = await run(plan({ repeat: 2, confirm: true, steps: [{ step: 1, tool_name: "Read", args: { file_path: "a" }, description: "d" }, { step: 2, tool_name: "Read", args: { file_path: "b" }, description: "d", optional: true }] }));
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
    expect(r.plan!.steps[0]).toMatchObject({ repeat: 2, confirm: true });
    expect(r.plan!.steps[0]!.substeps!.map((s) => s.optional)).toEqual([undefined, true]);
  });
  it.each([
    [{ steps: [{ step: 2, tool_name: "Read", args: {}, description: "d" }] }, "step-numbering", "/plan/0/steps/0/step"],
    [{ repeat: -1 }, "invalid-type", "/plan/0/repeat"],
    [{ steps: [{ step: 1, tool_name: "Agent", args: {}, description: "d", steps: [{ step: 1, tool_name: "Read", args: {}, description: "d" }] }] }, "limit-exceeded", "/plan/0/steps/0/steps"],
  ])("reports %j", async (step, rule, pointer) => {
    const r = await run(plan(step));
    expect(r.diagnostics.filter((d) => d.rule === rule).map((d) => d.pointer)).toEqual([pointer]);
  });
  it("publishes the new keys in the schema", async () => {
    const { default: Value } = await import("typebox/value");
    const { IkomaPlanSchema } = await import("../../schemas/ikoma.js");
    expect(Value.Check(IkomaPlanSchema, JSON.parse(plan({ repeat: 2, steps: [{ step: 1, tool_name: "Read", args: { f: { $enum: ["a"] } }, description: "d" }] })))).toBe(true);
    expect(Value.Check(IkomaPlanSchema, JSON.parse(plan({ repeat: 1001 })))).toBe(false);
  });
});
