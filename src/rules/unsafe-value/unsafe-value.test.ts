import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

describe("unsafe-value", () => {
  it("reports a number that overflows to infinity", async () => {
    const d = await diagnosticsOf("unsafe-value", '[{"tool": "a", "params": {"n": 1e400}}]');
    expect(d).toHaveLength(1);
    expect(d[0]!.pointer).toBe("/0/params/n");
  });
  it("reports a lone surrogate", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "a", "description": "\\ud800"}]')).toHaveLength(1);
  });
  it("reports __proto__ keys", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "a", "params": {"__proto__": {"x": 1}}}]')).toHaveLength(1);
  });
  it("reports bidi controls in keys", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "a", "params": {"pa\u202eth": 1}}]')).toHaveLength(1);
  });
  it("accepts ordinary values", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "a", "params": {"n": 1e300, "s": "\\ud83d\\ude00"}}]')).toHaveLength(0);
  });
});
