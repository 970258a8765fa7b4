import { envelope } from "../../../test/helpers.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

ruleTester("empty-plan", {
  valid: ['[{"tool": "a"}]'],
  invalid: [
    { name: "an empty envelope plan", code: await envelope([]), errors: [{ line: 7, column: 11, endLine: 7, endColumn: 13, pointer: "/plan", message: /The plan is empty/, messageId: "emptyList" }] },
    { name: "an empty legacy list", code: "[]", errors: [{ line: 1, column: 1, endLine: 1, endColumn: 3, pointer: "", messageId: "emptyList" }] },
  ],
  docs: { file: "plan.json" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("empty-plan", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "empty-plan", messageId: "emptyList", data: { what: { kind: "member", name: "steps" } }, start: 9, end: 17, at: "/steps" }] },
      errors: [{ messageId: "emptyList", line: 2, column: 1, endLine: 2, endColumn: 9, message: "\"steps\" is empty: a plan needs at least one step.", hint: "add the steps to run, or do not submit an empty plan", pointer: "/steps" }],
    },
  ],
});
