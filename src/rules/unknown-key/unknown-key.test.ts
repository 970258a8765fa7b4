import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

describe("unknown-key", () => {
  it("reports a misspelt step key with the closest valid key", async () => {
    const d = await diagnosticsOf("unknown-key", '[{"tool": "a", "parms": {}}]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ pointer: "/0/parms", step: 1, line: 1, column: 16 });
    expect(d[0]!.hint).toContain('"params"');
  });
  it("reports an unknown envelope key", async () => {
    expect(await diagnosticsOf("unknown-key", '{"version": "1.0", "checksun": "x", "plan": [{"tool": "a"}]}')).toHaveLength(1);
  });
  it("accepts the defined keys", async () => {
    expect(await diagnosticsOf("unknown-key", '[{"tool": "a", "description": "d", "params": {"anything": 1}}]')).toHaveLength(0);
  });
});
