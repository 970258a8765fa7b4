import { describe, expect, it } from "vitest";
import { diagnosticsOf, tools } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";

describe("unknown-tool", () => {
  it("reports a tool not in the registry with a did-you-mean hint", async () => {
    const d = await diagnosticsOf("unknown-tool", '[{"tool": "plot_qc"}, {"tool": "plot_qcc"}]', { tools: tools("plot_qc", "run_scar") });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 2, pointer: "/1/tool", severity: "error" });
    expect(d[0]!.message).toBe('Step 2: unknown tool "plot_qcc"; did you mean "plot_qc"?');
  });
  it("compares names exactly (no case folding)", async () => {
    expect(await diagnosticsOf("unknown-tool", '[{"tool": "Plot_QC"}]', { tools: tools("plot_qc") })).toHaveLength(1);
  });
  it("warns once per plan, at the steps, that nothing constrains the tools without a registry or allow list", async () => {
    for (const plan of ['[{"tool": "a"}, {"tool": "b"}, {"tool": "c"}]', '{"steps": [{"tool": "a", "arguments": {}, "intent": "x"}, {"tool": "b", "arguments": {}, "intent": "y"}]}']) {
      const d = await diagnosticsOf("unknown-tool", plan);
      expect(d).toHaveLength(1);
      expect(d[0]).toMatchObject({ severity: "warning", pointer: plan.startsWith("[") ? "" : "/steps", line: 1 });
      expect(d[0]!.message).toContain("any tool would be accepted");
      expect(d[0]!.hint).toContain('tools.allow: ["*"]');
    }
  });
  it("keeps the warning at most a warning, and lower or off when the policy says so", async () => {
    const policy = defaultPolicy("/workspace");
    policy.rules["unknown-tool"] = "info";
    expect((await diagnosticsOf("unknown-tool", '[{"tool": "a"}]', { policy }))[0]!.severity).toBe("info");
    policy.rules["unknown-tool"] = "off";
    expect(await diagnosticsOf("unknown-tool", '[{"tool": "a"}]', { policy })).toEqual([]);
  });
  it("accepts every tool, silently, when the policy allows * explicitly", async () => {
    const policy = defaultPolicy("/workspace");
    policy.tools.allow = ["*"];
    expect(await diagnosticsOf("unknown-tool", '[{"tool": "a"}, {"tool": "anything_else"}]', { policy })).toEqual([]);
  });
  it("accepts registered tools and glob entries", async () => {
    expect(await diagnosticsOf("unknown-tool", '[{"tool": "plot_qc"}, {"tool": "git_status"}]', { tools: tools("plot_qc", "git_*") })).toHaveLength(0);
  });
});
