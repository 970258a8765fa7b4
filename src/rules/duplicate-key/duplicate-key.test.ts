import { ruleTester } from "../../../test/rule-tester.js";

ruleTester("duplicate-key", {
  valid: ['[{"tool": "a", "params": {"x": 1, "y": 2}}]'],
  invalid: [
    {
      name: "the second key is reported",
      code: '[{"tool": "plot_qc",\n  "tool": "run_scar"}]',
      errors: [{ line: 2, column: 3, endLine: 2, endColumn: 9, pointer: "/0/tool", severity: "error", message: /^Duplicate key "tool" in one object \(first at line 1\)/, messageId: "jsonDuplicateKeyFirstAt" }],
    },
    { name: "a duplicate in nested params", code: '[{"tool": "a", "params": {"x": 1, "x": 2}}]', errors: [{ line: 1, column: 35, endLine: 1, endColumn: 38, pointer: "/0/params/x", message: /Duplicate key "x"/, messageId: "jsonDuplicateKeyFirstAt" }] },
  ],
  docs: { file: "plan.json" },
});
