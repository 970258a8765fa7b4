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

describe("unsafe-value in tool names and paths", () => {
  it("reports a bidi override in a tool name, at the name", async () => {
    const d = await diagnosticsOf("unsafe-value", '[{"tool": "read_file\\u202e"}]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ pointer: "/0/tool", step: 1, line: 1, column: 11 });
    expect(d[0]!.message).toContain("\\u202e");
  });
  it("reports zero-width and control characters in tool names", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "read\\u200bfile"}, {"tool": "read_file\\u0000"}]')).toHaveLength(2);
  });
  it("reports a bidi control in a path argument", async () => {
    const d = await diagnosticsOf("unsafe-value", '[{"tool": "read_file", "params": {"path": "src/\\u202etxt.exe"}}]');
    expect(d.map((x) => x.pointer)).toEqual(["/0/params/path"]);
  });
  it("accepts plain tool names, non-Latin text and such characters outside paths", async () => {
    expect(await diagnosticsOf("unsafe-value", '[{"tool": "read_file", "description": "read \\u202e", "params": {"path": "données/é.txt", "note": "\\u200b"}}]')).toEqual([]);
  });
});
