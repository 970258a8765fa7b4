import { defineRule } from "../../core/rule.js";
import { place, returnObject } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "summary-too-long",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      tooLong: {
        message: "Summary is {{tokens}} tokens ({{encoding}}); it must stay under {{max}}.",
        hint: "keep the summary to a sentence or two and move details into an artifact",
      },
    },
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
  check(input, ctx) {
    const value = returnObject(input);
    const n = input.summaryTokens;
    const max = input.expect.maxSummaryTokens;
    // 0: summaries are not measured.
    if (!value || typeof value.summary !== "string" || max <= 0 || n === undefined || n < max) return;
    ctx.report({ messageId: "tooLong", data: { tokens: n, encoding: input.expect.encoding, max }, expected: `< ${max}`, actual: n, ...place(input, "/summary") });
  },
});
