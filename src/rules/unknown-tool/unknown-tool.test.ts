import { describe, expect, it } from "vitest";
import { diagnosticsOf, tools } from "../../../test/helpers.js";

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
  it("says once, as info, that it cannot run without a registry", async () => {
    const d = await diagnosticsOf("unknown-tool", '[{"tool": "a"}, {"tool": "b"}]');
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe("info");
  });
  it("accepts registered tools and glob entries", async () => {
    expect(await diagnosticsOf("unknown-tool", '[{"tool": "plot_qc"}, {"tool": "git_status"}]', { tools: tools("plot_qc", "git_*") })).toHaveLength(0);
  });
});
