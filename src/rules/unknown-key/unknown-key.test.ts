import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

ruleTester("unknown-key", {
  valid: [
    '[{"tool": "a", "description": "d", "params": {"anything": 1}}]',
    { name: "an intake step's keys", code: '{"steps": [{"tool": "a", "arguments": {}, "intent": "i"}]}' },
  ],
  invalid: [
    {
      name: "a misspelt step key, with the closest valid key as the hint",
      code: '[{"tool": "a", "parms": {}}]',
      errors: [{ line: 1, column: 16, endLine: 1, endColumn: 23, pointer: "/0/parms", step: 1, severity: "error", message: /parms/, hint: /"params"/, messageId: "unknownKeyNear" }],
    },
    { name: "an unknown envelope key", code: '{"version": "1.0", "checksun": "x", "plan": [{"tool": "a"}]}', errors: [{ line: 1, column: 20, pointer: "/checksun", messageId: "unknownKeyNear", endLine: 1, endColumn: 30 }] },
  ],
  docs: { file: "plan.json" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("unknown-key", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "unknown-key", messageId: "unknownKeyNear", data: { what: { kind: "step", step: 1 }, key: "tol", near: "tool" }, start: 9, end: 17, at: "/steps/0/tol" }] },
      errors: [{ messageId: "unknownKeyNear", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 1: unknown key \"tol\"; did you mean \"tool\"?", hint: "rename it to \"tool\"", pointer: "/steps/0/tol" }],
    },
  ],
});
