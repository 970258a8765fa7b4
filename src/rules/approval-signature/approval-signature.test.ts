import { describe, expect, it } from "vitest";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { VERIFIED, envelopeInput } from "../../../test/kind-inputs.js";

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

kindRuleTester("approval-signature", "approval", {
  valid: [
    { name: "a signature that verifies and binds its signer", input: envelopeInput() },
    { name: "a bare record, accepted on purpose", input: envelopeInput({ signature: undefined, allowUnsigned: true }) },
    { name: "an envelope that did not open: approval-invalid's", input: envelopeInput({ signature: undefined, unreadable: { kind: "json" } }) },
  ],
  invalid: [
    { name: "a bare record", input: envelopeInput({ signature: undefined }), errors: [{ messageId: "unsigned", message: "The approval is not signed: anyone who can write the file could have made it." }] },
    { name: "an envelope without signatures", input: envelopeInput({ signature: { kind: "no-signature" } }), errors: [{ messageId: "noSignature" }] },
    {
      name: "a signature that does not verify",
      input: envelopeInput({ signature: { kind: "does-not-verify" } }),
      errors: [{ messageId: "doesNotVerify", hint: "approve the plan again; never edit an approval by hand" }],
    },
    { name: "a signed record without a signer", input: envelopeInput({ signature: { ...VERIFIED, declaredKeyid: undefined } }), errors: [{ messageId: "signerMissing" }] },
    {
      name: "a signed record naming another signer",
      input: envelopeInput({ signature: { ...VERIFIED, declaredKeyid: "f".repeat(64) } }),
      errors: [{ messageId: "signerMismatch", message: "The record names signer ffffffffffffffff… but was signed by 0123456789abcdef…." }],
    },
    {
      name: "a signing key that cannot be loaded",
      input: { step: "signing", key: "/keys/k.pem", keyError: "/keys/k.pem is not a private key" },
      errors: [{ messageId: "keyUnusable", message: "/keys/k.pem is not a private key", hint: "point approval.key at a private key from plangate keygen" }],
    },
  ],
});
