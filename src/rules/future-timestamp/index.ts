import { defineRule } from "../../core/rule.js";
import { parseTimestamp } from "../../core/time.js";

const SKEW_MS = 5 * 60_000;
/** A zoneless time may be in any zone from UTC-12 to UTC+14. */
const NAIVE_TOLERANCE_MS = 14 * 3_600_000;

export default defineRule({
  meta: {
    id: "future-timestamp",
    input: "plan",
    defaultSeverity: "warning",
    dialects: ["scqc-envelope"],
    phase: "age",
    messages: {
      future: { message: "created_at {{createdAt}} is in the future (now is {{now}}): the age check cannot be trusted.", hint: "write the real creation time, in UTC with a trailing Z, and re-seal the plan" },
    },
    summary: "created_at is in the future.",
    docs: {
      description:
        "Reports a `created_at` more than 5 minutes after now. A timestamp without a zone (as scQC writes them) is read as UTC with 14 hours of tolerance, since its zone is unknown.",
      rationale: "A future timestamp defeats the age check: a plan dated next year is never stale. It points to a wrong clock or a forged envelope.",
      fix: "Correct created_at (write it in UTC with a Z), then re-seal the plan.",
      bad: '{"version": "1.0", "created_at": "2999-01-01T00:00:00Z", "plan": [{"tool": "plot_qc"}]}',
      good: '{"version": "1.0", "created_at": "2026-01-01T00:00:00Z", "plan": [{"tool": "plot_qc"}]}',
    },
  },
  check(plan, ctx) {
    const raw = plan.meta.created_at;
    if (typeof raw !== "string") return;
    const ts = parseTimestamp(raw);
    if (!ts) return;
    const limit = ctx.now.getTime() + SKEW_MS + (ts.zoned ? 0 : NAIVE_TOLERANCE_MS);
    if (ts.epochMs <= limit) return;
    ctx.report({
      at: "/created_at",
      messageId: "future",
      data: { createdAt: raw, now: ctx.now.toISOString() },
      actual: raw,
    });
  },
});
