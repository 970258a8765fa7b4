import { describe, expect, it } from "vitest";
import { run } from "../../../test/helpers.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

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

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("unknown-format", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "unknown-format", messageId: "wrongSyntax", data: { dialect: "teddy", syntaxes: "markdown", syntax: "json" }, start: 9, end: 17, at: "" }] },
      errors: [{ messageId: "wrongSyntax", line: 2, column: 1, endLine: 2, endColumn: 9, message: "The \"teddy\" dialect is written in markdown, not json.", hint: "write the plan as markdown, or choose another --dialect", pointer: "" }],
    },
  ],
});
