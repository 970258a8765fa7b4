import { describe, expect, it } from "vitest";
import { NOW } from "../../../test/helpers.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { conditionsInput, guardInput } from "../../../test/kind-inputs.js";

describe("approval-expired", () => {
  it("reports an expired approval and one dated in the future", async () => {
    const k = approvalKit();
    const approval = k.sign(await k.record({}, { ttlMs: 3_600_000 }));
    const later = new Date(NOW.getTime() + 3_600_000);
    expect(rulesOf(await k.verify(approval, { now: later }))).toEqual(["approval-expired"]);
    const future = k.sign(await k.record({ validated_at: "2030-01-01T00:00:00.000Z" }));
    expect(rulesOf(await k.verify(future))).toEqual(["approval-expired"]);
  });
  it("accepts an approval within its lifetime", async () => {
    const k = approvalKit();
    const approval = k.sign(await k.record({}, { ttlMs: 3_600_000 }));
    expect(rulesOf(await k.verify(approval, { now: new Date(NOW.getTime() + 3_599_000) }))).toEqual([]);
  });
});

kindRuleTester("approval-expired", "approval", {
  valid: [
    { name: "no expiry, on purpose (no_expiry)", input: conditionsInput({ noExpiry: true }) },
    { name: "no lifetime, where the policy accepts such records (approval.acceptMissingExpiry)", input: conditionsInput({}, { acceptMissingExpiry: true }) },
    { name: "not yet expired", input: conditionsInput({ expiresAt: "2026-11-22T13:00:00.000Z" }) },
    { name: "dated a little ahead (clocks differ)", input: conditionsInput({ validatedAt: "2026-11-22T12:04:00.000Z", noExpiry: true }) },
    { name: "before a step, in time", input: guardInput({ expiry: { expiresAt: "2026-11-22T13:00:00.000Z", now: NOW, step: 2 } }) },
  ],
  invalid: [
    {
      name: "expired",
      input: conditionsInput({ expiresAt: "2026-11-22T12:00:00.000Z" }),
      errors: [{ messageId: "expired", message: "The approval expired at 2026-11-22T12:00:00.000Z (now 2026-11-22T12:00:00.000Z).", expected: "2026-11-22T12:00:00.000Z", actual: "2026-11-22T12:00:00.000Z" }],
    },
    { name: "dated in the future", input: conditionsInput({ validatedAt: "2026-11-22T12:06:00.000Z", noExpiry: true }), errors: [{ messageId: "future", actual: "2026-11-22T12:06:00.000Z" }] },
    {
      name: "no lifetime (neither expires_at nor no_expiry: made before records said one)",
      input: conditionsInput(),
      errors: [{ messageId: "noLifetime", message: "The approval says no lifetime (neither expires_at nor no_expiry): it was made before approvals had to say one, and would stay valid for ever." }],
    },
    {
      name: "expired before a step",
      input: guardInput({ expiry: { expiresAt: "2026-11-22T11:00:00.000Z", now: NOW, step: 2 } }),
      errors: [{ messageId: "expiredBeforeStep", message: "The approval expired at 2026-11-22T11:00:00.000Z; step 2 does not run." }],
    },
    { name: "expired before a call", input: guardInput({ expiry: { expiresAt: "2026-11-22T11:00:00.000Z", now: NOW } }), errors: [{ messageId: "expiredBeforeCall" }] },
    // A date that is no instant (the schema's pattern admits month 13, day 30 of February, second 60)
    // cannot bound the approval's life: refused, never read as "not yet".
    ...["2026-13-01T00:00:00Z", "2027-02-30T00:00:00Z", "2027-01-01T23:59:60Z", "2027-01-01T24:00:00Z"].flatMap((bad) => [
      { name: `an expiry that is no instant: ${bad}`, input: conditionsInput({ expiresAt: bad }), errors: [{ messageId: "invalidDate", actual: bad }] },
      { name: `a validation date that is no instant: ${bad}`, input: conditionsInput({ validatedAt: bad, noExpiry: true }), errors: [{ messageId: "invalidDate", actual: bad }] },
      { name: `before a step, an expiry that is no instant: ${bad}`, input: guardInput({ expiry: { expiresAt: bad, now: NOW, step: 2 } }), errors: [{ messageId: "expiredBeforeStep" }] },
    ]),
  ],
});
