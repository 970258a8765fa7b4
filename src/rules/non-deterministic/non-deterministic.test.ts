import { defaultPolicy } from "../../policy/defaults.js";
import { ruleTester } from "../../../test/rule-tester.js";

const plan = (step: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "t", arguments: {}, intent: "do it", ...step }] });
const conditionals = defaultPolicy("/ws");
conditionals.plan.allowConditionals = true;

ruleTester("non-deterministic", {
  valid: [
    { name: "a branch when the policy allows conditionals", code: plan({ condition: "x" }), options: { policy: conditionals } },
    { name: "order keys that fix the order", code: plan({ arguments: { parallel: false, background: "no" } }) },
    {
      name: "fixed values, and code that mentions randomness inside file content",
      code: plan({ arguments: { branch: "main", after: "line 3", dependencies: ["numpy"], path: "out/run-42.txt", content: "import random\nx = random.random()\nprint(datetime.now())", date: "2026-01-01" } }),
    },
  ],
  invalid: [
    {
      name: "a branching key on the step, at the key",
      code: '{"steps": [{"tool": "t", "arguments": {}, "intent": "x", "if": "exists(a)"}]}',
      errors: [{ line: 1, column: 58, endLine: 1, endColumn: 62, step: 1, pointer: "/steps/0/if", message: /"if" makes the step conditional/, messageId: "conditional" }],
    },
    { name: "a branching key nested in the arguments", code: plan({ arguments: { mode: 1, options: { when: "monday" } } }), errors: [{ line: 1, column: 56, endLine: 1, endColumn: 62, pointer: "/steps/0/arguments/options/when", messageId: "conditional" }] },
    { code: plan({ arguments: { path: "out/run-$RANDOM.txt" } }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 64, pointer: "/steps/0/arguments/path", messageId: "runTimeValue", message: 'Step 1: argument "path" uses $RANDOM, so it differs from run to run.' }] },
    { code: plan({ arguments: { name: "job-$" + "{RANDOM}" } }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 58, pointer: "/steps/0/arguments/name", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { id: "uuid4()" } }), errors: [{ line: 1, column: 41, endLine: 1, endColumn: 50, pointer: "/steps/0/arguments/id", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { stamp: "$(date +%s)" } }), errors: [{ line: 1, column: 44, endLine: 1, endColumn: 57, pointer: "/steps/0/arguments/stamp", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { stamp: "`date`" } }), errors: [{ line: 1, column: 44, endLine: 1, endColumn: 52, pointer: "/steps/0/arguments/stamp", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { at: "now()" } }), errors: [{ line: 1, column: 41, endLine: 1, endColumn: 48, pointer: "/steps/0/arguments/at", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { label: "{{ timestamp }}" } }), errors: [{ line: 1, column: 44, endLine: 1, endColumn: 61, pointer: "/steps/0/arguments/label", messageId: "runTimeValue" }] },
    { code: plan({ arguments: { seed: "/dev/urandom" } }), errors: [{ line: 1, column: 43, endLine: 1, endColumn: 57, pointer: "/steps/0/arguments/seed", messageId: "runTimeValue" }] },
    { name: "a key that leaves the order open (parallel)", code: plan({ arguments: { parallel: true } }), errors: [{ line: 1, column: 36, endLine: 1, endColumn: 46, pointer: "/steps/0/arguments/parallel", messageId: "openOrder", message: 'Step 1: "parallel" leaves the order of execution open; steps run one after another, in the order written.' }] },
    { name: "a key that leaves the order open (depends_on)", code: plan({ arguments: { depends_on: [2] } }), errors: [{ line: 1, column: 36, endLine: 1, endColumn: 48, pointer: "/steps/0/arguments/depends_on", messageId: "openOrder" }] },
    { name: "scQC steps", code: '[{"tool": "a", "params": {"seed": "$RANDOM"}}]', errors: [{ line: 1, column: 35, endLine: 1, endColumn: 44, pointer: "/0/params/seed", messageId: "runTimeValue" }] },
  ],
  docs: { file: "plan.yaml" },
});
