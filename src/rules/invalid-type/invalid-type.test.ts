import { describe, expect, it } from "vitest";
import { diagnosticsOf, envelope } from "../../../test/helpers.js";

describe("invalid-type", () => {
  it("reports a step that is not an object", async () => {
    const d = await diagnosticsOf("invalid-type", '[{"tool": "a"}, "plot_qc"]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 2, pointer: "/1" });
  });
  it("reports params that are not an object", async () => {
    expect(await diagnosticsOf("invalid-type", '[{"tool": "a", "params": "all"}]')).toHaveLength(1);
  });
  it("reports a plan that is not a list", async () => {
    expect(await diagnosticsOf("invalid-type", '{"version": "1.0", "plan": {"tool": "a"}}')).toHaveLength(1);
  });
  it("reports a bad created_at", async () => {
    expect(await diagnosticsOf("invalid-type", await envelope([{ tool: "a" }], { created_at: "yesterday" }))).toHaveLength(1);
  });
  it("reports a non-string tool", async () => {
    expect(await diagnosticsOf("invalid-type", '[{"tool": 7}]')).toHaveLength(1);
  });
  it("accepts well-typed steps", async () => {
    expect(await diagnosticsOf("invalid-type", await envelope([{ tool: "a", description: "d", params: {} }]))).toHaveLength(0);
  });
});
