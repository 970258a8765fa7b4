import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { KEYID, envelopeInput } from "../../../test/kind-inputs.js";

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

kindRuleTester("approval-untrusted-key", "approval", {
  valid: [{ name: "a trusted key verified it", input: envelopeInput() }],
  invalid: [
    { name: "no trusted keys", input: envelopeInput({ signature: { kind: "no-trusted-keys" } }), errors: [{ messageId: "noTrustedKeys" }] },
    {
      name: "signed by keys not trusted",
      input: envelopeInput({ signature: { kind: "unknown-signer", keyids: [KEYID, ""] } }),
      errors: [{ messageId: "unknownSigner", message: "The approval is signed by key 0123456789abcdef…, (no keyid), which is not among the trusted keys." }],
    },
  ],
});
