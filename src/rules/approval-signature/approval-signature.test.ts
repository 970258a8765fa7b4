import { describe, expect, it } from "vitest";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

describe("approval-signature", () => {
  it("reports an unsigned record, a record edited after signing and a wrong signer field", async () => {
    const k = approvalKit();
    const record = await k.record();
    expect(rulesOf(await k.verify(JSON.stringify(record)))).toEqual(["approval-signature"]);
    const env = JSON.parse(k.sign(record));
    const edited = { ...record, scope: "/" };
    env.payload = Buffer.from(JSON.stringify(edited)).toString("base64");
    expect(rulesOf(await k.verify(JSON.stringify(env)))).toContain("approval-signature");
    const wrongSigner = await k.verify(k.sign({ ...record, signer: { keyid: "0".repeat(64), alg: "ed25519" } }));
    expect(rulesOf(wrongSigner)).toEqual(["approval-signature"]);
  });
  it("accepts a valid signature, and an unsigned record only with allowUnsigned", async () => {
    const k = approvalKit();
    const record = await k.record();
    expect((await k.verify(k.sign(record))).ok).toBe(true);
    const { signer: _, ...unsigned } = record;
    expect((await k.verify(JSON.stringify(unsigned), { allowUnsigned: true })).diagnostics).toEqual([]);
  });
});
