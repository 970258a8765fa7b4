import { describe, expect, it } from "vitest";
import { diagnosticsOf, envelope } from "../../../test/helpers.js";

describe("empty-plan", () => {
  it("reports an empty envelope plan", async () => {
    const d = await diagnosticsOf("empty-plan", await envelope([]));
    expect(d).toHaveLength(1);
    expect(d[0]!.pointer).toBe("/plan");
  });
  it("reports an empty legacy list", async () => {
    expect(await diagnosticsOf("empty-plan", "[]")).toHaveLength(1);
  });
  it("accepts a plan with a step", async () => {
    expect(await diagnosticsOf("empty-plan", '[{"tool": "a"}]')).toHaveLength(0);
  });
});
