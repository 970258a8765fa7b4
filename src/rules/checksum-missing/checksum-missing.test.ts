import { describe, expect, it } from "vitest";
import { defaultPolicy } from "../../policy/defaults.js";
import { envelope, run } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const requireChecksum = defaultPolicy("/ws");
requireChecksum.plan.requireChecksum = true;

ruleTester("checksum-missing", {
  valid: [{ name: "a sealed envelope", code: await envelope([{ tool: "a" }]) }],
  invalid: [
    {
      name: "an envelope without checksum is a warning",
      code: '{"version": "1.0", "created_at": "2026-11-20T10:00:00", "plan": [{"tool": "a"}]}',
      errors: [{ line: 1, column: 1, endLine: 1, endColumn: 81, pointer: "", severity: "warning", messageId: "absent", message: /has no checksum/ }],
    },
    { name: "an empty checksum", code: await envelope([{ tool: "a" }], { checksum: "" }), errors: [{ line: 6, column: 3, endLine: 6, endColumn: 13, pointer: "/checksum", messageId: "empty", message: /checksum is empty/ }] },
    { name: "a null checksum", code: await envelope([{ tool: "a" }], { checksum: null }), errors: [{ line: 6, column: 3, endLine: 6, endColumn: 13, pointer: "/checksum", messageId: "empty", message: /checksum is empty/ }] },
    {
      name: "an error with plan.requireChecksum",
      code: '{"version": "1.0", "plan": [{"tool": "a"}]}',
      options: { policy: requireChecksum },
      errors: [{ line: 1, column: 1, endLine: 1, endColumn: 44, severity: "error" }],
    },
  ],
  docs: { file: "plan.json" },
});

describe("checksum-missing and the plan's verdict", () => {
  it("leaves the plan valid as a warning", async () => {
    expect((await run('{"version": "1.0", "created_at": "2026-11-20T10:00:00", "plan": [{"tool": "a"}]}')).valid).toBe(true);
  });
  it("rejects the plan with plan.requireChecksum", async () => {
    expect((await run('{"version": "1.0", "plan": [{"tool": "a"}]}', { policy: requireChecksum })).valid).toBe(false);
  });
  it("an explicit rules: entry wins over requireChecksum", async () => {
    const policy = defaultPolicy("/workspace");
    policy.plan.requireChecksum = true;
    policy.rules["checksum-missing"] = "warning";
    const r = await run('{"version": "1.0", "plan": [{"tool": "a"}]}', { policy });
    expect(r.diagnostics.find((d) => d.rule === "checksum-missing")?.severity).toBe("warning");
    expect(r.valid).toBe(true);
  });
});
