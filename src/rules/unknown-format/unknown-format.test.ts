import { describe, expect, it } from "vitest";
import { diagnosticsOf, run } from "../../../test/helpers.js";

describe("unknown-format", () => {
  it("reports a dict without plan (scAgent's malformed plan)", async () => {
    const d = await diagnosticsOf("unknown-format", '{"tool": "bad_format"}');
    expect(d).toHaveLength(1);
    expect(d[0]!.hint).toContain("scqc-envelope");
  });
  it("reports a scalar document", async () => {
    expect(await diagnosticsOf("unknown-format", "42")).toHaveLength(1);
  });
  it("accepts a legacy list and an envelope", async () => {
    expect((await run('[{"tool": "a"}]')).dialect).toBe("scqc-legacy");
    expect((await run('{"version": "1.0", "plan": [{"tool": "a"}]}')).dialect).toBe("scqc-envelope");
  });
});
