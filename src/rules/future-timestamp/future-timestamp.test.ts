import { describe, expect, it } from "vitest";
import { diagnosticsOf, envelope } from "../../../test/helpers.js";

describe("future-timestamp", () => {
  it("warns about a zoned time more than 5 minutes ahead", async () => {
    const d = await diagnosticsOf("future-timestamp", await envelope([{ tool: "a" }], { created_at: "2026-11-22T12:06:00Z" }));
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe("warning");
  });
  it("gives a zoneless time 14 hours of tolerance", async () => {
    expect(await diagnosticsOf("future-timestamp", await envelope([{ tool: "a" }], { created_at: "2026-11-23T01:00:00" }))).toHaveLength(0);
    expect(await diagnosticsOf("future-timestamp", await envelope([{ tool: "a" }], { created_at: "2026-11-23T03:00:00" }))).toHaveLength(1);
  });
  it("accepts a time within the skew", async () => {
    expect(await diagnosticsOf("future-timestamp", await envelope([{ tool: "a" }], { created_at: "2026-11-22T12:04:00Z" }))).toHaveLength(0);
  });
});
