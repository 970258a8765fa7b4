import { describe, expect, it } from "vitest";
import { run } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

ruleTester("unknown-format", {
  valid: ['[{"tool": "a"}]', '{"version": "1.0", "plan": [{"tool": "a"}]}'],
  invalid: [
    { name: "a dict without plan (scAgent's malformed plan)", code: '{"tool": "bad_format"}', errors: [{ line: 1, column: 1, endLine: 1, endColumn: 23, hint: /scqc-envelope/, messageId: "notAPlan" }] },
    { name: "a scalar document", code: "42", errors: [{ line: 1, column: 1, endLine: 1, endColumn: 3, pointer: "", message: /^The document is not a plan plangate knows/, messageId: "notAPlan" }] },
  ],
  docs: { file: "plan.json" },
});

describe("unknown-format: the dialect found", () => {
  it("reads a legacy list and an envelope as their dialects", async () => {
    expect((await run('[{"tool": "a"}]')).dialect).toBe("scqc-legacy");
    expect((await run('{"version": "1.0", "plan": [{"tool": "a"}]}')).dialect).toBe("scqc-envelope");
  });
});
