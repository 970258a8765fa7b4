import { envelope } from "../../../test/helpers.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const ikomaStep = (n: unknown) => `{"step": ${JSON.stringify(n)}, "tool_name": "t", "args": {}, "description": "d"}`;

ruleTester("invalid-type", {
  valid: [{ name: "well-typed steps in an envelope", code: await envelope([{ tool: "a", description: "d", params: {} }]) }],
  invalid: [
    { name: "a step that is not an object", code: '[{"tool": "a"}, "plot_qc"]', errors: [{ line: 1, column: 17, endLine: 1, endColumn: 26, step: 2, pointer: "/1", messageId: "scqcStep" }] },
    { name: "params that are not an object", code: '[{"tool": "a", "params": "all"}]', errors: [{ line: 1, column: 26, endLine: 1, endColumn: 31, pointer: "/0/params", message: 'Step 1: "params" must be an object, not a string.', messageId: "wrongType" }] },
    { name: "a plan that is not a list", code: '{"version": "1.0", "plan": {"tool": "a"}}', errors: [{ line: 1, column: 28, endLine: 1, endColumn: 41, pointer: "/plan", message: /"plan" must be a list of steps/, messageId: "scqcPlanList" }] },
    { name: "a created_at that is not a timestamp", code: await envelope([{ tool: "a" }], { created_at: "yesterday" }), errors: [{ line: 3, column: 17, endLine: 3, endColumn: 28, pointer: "/created_at", actual: "yesterday", messageId: "badCreatedAt" }] },
    { name: "a tool that is not a string", code: '[{"tool": 7}]', errors: [{ line: 1, column: 11, endLine: 1, endColumn: 12, pointer: "/0/tool", message: /"tool" must be a non-empty string, not an integer/, messageId: "wrongType" }] },
    {
      name: "iKOMA step numbers that are not positive integers",
      code: `{"plan": [${[ikomaStep(0), ikomaStep(true), ikomaStep("3")].join(", ")}], "reasoning": "r"}`,
      errors: [
        { line: 1, column: 20, endLine: 1, endColumn: 21, pointer: "/plan/0/step", messageId: "ikomaStepNotPositive" },
        { line: 1, column: 83, endLine: 1, endColumn: 87, pointer: "/plan/1/step", messageId: "ikomaStepNotIntegerShown" },
        { line: 1, column: 149, endLine: 1, endColumn: 152, pointer: "/plan/2/step", messageId: "ikomaStepNotInteger" },
      ],
    },
  ],
  docs: { file: "plan.json" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("invalid-type", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "invalid-type", messageId: "wrongType", data: { what: { kind: "step", step: 1, field: "tool" }, expected: { kind: "shape", shape: "nonEmptyString" }, actual: "a number" }, start: 9, end: 17, at: "/steps/0/tool" }] },
      errors: [{ messageId: "wrongType", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 1: \"tool\" must be a non-empty string, not a number.", hint: "write Step 1: \"tool\" as a non-empty string", pointer: "/steps/0/tool" }],
    },
  ],
});
