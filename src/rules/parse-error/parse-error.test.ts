import { describe, expect, it } from "vitest";
import { diagnosticsOf, run } from "../../../test/helpers.js";

describe("parse-error", () => {
  it("reports malformed JSON at the fault", async () => {
    const d = await diagnosticsOf("parse-error", '[\n  {"tool": "plot_qc",}\n]');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ severity: "error", line: 2 });
  });
  it("reports an empty file", async () => {
    expect(await diagnosticsOf("parse-error", "")).toHaveLength(1);
  });
  it("reports invalid UTF-8 bytes", async () => {
    expect(await diagnosticsOf("parse-error", new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]))).toHaveLength(1);
  });
  it("does not re-read a .json file as YAML", async () => {
    const r = await run("tool: plot_qc\n", { file: "plan.json" });
    expect(r.diagnostics.map((x) => x.rule)).toEqual(["parse-error"]);
  });
  it("accepts well-formed JSON", async () => {
    expect(await diagnosticsOf("parse-error", '[{"tool": "plot_qc"}]')).toHaveLength(0);
  });
  it("skips the later checks after a parse error", async () => {
    const r = await run("[{");
    expect(r.diagnostics.map((x) => x.rule)).toEqual(["parse-error"]);
    expect(r.valid).toBe(false);
  });
});
