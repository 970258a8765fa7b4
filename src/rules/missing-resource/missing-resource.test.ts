import { planMd } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const files = { "docs/spec.md": "# Spec\n" };
const resources = planMd("### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)", "### READ\n- Resource: [page](https://example.com/ü)", "### PRUNE\n- Resource: docs/spec.md");

ruleTester("missing-resource", {
  valid: [
    { name: "a local path, a URL and a bare path", code: resources, file: "plan.md", files },
    { name: "the same, CRLF", code: resources.replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "a READ and a PRUNE without Resource",
      code: planMd("### READ\n- Description: x", "### PRUNE\n- **Description:** y"),
      file: "plan.md",
      files,
      errors: [
        { line: 10, column: 1, endLine: 10, endColumn: 9, step: 1, messageId: "noResource", message: /^Step 1 \(READ\): no/ },
        { line: 15, column: 1, endLine: 15, endColumn: 10, step: 2, messageId: "noResource", message: /^Step 2 \(PRUNE\): no/ },
      ],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});
