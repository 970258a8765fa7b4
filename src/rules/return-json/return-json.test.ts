import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";

describe("return-json", () => {
  it("reports text that is not JSON, with the position of the fault, and stops", async () => {
    const r = await ret('Here is my result:\n{"status": "completed"}');
    expect(rules(r)).toEqual(["return-json"]);
    expect(r.diagnostics[0]).toMatchObject({ line: 1, column: 1 });
    const cut = await ret('{\n  "status": "completed",\n  "summary": "x"');
    expect(rules(cut)).toEqual(["return-json"]);
    expect(cut.diagnostics[0]!.line).toBe(3);
  });
  it("reports a top level that is not an object", async () => {
    for (const v of ["[]", '"completed"', "null", "42"]) {
      const r = await ret(v);
      expect(rules(r)).toEqual(["return-json"]);
      expect(r.diagnostics[0]!.message).toContain("not a JSON object");
    }
  });
  it("reports duplicate keys: two readers could see two statuses", async () => {
    const r = await ret('{"status": "failed", "status": "completed"}');
    expect(rules(r)).toContain("return-json");
  });
  it("reports bytes that are not UTF-8", async () => {
    const { checkReturn } = await import("../../node/check-return.js");
    const r = await checkReturn(new Uint8Array([0x7b, 0xff, 0x7d]), { workspace: "/nonexistent" });
    expect(rules(r)).toEqual(["return-json"]);
  });
  it("accepts a JSON object, with or without a BOM", async () => {
    expect(rules(await ret(goodReturn()))).toEqual([]);
    expect(rules(await ret(`\uFEFF${JSON.stringify(goodReturn())}`))).toEqual([]);
  });
});
