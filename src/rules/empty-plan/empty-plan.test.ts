import { envelope } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

ruleTester("empty-plan", {
  valid: ['[{"tool": "a"}]'],
  invalid: [
    { name: "an empty envelope plan", code: await envelope([]), errors: [{ line: 7, column: 11, endLine: 7, endColumn: 13, pointer: "/plan", message: /The plan is empty/, messageId: "emptyList" }] },
    { name: "an empty legacy list", code: "[]", errors: [{ line: 1, column: 1, endLine: 1, endColumn: 3, pointer: "", messageId: "emptyList" }] },
  ],
  docs: { file: "plan.json" },
});
