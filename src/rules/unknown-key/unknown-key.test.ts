import { ruleTester } from "../../../test/rule-tester.js";

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
