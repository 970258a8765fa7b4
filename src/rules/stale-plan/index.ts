import { defineRule } from "../../core/rule.js";
import { parseTimestamp } from "../../core/time.js";

const DAY = 86_400_000;

export default defineRule({
  meta: {
    id: "stale-plan",
    input: "plan",
    defaultSeverity: "warning",
    dialects: ["scqc-envelope"],
    phase: "age",
    messages: {
      stale: { message: "Plan is {{days}} days old (created {{createdAt}}), older than the {{maxDays}}-day limit: its tools may have changed since.", hint: "review it against the current tools and re-seal it, or raise plan.maxAgeDays / --max-age" },
    },
    summary: "The plan is older than plan.maxAgeDays.",
    docs: {
      description:
        "Reports an envelope whose `created_at` is more than plan.maxAgeDays (default 30, `--max-age`) days before now; the message gives the age in days. A warning: the plan stays valid.",
      rationale: "Old plans may reference tools that were renamed, removed or changed behaviour since (scQC check 5).",
      fix: "Re-plan, or review the plan against today's tools and re-seal it; raise plan.maxAgeDays if old plans are expected.",
      bad: '{"version": "1.0", "created_at": "2020-01-01T00:00:00", "plan": [{"tool": "plot_qc"}]}',
      good: '{"version": "1.0", "created_at": "<within the last 30 days>", "plan": [{"tool": "plot_qc"}]}',
    },
  },
  check(plan, ctx) {
    const raw = plan.meta.created_at;
    if (typeof raw !== "string") return;
    const ts = parseTimestamp(raw);
    if (!ts) return;
    const ageMs = ctx.now.getTime() - ts.epochMs;
    const max = ctx.policy.plan.maxAgeDays;
    if (ageMs <= max * DAY) return;
    const days = Math.floor(ageMs / DAY);
    ctx.report({
      at: "/created_at",
      messageId: "stale",
      data: { days, createdAt: raw, maxDays: max },
      expected: `<= ${max} days`,
      actual: days,
    });
  },
});
