import { describe, expect, it } from "vitest";
import { generateKeyPairSync } from "node:crypto";
import { keyId } from "../../node/keys.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { KEYID, envelopeInput } from "../../../test/kind-inputs.js";

describe("approval-algorithm", () => {
  it("reports a record that names another algorithm and a trusted key that is not Ed25519", async () => {
    const k = approvalKit();
    const r = await k.verify(k.sign({ ...(await k.record()), signer: { keyid: keyId(k.privateKey), alg: "rsa-pss-sha256" } }));
    expect(rulesOf(r)[0]).toBe("approval-algorithm");
    const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const trusted = [{ keyid: keyId(rsa.publicKey), alg: "rsa", key: rsa.publicKey, file: "/keys/rsa.pub" }];
    const env = JSON.parse(k.sign(await k.record()));
    env.signatures[0].keyid = keyId(rsa.publicKey);
    expect(rulesOf(await k.verify(JSON.stringify(env), { trustedKeys: trusted }))).toEqual(["approval-algorithm"]);
  });
  it("accepts Ed25519", async () => {
    const k = approvalKit();
    expect(rulesOf(await k.verify(k.sign(await k.record())))).toEqual([]);
  });
});

kindRuleTester("approval-algorithm", "approval", {
  valid: [{ name: "Ed25519", input: envelopeInput() }],
  invalid: [
    {
      name: "a record declaring another algorithm",
      input: envelopeInput({ signature: { kind: "declared-algorithm", alg: "rsa" } }),
      errors: [{ messageId: "declared", message: 'The approval was signed with "rsa"; plangate accepts only Ed25519.' }],
    },
    {
      name: "a trusted key of another algorithm",
      input: envelopeInput({ signature: { kind: "key-algorithm", keyid: KEYID, file: "/keys/rsa.pub", alg: "rsa" } }),
      errors: [{ messageId: "trustedKey", message: "The trusted key 0123456789abcdef… (/keys/rsa.pub) is rsa; plangate accepts only Ed25519." }],
    },
  ],
});
