import { ruleTester } from "../../../test/rule-tester.js";

ruleTester("missing-field", {
  valid: [{ name: "a step with only tool (description is optional, as in scAgent)", code: '[{"tool": "apply_qc_filters", "params": {"min_genes": 200}}]' }],
  invalid: [
    {
      name: "a step without tool, with its 1-based number",
      code: '[{"tool": "a"}, {"description": "x", "params": {}}]',
      errors: [{ line: 1, column: 17, endLine: 1, endColumn: 51, step: 2, pointer: "/1", expected: "tool", message: /Step 2/, messageId: "scqcTool" }],
    },
  ],
  docs: { file: "plan.json" },
});
