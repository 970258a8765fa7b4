import { describe, expect, it } from "vitest";
import { NOW } from "../../../test/helpers.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

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
