import { describe, expect, it } from "vitest";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { conditionsInput, envelopeInput, recordInput } from "../../../test/kind-inputs.js";
import { MAX_SIGNATURES } from "../../node/verify.js";

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
  it("refuses an envelope with more signatures than an approval carries, before trying any", async () => {
    const k = approvalKit();
    const env = JSON.parse(k.sign(await k.record()));
    // Thousands of signatures naming no key were each tried under every trusted key: minutes of work.
    const forged = { keyid: "", sig: Buffer.alloc(64).toString("base64") };
    const many = await k.verify(JSON.stringify({ ...env, signatures: [...Array.from({ length: MAX_SIGNATURES }, () => forged), env.signatures[0]] }));
    expect(rulesOf(many)).toEqual(["approval-invalid"]);
    expect(many.diagnostics[0]!.message).toBe(`The approval envelope is malformed: it has ${MAX_SIGNATURES + 1} signatures, more than the ${MAX_SIGNATURES} an approval may carry.`);
    // Up to the bound, a good signature among forged ones still verifies.
    expect(rulesOf(await k.verify(JSON.stringify({ ...env, signatures: [...Array.from({ length: MAX_SIGNATURES - 1 }, () => forged), env.signatures[0]] })))).toEqual([]);
  });
  it("accepts the record plangate writes", async () => {
    const k = approvalKit();
    const r = await k.verify(k.sign(await k.record()));
    expect(r.diagnostics).toEqual([]);
    expect(r.ok).toBe(true);
  });
});

kindRuleTester("approval-invalid", "approval", {
  valid: [
    { name: "an envelope that opened", input: envelopeInput() },
    { name: "a record that matches the schema", input: recordInput() },
    { name: "an absolute scope", input: conditionsInput() },
  ],
  invalid: [
    {
      name: "a file that cannot be read",
      input: envelopeInput({ unreadable: { kind: "file", file: "a.approval", code: "ENOENT" } }),
      errors: [{ messageId: "fileUnreadable", message: "The approval file a.approval cannot be read (ENOENT).", hint: "check the --approval path" }],
    },
    { name: "not JSON, or duplicate keys", input: envelopeInput({ unreadable: { kind: "json" } }), errors: [{ messageId: "notJson", message: "The approval file is not valid JSON (or has duplicate keys)." }] },
    {
      name: "a malformed envelope",
      input: envelopeInput({ unreadable: { kind: "envelope", problem: 'unknown member "x"' } }),
      errors: [{ messageId: "envelope", message: 'The approval envelope is malformed: unknown member "x".' }],
    },
    {
      name: "a record that does not match the schema",
      input: recordInput({ schemaErrors: ["/: must have required property 'nonce'", "/steps: must be integer"] }),
      errors: [{ messageId: "schema", message: "The approval record does not match the approval schema: /: must have required property 'nonce'; /steps: must be integer." }],
    },
    {
      name: "a scope that is not an absolute path",
      input: conditionsInput({ scope: "ws" }, { scopeReal: undefined }),
      errors: [{ messageId: "relativeScope", message: 'The approval\'s scope "ws" is not an absolute path.' }],
    },
  ],
});
