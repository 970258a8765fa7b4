import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { AuditLog } from "../../node/audit.js";
import { approvalKit } from "../../../test/approval-kit.js";
import { cli } from "../../../test/cli-io.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { auditInput } from "../../../test/kind-inputs.js";

describe("audit-unauthenticated", () => {
  function log() {
    const k = approvalKit();
    const path = join(k.guardDir, "audit.log");
    const a = new AuditLog(path);
    for (let i = 0; i < 3; i++) a.append({ ts: "2026-11-22T12:00:00.000Z", event: "allow", step: i + 1, plan_hash: "sha256:x", nonce: "n" });
    return path;
  }
  it("is reported for an intact chain checked without the run's key, in text and JSON, exit 1", async () => {
    const path = log();
    const text = await cli(["audit", "verify", path]);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/error: The chain is intact but not authenticated: no --state was given.*\[audit-unauthenticated\]\n {2}= hint: give --state STATE/);
    const json = JSON.parse((await cli(["audit", "verify", path, "-o", "json"])).stdout);
    expect(json).toMatchObject({ version: 1, results: [{ valid: false, level: "chain", entries: 3, authenticated: null }], summary: { files: 1, valid: 0, errors: 1 } });
    expect(json.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["audit-unauthenticated"]);
  });
  it("is not reported with --chain-only (exit 0, still said to be unauthenticated), nor for a broken chain", async () => {
    const path = log();
    const ok = await cli(["audit", "verify", path, "--chain-only", "--output", "json"]);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout).results[0]).toMatchObject({ valid: true, level: "chain", diagnostics: [] });
    const { writeFileSync, readFileSync } = await import("node:fs");
    writeFileSync(path, readFileSync(path, "utf8").replace('"step":2', '"step":9'));
    const broken = await cli(["audit", "verify", path, "--output", "json"]);
    expect(JSON.parse(broken.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["audit-chain-broken"]);
  });
});

kindRuleTester("audit-unauthenticated", "approval", {
  valid: [{ name: "an intact chain accepted as such", input: auditInput(2) }],
  invalid: [
    {
      name: "no state to check the MACs with",
      input: auditInput(2, { unauthenticated: { stateGiven: false } }),
      errors: [{ messageId: "unauthenticated", hint: "give --state STATE to check the MACs, or --chain-only to accept the hash chain alone" }],
    },
    {
      name: "a state without a key",
      input: auditInput(2, { unauthenticated: { stateGiven: true, keylessState: "s.json" } }),
      errors: [
        {
          messageId: "unauthenticatedWithState",
          message: "The chain is intact but not authenticated: the state s.json was written by plangate 0.1 and holds no audit key (0.1 logs carry no MACs); anyone who can write the log could have rewritten it and recomputed the chain.",
        },
      ],
    },
  ],
});
