import { describe, expect, it } from "vitest";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

describe("approval-invalid", () => {
  it("reports JSON that is not a record, a malformed envelope and a record edited to an unknown field", async () => {
    const k = approvalKit();
    expect(rulesOf(await k.verify("{not json"))).toEqual(["approval-invalid"]);
    expect(rulesOf(await k.verify('{"status": "approved", "status": "approved"}'))).toEqual(["approval-invalid"]);
    const env = JSON.parse(k.sign(await k.record()));
    expect(rulesOf(await k.verify(JSON.stringify({ ...env, extra: 1 })))).toEqual(["approval-invalid"]);
    expect(rulesOf(await k.verify(JSON.stringify({ ...env, payloadType: "application/json" })))).toEqual(["approval-invalid"]);
    // Signed, but the record has a member the schema does not define.
    const r = await k.verify(k.sign({ ...(await k.record()), approved_by: "me" }));
    expect(rulesOf(r)).toContain("approval-invalid");
    expect(r.ok).toBe(false);
    // A relative scope would match whatever folder the verifier runs in.
    expect(rulesOf(await k.verify(k.sign(await k.record({ scope: "." })), { workspace: process.cwd() }))).toEqual(["approval-invalid"]);
  });
  it("accepts the record plangate writes", async () => {
    const k = approvalKit();
    const r = await k.verify(k.sign(await k.record()));
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
  });
});
