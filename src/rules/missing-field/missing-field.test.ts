import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

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

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("missing-field", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "missing-field", messageId: "missingField", data: { what: { kind: "step", step: 1 }, field: "tool" }, start: 9, end: 17, at: "/steps/0" }] },
      errors: [{ messageId: "missingField", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 1 is missing the required field \"tool\".", hint: "add \"tool\"", pointer: "/steps/0" }],
    },
    {
      name: "seal: an envelope whose plan cannot be located",
      input: { facts: [{ rule: "missing-field", messageId: "envelopeNoPlan", start: 9, end: 17 }] },
      errors: [{ messageId: "envelopeNoPlan", line: 2, column: 1, message: 'The envelope has no "plan".' }],
    },
  ],
});
