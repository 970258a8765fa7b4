import { defineRule } from "../../core/rule.js";
import { parseTimestamp } from "../../core/time.js";

/**
 * The instant a record's date names, or NaN when it names none: the schema's pattern admits month 13,
 * 30 February, hour 24 and second 60, which Date.parse reads as NaN or rolls over into another day.
 */
function instant(text: string): number {
  return parseTimestamp(text)?.epochMs ?? Number.NaN;
}

/** How far in the future an approval may be dated (clocks differ a little) before its date is not believed. */
const FUTURE_SKEW_MS = 5 * 60_000;

/**
 * An "approval" rule: it judges the conditions step (expiry and a date in the future) and the guard step (expiry before each step or call). The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-expired",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      expired: { message: "The approval expired at {{expiresAt}} (now {{now}}).", hint: "validate and approve the plan again" },
      future: { message: "The approval is dated {{validatedAt}}, in the future (now {{now}}).", hint: "check the approving machine's clock and approve again" },
      invalidDate: { message: "The approval's {{field}} \"{{value}}\" is no real instant, so its lifetime cannot be checked.", hint: "approve the plan again" },
      expiredBeforeStep: { message: "The approval expired at {{expiresAt}}; step {{step}} does not run.", hint: "validate and approve the plan again" },
      expiredBeforeCall: { message: "The approval expired at {{expiresAt}}; no further call runs.", hint: "validate and approve the plan again" },
      noLifetime: {
        message: "The approval says no lifetime (neither expires_at nor no_expiry): it was made before approvals had to say one, and would stay valid for ever.",
        hint: "approve the plan again (with --ttl, or --ttl never on purpose); to accept such records until they are replaced, set approval.acceptMissingExpiry: true in the policy",
      },
    },
    summary: "The approval has expired, says no lifetime, or is dated in the future.",
    docs: {
      description:
        "Reports an approval whose `expires_at` (set by `approve --ttl`, default one day) has passed, one that says no lifetime at all (neither `expires_at` nor `no_expiry`: made before approvals had to say one; accepted only with the policy's `approval.acceptMissingExpiry: true`), or whose `validated_at` is more than 5 minutes in the future, or either of which names no real instant (month 13, 30 February, hour 24, second 60: such a date bounds nothing, so it is refused rather than read as not yet passed). The execution guard also refuses the remaining steps once the approval expires. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "An approval is a decision about the world as it was; a short lifetime limits how long a leaked approval can be used.",
      fix: "Validate and approve the plan again.",
      bad: "plangate verify plan.json --approval approved-yesterday-ttl-1h.json",
      good: "plangate verify plan.json --approval approved-just-now.json",
    },
  },
  check(input, ctx) {
    if (input.step === "conditions") {
      const a = input.approved;
      const now = input.now.getTime();
      const iso = input.now.toISOString();
      // A date that names no instant bounds nothing: refused rather than read as "not yet" (fail closed).
      // A record that says no lifetime at all predates expiry: valid for ever unless the policy says it accepts that.
      if (a.expiresAt === undefined && a.noExpiry !== true && input.acceptMissingExpiry !== true) ctx.report({ messageId: "noLifetime", data: {} });
      if (a.expiresAt !== undefined) {
        const expires = instant(a.expiresAt);
        if (Number.isNaN(expires)) ctx.report({ messageId: "invalidDate", data: { field: "expires_at", value: a.expiresAt }, actual: a.expiresAt });
        else if (expires <= now) ctx.report({ messageId: "expired", data: { expiresAt: a.expiresAt, now: iso }, expected: a.expiresAt, actual: iso });
      }
      // An approval dated in the future was made with a wrong clock or forged: its TTL cannot be trusted.
      const validated = instant(a.validatedAt);
      if (Number.isNaN(validated)) ctx.report({ messageId: "invalidDate", data: { field: "validated_at", value: a.validatedAt }, actual: a.validatedAt });
      else if (validated > now + FUTURE_SKEW_MS) ctx.report({ messageId: "future", data: { validatedAt: a.validatedAt, now: iso }, actual: a.validatedAt });
    } else if (input.step === "guard" && input.expiry) {
      const e = input.expiry;
      // Not provably before the expiry (a date that names no instant included): expired.
      if (instant(e.expiresAt) > e.now.getTime()) return;
      if (e.step !== undefined) ctx.report({ messageId: "expiredBeforeStep", data: { expiresAt: e.expiresAt, step: e.step } });
      else ctx.report({ messageId: "expiredBeforeCall", data: { expiresAt: e.expiresAt } });
    }
  },
});
