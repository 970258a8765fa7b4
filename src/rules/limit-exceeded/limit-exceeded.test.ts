import { defaultPolicy } from "../../policy/defaults.js";
import { ruleTester } from "../../../test/rule-tester.js";

const limits = (l: Partial<ReturnType<typeof defaultPolicy>["limits"]>) => {
  const policy = defaultPolicy("/ws");
  Object.assign(policy.limits, l);
  return { policy };
};

ruleTester("limit-exceeded", {
  valid: ['[{"tool": "a"}, {"tool": "b"}]'],
  invalid: [
    { name: "nesting deeper than the limit", code: "[".repeat(100_000) + "]".repeat(100_000), errors: [{ line: 1, column: 1001, endLine: 1, endColumn: 1002, message: "Nesting is deeper than 1000 levels.", messageId: "jsonTooDeep" }] },
    // Over the size limit the file is not read, so the diagnostic is about the file as a whole: no position.
    { name: "a file over the size limit", code: '[{"tool": "plot_qc"}]', options: limits({ maxFileBytes: 10 }), errors: [{ message: /21 bytes, over the 10-byte limit/, expected: 10, actual: 21, messageId: "fileTooLarge" }] },
    { name: "more steps than the limit", code: '[{"tool": "a"}, {"tool": "b"}]', options: limits({ maxSteps: 1 }), errors: [{ line: 1, column: 1, endLine: 1, endColumn: 31, pointer: "", message: /2 steps, over the 1-step limit/, messageId: "tooManySteps" }] },
  ],
  docs: { file: "plan.yaml", options: limits({ maxSteps: 1 }) },
});
