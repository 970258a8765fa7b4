import { defineRule } from "../../core/rule.js";
import { quoteList } from "../../core/quote-list.js";
import { closest } from "../../core/tools.js";
import { place, returnObject, statusOf } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "return-status",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      unknown: { message: 'Return status "{{status}}" is not one of {{allowed}}.', hint: "returns.statuses lists the allowed values" },
      unknownNear: { message: 'Return status "{{status}}" is not one of {{allowed}}.', hint: 'did you mean "{{near}}"? (returns.statuses lists the allowed values)' },
    },
    summary: "The return's status is not an allowed value.",
    docs: {
      description:
        "Reports a `status` not in `returns.statuses` (default `completed`, `partial`, `failed`, `blocked`, the orchestrator validation strategy). Comparison is exact: `COMPLETED` is not `completed`; the hint names the closest allowed value.",
      rationale: "The orchestrator branches on status; an unknown value falls into no branch, or the wrong one (the orchestrator validation strategy: \"Status is valid enum\").",
      fix: "Return one of the allowed statuses, or list your protocol's statuses in returns.statuses.",
      bad: "{\"status\": \"done\", …}",
      good: "{\"status\": \"completed\", …}",
    },
  },
  check(input, ctx) {
    const value = returnObject(input);
    const status = value && statusOf(value);
    const statuses = input.expect.statuses;
    if (status === undefined || statuses.includes(status)) return;
    const near = closest(status, statuses) ?? statuses.find((s) => s.toLowerCase() === status.toLowerCase());
    ctx.report({
      messageId: near ? "unknownNear" : "unknown",
      data: { status, allowed: quoteList(statuses), near: near ?? "" },
      expected: statuses,
      actual: status,
      ...place(input, "/status"),
    });
  },
});
