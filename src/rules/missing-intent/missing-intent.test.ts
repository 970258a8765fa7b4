import { describe, expect, it } from "vitest";
import { run } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const absent = JSON.stringify({ steps: [{ tool: "read_file", arguments: {} }] });
const wrongType = JSON.stringify({ steps: [{ tool: "a", arguments: {}, intent: 3 }] });

ruleTester("missing-intent", {
  valid: [
    JSON.stringify({ steps: [{ tool: "a", arguments: {}, intent: "Read the table" }] }),
    { name: "an intent of the wrong type is invalid-type's", code: wrongType },
    { name: "scQC, whose description is optional", code: '[{"tool": "plot_qc"}]' },
  ],
  invalid: [
    { name: "an absent intent", code: absent, errors: [{ line: 1, column: 11, endLine: 1, endColumn: 46, step: 1, pointer: "/steps/0", messageId: "absent", message: 'Step 1 ("read_file") has no "intent": say why the step runs.' }] },
    {
      name: "null, empty, whitespace-only and invisible-only intents, in YAML",
      code: 'steps:\n  - {tool: a, arguments: {}, intent: }\n  - {tool: a, arguments: {}, intent: ""}\n  - {tool: a, arguments: {}, intent: "  \\t"}\n  - {tool: a, arguments: {}, intent: "\\u200b"}\n',
      file: "plan.yaml",
      errors: [
        { line: 2, column: 38, endLine: 2, endColumn: 38, step: 1, pointer: "/steps/0/intent", message: /has no "intent"/ },
        { line: 3, column: 38, endLine: 3, endColumn: 40, step: 2, pointer: "/steps/1/intent", messageId: "blank", message: /has a blank "intent"/ },
        { line: 4, column: 38, endLine: 4, endColumn: 44, step: 3, pointer: "/steps/2/intent", message: /has a blank "intent"/ },
        { line: 5, column: 38, endLine: 5, endColumn: 46, step: 4, pointer: "/steps/3/intent", message: /has a blank "intent"/ },
      ],
    },
  ],
  docs: { file: "plan.yaml" },
});

describe("missing-intent beside the other rules", () => {
  it("is the rule for an absent intent, not missing-field", async () => {
    expect((await run(absent)).diagnostics.filter((d) => d.rule === "missing-field")).toEqual([]);
  });
  it("leaves an intent of the wrong type to invalid-type", async () => {
    expect((await run(wrongType)).diagnostics.map((d) => d.rule)).toContain("invalid-type");
  });
});
