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
  it("reports bidi and zero-width controls in tool names and paths", async () => {
    const d = await diagnosticsOf("unsafe-value", JSON.stringify({ steps: [{ tool: "read\u200b_file", arguments: { path: "a\u202etxt.exe" }, intent: "x" }] }));
    expect(d.map((x) => x.pointer)).toEqual(["/steps/0/tool", "/steps/0/arguments/path"]);
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "load_data", "params": {"file_path": "data\u2066.h5ad"}}]')).toHaveLength(1);
  });
  it("accepts ordinary values", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "a", "params": {"n": 1e300, "s": "\\ud83d\\ude00"}}]')).toHaveLength(0);
  });
});
