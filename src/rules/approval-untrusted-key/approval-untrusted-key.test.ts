import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

describe("approval-untrusted-key", () => {
  it("reports a signature by a stranger's key, and a signed approval with no trusted keys", async () => {
    const k = approvalKit();
    const stranger = generateKeyPairSync("ed25519").privateKey;
    expect(rulesOf(await k.verify(k.sign(await k.record(), stranger)))).toEqual(["approval-untrusted-key"]);
    expect(rulesOf(await k.verify(k.sign(await k.record()), { trustedKeys: [] }))).toEqual(["approval-untrusted-key"]);
  });
  it("accepts a signature by a trusted key", async () => {
    const k = approvalKit();
    expect(rulesOf(await k.verify(k.sign(await k.record())))).toEqual([]);
  });
});
