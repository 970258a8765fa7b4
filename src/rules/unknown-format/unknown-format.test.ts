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
    {
      name: "seal: a legacy plan",
      input: { facts: [{ rule: "unknown-format", messageId: "sealLegacy", start: 9, end: 17 }] },
      errors: [{ messageId: "sealLegacy", line: 2, column: 1, message: "This is a legacy plan (a bare list): it has no envelope to seal.", hint: "run `plangate migrate FILE` to wrap it in a sealed v1.0 envelope" }],
    },
    {
      name: "seal: not an envelope",
      input: { facts: [{ rule: "unknown-format", messageId: "sealNotEnvelope", start: 9, end: 17 }] },
      errors: [{ messageId: "sealNotEnvelope", line: 2, column: 1, message: "This is not a scQC v1.0 envelope.", hint: 'seal works on {"version": "1.0", …, "plan": [...]} envelopes' }],
    },
    {
      name: "migrate: an envelope already",
      input: { facts: [{ rule: "unknown-format", messageId: "migrateEnvelope", start: 9, end: 17 }] },
      errors: [{ messageId: "migrateEnvelope", line: 2, column: 1, message: "This plan is already a v1.0 envelope.", hint: "run `plangate seal FILE` to recompute its checksum" }],
    },
    {
      name: "migrate: not a list",
      input: { facts: [{ rule: "unknown-format", messageId: "migrateNotLegacy", start: 9, end: 17 }] },
      errors: [{ messageId: "migrateNotLegacy", line: 2, column: 1, message: "This is not a legacy scQC plan (a JSON array of steps).", hint: 'migrate takes a JSON array of {"tool", …} steps' }],
    },
    {
      name: "migrate: an object that is no envelope",
      input: { facts: [{ rule: "unknown-format", messageId: "migrateNotLegacyObject", start: 9, end: 17 }] },
      errors: [{ messageId: "migrateNotLegacyObject", line: 2, column: 1, message: "This is not a legacy scQC plan (a JSON array of steps).", hint: "run `plangate seal FILE` to recompute its checksum" }],
    },
  ],
});
