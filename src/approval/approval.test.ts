import { generateKeyPairSync } from "node:crypto";
import { mkdirSync, mkdtempSync, realpathSync, statSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli } from "../../test/cli-io.js";
import { APPROVAL_PAYLOAD_TYPE, pae, signEnvelope, verifySignature } from "./dsse.js";
import { generateKeyFiles, isInside, KeyError, keyId, loadPrivateKey, loadTrustedKeys } from "../node/keys.js";
import { approvalLifetime, createRecord, parseTtl } from "./record.js";

const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), "plangate-keys-")));

describe("DSSE", () => {
  it("encodes PAE exactly as the DSSE spec's example", () => {
    expect(pae("http://example.com/HelloWorld", Buffer.from("hello world")).toString()).toBe("DSSEv1 29 http://example.com/HelloWorld 11 hello world");
  });
  it("counts lengths in bytes, not characters", () => {
    expect(pae("t", Buffer.from("é")).toString()).toBe("DSSEv1 1 t 2 é");
  });
  it("verifies its own signature and refuses a changed payload type, body or signature encoding", () => {
    const { privateKey, publicKey } = generateKeyPairSync("ed25519");
    const body = Buffer.from('{"a":1}');
    const env = signEnvelope(APPROVAL_PAYLOAD_TYPE, body, privateKey, keyId(privateKey));
    const sig = env.signatures[0]!.sig;
    expect(verifySignature(env, body, sig, publicKey)).toBe(true);
    expect(verifySignature({ ...env, payloadType: "application/json" }, body, sig, publicKey)).toBe(false);
    expect(verifySignature(env, Buffer.from('{"a":2}'), sig, publicKey)).toBe(false);
    expect(verifySignature(env, body, sig.replace(/=*$/, "") + "!!", publicKey)).toBe(false);
  });
});

describe("keys", () => {
  it("writes a 0600 private key and refuses to overwrite it", () => {
    const dir = tmp();
    const k = generateKeyFiles(dir, "me");
    expect(statSync(k.privateFile).mode & 0o777).toBe(0o600);
    expect(k.keyid).toMatch(/^[0-9a-f]{64}$/);
    expect(loadTrustedKeys(dir).map((t) => t.keyid)).toEqual([k.keyid]);
    expect(keyId(loadPrivateKey(k.privateFile))).toBe(k.keyid);
    expect(() => generateKeyFiles(dir, "me")).toThrow(KeyError);
  });
  it("refuses a private key of another algorithm", async () => {
    const dir = tmp();
    const { writeFileSync } = await import("node:fs");
    const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
    writeFileSync(join(dir, "ec.key"), ec.privateKey.export({ format: "pem", type: "pkcs8" }));
    expect(() => loadPrivateKey(join(dir, "ec.key"))).toThrow(/only with Ed25519/);
  });
  it("compares real paths: a symlink into a folder is inside it, a sibling with a common prefix is not", () => {
    const root = tmp();
    mkdirSync(join(root, "ws"));
    mkdirSync(join(root, "ws2"));
    symlinkSync(join(root, "ws"), join(root, "alias"));
    expect(isInside(join(root, "alias", "k.pub"), join(root, "ws"))).toBe(true);
    expect(isInside(join(root, "ws2", "k.pub"), join(root, "ws"))).toBe(false);
    expect(isInside(join(root, "ws"), join(root, "ws"))).toBe(true);
  });
  it("keygen writes a key pair from the CLI, and a bad --name is a usage error", async () => {
    const dir = tmp();
    const r = await cli(["keygen", "--out", dir, "--output", "json"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).keyid).toMatch(/^[0-9a-f]{64}$/);
    expect((await cli(["keygen", "--out", dir, "--name", "../x"])).code).toBe(2);
  });
});

describe("ttl", () => {
  it("parses durations and refuses others", () => {
    expect(parseTtl("90s")).toBe(90_000);
    expect(parseTtl("2d")).toBe(172_800_000);
    for (const bad of ["", "0m", "1w", "-1h", "1.5h", "h"]) expect(parseTtl(bad)).toBeUndefined();
  });
  it("--ttl with a bad value is a usage error", async () => {
    expect((await cli(["approve", "plan.json", "--ttl", "soon"], { cwd: tmp() })).code).toBe(2);
  });
  it.each([
    // A single-use approval may go without a lifetime: its nonce is consumed by the run it starts.
    [undefined, true, {}],
    ["1h", true, { ttlMs: 3_600_000 }],
    ["2d", false, { ttlMs: 172_800_000 }],
    // No expiry, said on purpose.
    ["never", false, { neverExpires: true }],
    [" never ", true, { neverExpires: true }],
    // A reusable approval with no lifetime would run its plan again for ever.
    [undefined, false, { error: expect.stringMatching(/a reusable approval needs a lifetime.*--ttl 1d.*approval\.ttl.*--ttl never/) }],
    ["soon", false, { error: expect.stringMatching(/--ttl must be a positive duration such as 30m, 1h or 2d, or never, not "soon"/) }],
    ["Never", false, { error: expect.stringMatching(/not "Never"/) }],
    ["0d", true, { error: expect.stringMatching(/positive duration/) }],
  ])("approvalLifetime(%j, singleUse %s)", (ttl, singleUse, expected) => {
    expect(approvalLifetime(ttl, singleUse, "--ttl")).toEqual(expected);
  });
  it("createRecord refuses a reusable approval with no lifetime unless it is said to never expire", () => {
    const base = { planHash: "sha256:" + "a".repeat(64), scope: "/ws", policyHash: "sha256:" + "b".repeat(64), toolsHash: null, steps: 1, now: new Date(0) };
    expect(() => createRecord({ ...base, singleUse: false })).toThrow(/reusable approval .* needs ttlMs/);
    expect(createRecord({ ...base, singleUse: false, neverExpires: true }).expires_at).toBeUndefined();
    expect(createRecord({ ...base, singleUse: false, ttlMs: 1000 }).expires_at).toBe("1970-01-01T00:00:01.000Z");
    expect(createRecord({ ...base }).single_use).toBe(true);
  });
});
