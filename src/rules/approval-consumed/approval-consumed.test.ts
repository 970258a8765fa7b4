import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { NOW } from "../../../test/helpers.js";
import { consumeNonce, isConsumed } from "../../node/guard-state.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { conditionsInput, guardInput } from "../../../test/kind-inputs.js";

describe("approval-consumed", () => {
  it("reports a single-use approval whose nonce is consumed, durably across store instances", async () => {
    const k = approvalKit();
    const record = await k.record();
    const store = join(k.guardDir, "consumed");
    expect(consumeNonce(store, record.nonce, NOW)).toBe(true);
    expect(consumeNonce(store, record.nonce, NOW)).toBe(false);
    const r = await k.verify(k.sign(record), { isConsumed: (n) => isConsumed(store, n) });
    expect(rulesOf(r)).toEqual(["approval-consumed"]);
  });
  it("accepts an unused approval, and a reusable one", async () => {
    const k = approvalKit();
    const store = join(k.guardDir, "consumed");
    const fresh = await k.record();
    expect(rulesOf(await k.verify(k.sign(fresh), { isConsumed: (n) => isConsumed(store, n) }))).toEqual([]);
    const reusable = await k.record({ single_use: false });
    consumeNonce(store, reusable.nonce, NOW);
    expect(rulesOf(await k.verify(k.sign(reusable), { isConsumed: (n) => isConsumed(store, n) }))).toEqual([]);
  });
});

kindRuleTester("approval-consumed", "approval", {
  valid: [{ name: "a fresh nonce", input: conditionsInput() }],
  invalid: [
    { name: "used to run this plan", input: conditionsInput({}, { consumed: true }), errors: [{ messageId: "usedForPlan", message: "The approval n1 was already used to run this plan; it is single-use." }] },
    { name: "used, found by the guard", input: guardInput({ consumed: { nonce: "n1" } }), errors: [{ messageId: "used", message: "The approval n1 was already used; it is single-use." }] },
    {
      name: "used, as another folder recorded",
      input: guardInput({ consumed: { nonce: "n1", recordedIn: "/state/consumed" } }),
      errors: [{ messageId: "usedRecorded", message: "The approval n1 was already used (recorded in /state/consumed); it is single-use." }],
    },
  ],
});
