import { describe, expect, it } from "vitest";
import { diagnosticsOf, run } from "../../../test/helpers.js";

describe("missing-intent", () => {
  it("reports an absent intent (not missing-field)", async () => {
    const text = JSON.stringify({ steps: [{ tool: "read_file", arguments: {} }] });
    const report = await run(text);
    expect(report.diagnostics.filter((d) => d.rule === "missing-field")).toEqual([]);
    const d = report.diagnostics.filter((x) => x.rule === "missing-intent");
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0" });
    expect(d[0]!.message).toBe('Step 1 ("read_file") has no "intent": say why the step runs.');
  });
  it("reports null, empty, whitespace-only and invisible-only intents, in YAML too", async () => {
    const yaml = 'steps:\n  - {tool: a, arguments: {}, intent: }\n  - {tool: a, arguments: {}, intent: ""}\n  - {tool: a, arguments: {}, intent: "  \\t"}\n  - {tool: a, arguments: {}, intent: "\\u200b"}\n';
    const d = await diagnosticsOf("missing-intent", yaml, { file: "plan.yaml" });
    expect(d.map((x) => [x.step, x.line])).toEqual([
      [1, 2],
      [2, 3],
      [3, 4],
      [4, 5],
    ]);
  });
  it("leaves an intent of the wrong type to invalid-type", async () => {
    const report = await run(JSON.stringify({ steps: [{ tool: "a", arguments: {}, intent: 3 }] }));
    expect(report.diagnostics.map((d) => d.rule)).toContain("invalid-type");
    expect(report.diagnostics.map((d) => d.rule)).not.toContain("missing-intent");
  });
  it("accepts a written intent", async () => {
    expect(await diagnosticsOf("missing-intent", JSON.stringify({ steps: [{ tool: "a", arguments: {}, intent: "Read the table" }] }))).toEqual([]);
  });
  it("does not apply to scQC, whose description is optional", async () => {
    expect(await diagnosticsOf("missing-intent", '[{"tool": "plot_qc"}]')).toEqual([]);
  });
});
