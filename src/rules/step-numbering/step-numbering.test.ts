import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const step = (n: unknown) => `{"step": ${JSON.stringify(n)}, "tool_name": "t", "args": {}, "description": "d"}`;
const plan = (...steps: string[]) => `{"plan": [${steps.join(", ")}], "reasoning": "r"}`;

ruleTester("step-numbering", {
  valid: [
    plan(step(1), step(2), step(3)),
    { name: "numbers that are not positive integers are invalid-type's", code: plan(step(0), step(true), step("3")) },
    { name: "another dialect", code: '[{"tool": "a"}]' },
  ],
  invalid: [
    {
      name: "a duplicate number, at the second step's \"step\"",
      code: plan(step(1), step(1)),
      errors: [{ line: 1, column: 83, endLine: 1, endColumn: 84, step: 2, pointer: "/plan/1/step", expected: 2, actual: 1, hint: 'set "step": 2', message: /repeats step 1's number/, messageId: "repeats" }],
    },
    {
      name: "a gap, and every step after it",
      code: plan(step(1), step(3), step(4)),
      errors: [
        { line: 1, column: 83, endLine: 1, endColumn: 84, step: 2, actual: 3, message: /skips to 3/, messageId: "skips" },
        { line: 1, column: 146, endLine: 1, endColumn: 147, step: 3, actual: 4, messageId: "skips" },
      ],
    },
    {
      name: "steps out of order",
      code: plan(step(2), step(1)),
      errors: [
        { line: 1, column: 20, endLine: 1, endColumn: 21, step: 1, messageId: "skips" },
        { line: 1, column: 83, endLine: 1, endColumn: 84, step: 2, message: /out of order/, messageId: "outOfOrder" },
      ],
    },
    { name: "the bare list iKOMA's agent falls back to", code: `[${step(2)}]`, errors: [{ line: 1, column: 11, endLine: 1, endColumn: 12, pointer: "/0/step", actual: 2, messageId: "skips" }] },
  ],
  docs: { file: "plan.json" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("step-numbering", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "step-numbering", messageId: "nested", data: { what: { kind: "step", step: 2, nested: 1 }, number: 3, expected: 1 }, start: 9, end: 17, at: "/plan/1/steps/0/step" }] },
      errors: [{ messageId: "nested", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 2, nested step 1 is numbered 3; nested steps are numbered 1, 2, 3… within their list, so this one is 1.", hint: "set \"step\": 1", pointer: "/plan/1/steps/0/step" }],
    },
  ],
});
