import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "limit-exceeded",
    defaultSeverity: "error",
    phase: "read",
    summary: "The file is larger, deeper or longer than the policy's limits.",
    docs: {
      description:
        "Reports a file larger than limits.maxFileBytes, nesting deeper than limits.maxDepth, or more steps than limits.maxSteps.",
      rationale: "Hostile input must not exhaust memory or time; a bounded reader rejects it with a diagnostic instead.",
      fix: "Split the plan, flatten the nesting, or raise the limit in plangate.yaml (limits:) if the input is trusted.",
      bad: "[[[[ ... 100,000 levels ... ]]]]",
      good: '[{"tool": "plot_qc"}]',
    },
  },
});
