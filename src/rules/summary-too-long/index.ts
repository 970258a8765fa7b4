import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "summary-too-long",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The return's summary is too many tokens.",
    docs: {
      description:
        "Reports a `summary` of `returns.maxSummaryTokens` (default 100, `--max-summary-tokens`) tokens or more, counted with a real LLM tokenizer (gpt-tokenizer, encoding `returns.encoding`, default `o200k_base`, or `--encoding`), not words. The vocabulary ships in the package and loads on first use.",
      rationale: "Summaries go back into the orchestrator's context on every step; long ones crowd out the task (the orchestrator validation strategy: \"Summary <100 tokens\").",
      fix: "Shorten the summary to a sentence or two and put details in an artifact.",
      bad: "{\"summary\": \"<150 tokens of analysis>\", …}",
      good: "{\"summary\": \"Created the plan with 3 phases.\", …}",
    },
  },
});
