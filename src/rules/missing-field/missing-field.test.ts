import { describe, expect, it } from "vitest";
import { diagnosticsOf, run } from "../../../test/helpers.js";

describe("missing-field", () => {
  it("reports a step without tool, with its 1-based number", async () => {
    const d = await diagnosticsOf("missing-field", '[{"tool": "a"}, {"description": "x", "params": {}}]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 2, pointer: "/1", expected: "tool" });
    expect(d[0]!.message).toContain("Step 2");
  });
  it("accepts a step with only tool (description is optional, as in scAgent)", async () => {
    const r = await run('[{"tool": "apply_qc_filters", "params": {"min_genes": 200}}]');
    expect(r.diagnostics.filter((d) => d.rule === "missing-field")).toHaveLength(0);
  });
});
