import { pathArguments, pathNamesFor } from "../../core/paths.js";
import { defineRule } from "../../core/rule.js";
import { INVISIBLE } from "../../syntax/unsafe.js";

export default defineRule({
  meta: {
    id: "unsafe-value",
    defaultSeverity: "error",
    phase: "read",
    summary: "A value that parses but means different things to different consumers.",
    docs: {
      description:
        "Reports lone UTF-16 surrogates, numbers that overflow to infinity (1e400), integers beyond ±(2^53-1), keys named __proto__, constructor or prototype, and bidi or zero-width controls in keys, tool names or paths.",
      rationale:
        "Each of these reads differently in different languages or encoders (a lone surrogate becomes U+FFFD in one and an escape in another, so two plans can share a hash; a big integer is rounded by JavaScript; __proto__ pollutes prototypes; bidi controls make a reviewer read another name than the executor runs).",
      fix: "Remove the control or surrogate, write the number as a string or within range, and rename the key.",
      bad: '{"tool": "read_file", "params": {"n": 1e400}}',
      good: '{"tool": "read_file", "params": {"n": 1000}}',
    },
  },
  // The readers report keys; tool names and paths are only known once the dialect has found the steps.
  check(plan, ctx) {
    for (const step of plan.steps) {
      if (step.tool !== undefined && INVISIBLE.test(step.tool))
        ctx.report({
          at: step.toolAt,
          step: step.position,
          message: `Step ${step.position}: the tool name ${JSON.stringify(step.tool)} holds invisible or bidi control characters: it reads differently from what runs.`,
          hint: "retype the tool name in plain characters",
          actual: step.tool,
        });
      for (const arg of pathArguments(step, pathNamesFor(step.tool, ctx.policy.paths.arguments, ctx.tools?.schemas))) {
        if (!INVISIBLE.test(arg.value)) continue;
        ctx.report({
          at: arg.at,
          step: step.position,
          message: `Step ${step.position}: the path ${JSON.stringify(arg.value)} in "${arg.name}" holds invisible or bidi control characters: it reads differently from the file it names.`,
          hint: "retype the path in plain characters",
          actual: arg.value,
        });
      }
    }
  },
});
