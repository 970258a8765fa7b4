import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

describe("duplicate-key", () => {
  it("reports the second key", async () => {
    const d = await diagnosticsOf("duplicate-key", '[{"tool": "plot_qc",\n  "tool": "run_scar"}]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: "error", line: 2, pointer: "/0/tool" });
  });
  it("reports duplicates in nested params", async () => {
    expect(await diagnosticsOf("duplicate-key", '[{"tool": "a", "params": {"x": 1, "x": 2}}]')).toHaveLength(1);
  });
  it("accepts distinct keys", async () => {
    expect(await diagnosticsOf("duplicate-key", '[{"tool": "a", "params": {"x": 1, "y": 2}}]')).toHaveLength(0);
  });
});
