import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import type { IkomaStepExtra } from "../../core/step-extra.js";
import { messages } from "./messages.js";

/**
 * A rule of one input kind, "read": the iKOMA dialect records a nested step numbered out of its list as a
 * fact; once reading has produced a plan, the read input carries it, and the rule compares each
 * top-level step's number with its position. Numbering is part of the plan's shape, not of a step.
 */
export default defineRule({
  meta: {
    id: "step-numbering",
    input: "read",
    messages,
    defaultSeverity: "error",
    dialects: ["ikoma"],
    phase: "structure",
    summary: 'iKOMA "step" numbers are not 1, 2, 3… in order.',
    docs: {
      description:
        'Reports an iKOMA step whose `step` number is not its position in the plan: a duplicate number, a gap, or steps out of order. The first step must be 1, the next 2, and so on. A `step` that is not a positive integer is `invalid-type`, not this rule.',
      rationale:
        "Executors, logs and citations refer to steps by number. iKOMA's runtime accepts duplicate and skipped numbers, so two steps can answer to the same number and a reviewer's \"step 3\" is not the executor's step 3.",
      fix: "Renumber the steps 1, 2, 3… in the order they run.",
      bad: '{"plan": [{"step": 1, "tool_name": "search_web", "args": {}, "description": "a"}, {"step": 1, "tool_name": "search_web", "args": {}, "description": "b"}], "reasoning": "r"}',
      good: '{"plan": [{"step": 1, "tool_name": "search_web", "args": {}, "description": "a"}, {"step": 2, "tool_name": "search_web", "args": {}, "description": "b"}], "reasoning": "r"}',
    },
  },
  check(input, ctx) {
    reportFacts("step-numbering", input, ctx);
    if (!input.normalized) return;
    const plan = input.normalized.plan;
    const firstAt = new Map<number, number>();
    for (const step of plan.steps) {
      const extra = step.extra as IkomaStepExtra | undefined;
      const n = extra?.number;
      if (n === undefined) continue;
      const earlier = firstAt.get(n);
      if (earlier === undefined) firstAt.set(n, step.position);
      if (n === step.position) continue;
      ctx.report({
        messageId: earlier !== undefined ? "repeats" : n > step.position ? "skips" : "outOfOrder",
        data: earlier !== undefined ? { step: step.position, number: n, earlier } : { step: step.position, number: n },
        at: extra!.numberAt,
        step: step.position,
        expected: step.position,
        actual: n,
      });
    }
  },
});
