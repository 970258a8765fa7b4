import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

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

kindRuleTester("return-json", "return", {
  text: (input) => input.text,
  valid: [{ name: "a JSON object", input: returnInput(good()) }],
  invalid: [
    {
      name: "text that is not JSON",
      input: returnInput('{"status": }'),
      errors: [{ messageId: "invalid", line: 1, column: 12, message: /^The subagent return is not valid JSON: / }],
    },
    {
      name: "JSON that is not an object stops the other checks",
      input: returnInput("[1, 2]"),
      errors: [{ messageId: "notObject", line: 1, column: 1, message: /^The subagent return is an? [a-z]+, not a JSON object with status, summary/ }],
    },
    {
      name: "a return file that cannot be read",
      input: { ...returnInput(""), problems: [{ kind: "unreadable", file: "out/r.json", reason: "ENOENT" }] },
      errors: [{ messageId: "unreadable", message: "Return file out/r.json cannot be read (ENOENT).", hint: "check the path the subagent wrote its return to" }],
    },
    {
      name: "bytes that are not text",
      input: { ...returnInput(""), problems: [{ kind: "invalid", message: "it is not UTF-8 text" }] },
      errors: [{ messageId: "invalid", message: "The subagent return is not valid JSON: it is not UTF-8 text." }],
    },
  ],
});
