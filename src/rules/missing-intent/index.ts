import { childPointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import { isObject } from "../../core/type-name.js";

/** Whitespace, and characters that render as nothing: an intent of only these says nothing. */
const BLANK = /^[\s\p{Cf}\p{Cc}]*$/u;

export default defineRule({
  meta: {
    id: "missing-intent",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["intake"],
    phase: "step",
    messages: {
      absent: { message: "Step {{step}}{{tool}} has no \"{{field}}\": say why the step runs.", hint: "add {{field}}: \"<what this step is for, in one sentence>\"" },
      blank: { message: "Step {{step}}{{tool}} has a blank \"{{field}}\": say why the step runs.", hint: "write the step's purpose in one sentence" },
    },
    summary: "A step has no intent, or a blank one.",
    docs: {
      description:
        "Reports an intake step whose `intent` is absent, null, empty, or only whitespace and invisible characters. (An intent of another type is `invalid-type`.)",
      rationale:
        "The intake protocol §1 and §6: every step says why it runs, so a reviewer can approve it and an executor can tell a step that did its job from one that did something else.",
      fix: "Write the step's purpose in one sentence in `intent`.",
      bad: 'steps: [{tool: read_file, arguments: {path: a.txt}, intent: "  "}]',
      good: 'steps: [{tool: read_file, arguments: {path: a.txt}, intent: "Read the input table"}]',
    },
  },
  check(plan, ctx) {
    for (const step of plan.steps) {
      const raw = step.raw;
      if (!isObject(raw)) continue;
      const data = { step: step.position, tool: step.tool ? ` ("${step.tool}")` : "", field: plan.fields.intent };
      const value = raw[plan.fields.intent];
      if (value === undefined || value === null) {
        ctx.report({ at: value === null ? childPointer(step.at, plan.fields.intent) : step.at, step: step.position, messageId: "absent", data });
      } else if (typeof value === "string" && BLANK.test(value)) {
        ctx.report({ at: childPointer(step.at, plan.fields.intent), step: step.position, messageId: "blank", data });
      }
    }
  },
});
