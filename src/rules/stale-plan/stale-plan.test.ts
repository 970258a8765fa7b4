import { describe, expect, it } from "vitest";
import { diagnosticsOf, envelope, run } from "../../../test/helpers.js";

describe("stale-plan", () => {
  it("warns with the age in days; the plan stays valid", async () => {
    const text = await envelope([{ tool: "a" }], { created_at: "2025-10-05T15:40:20.123456" });
    const r = await run(text);
    const d = r.diagnostics.filter((x) => x.rule === "stale-plan");
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe("warning");
    expect(d[0]!.message).toContain("412 days old");
    expect(r.valid).toBe(true);
  });
  it("honours maxAgeDays", async () => {
    const text = await envelope([{ tool: "a" }], { created_at: "2026-11-01T00:00:00Z" });
    expect(await diagnosticsOf("stale-plan", text)).toHaveLength(0);
    expect(await diagnosticsOf("stale-plan", text, { maxAgeDays: 7 })).toHaveLength(1);
  });
  it("is not reported at exactly the limit", async () => {
    const text = await envelope([{ tool: "a" }], { created_at: "2026-10-23T12:00:00Z" });
    expect(await diagnosticsOf("stale-plan", text)).toHaveLength(0);
  });
});
