import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AuditLog, verifyAuditText } from "../../approval/audit.js";
import { approvalKit } from "../../../test/approval-kit.js";

describe("audit-chain-broken", () => {
  function log() {
    const k = approvalKit();
    const path = join(k.guardDir, "audit.log");
    const a = new AuditLog(path);
    for (let i = 0; i < 4; i++) a.append({ ts: "2026-11-22T12:00:00.000Z", event: "allow", step: i + 1, plan_hash: "sha256:x", nonce: "n" });
    return { path, head: a.head, lines: readFileSync(path, "utf8").split("\n").slice(0, -1) };
  }
  const ids = (t: string, head?: Parameters<typeof verifyAuditText>[1]) => verifyAuditText(t, head).diagnostics.map((d) => d.rule);
  it("reports a deleted, a reordered and an edited line, and a cut tail against the head", () => {
    const { lines, head } = log();
    const text = (ls: string[]) => ls.join("\n") + "\n";
    expect(ids(text([lines[0]!, lines[2]!, lines[3]!]))).toContain("audit-chain-broken");
    expect(ids(text([lines[0]!, lines[2]!, lines[1]!, lines[3]!]))).toContain("audit-chain-broken");
    expect(ids(text([lines[0]!, lines[1]!.replace('"step":2', '"step":9'), lines[2]!, lines[3]!]))).toContain("audit-chain-broken");
    expect(ids(text(lines.slice(1)))).toContain("audit-chain-broken");
    expect(ids(text(lines.slice(0, 3)), { head })).toEqual(["audit-chain-broken"]);
    expect(ids(text(lines).slice(0, -1))).toEqual(["audit-chain-broken"]);
  });
  it("accepts an intact log, and refuses to append to a broken one", () => {
    const { path, lines, head } = log();
    expect(ids(lines.join("\n") + "\n", { head })).toEqual([]);
    expect(() => new AuditLog(path, { head: { count: 2, hash: null } })).toThrow(/ends at line 4/);
    // A bare head, as plangate 0.1's API took it, is still checked.
    expect(() => new AuditLog(path, { count: 2, hash: null })).toThrow(/ends at line 4/);
    expect(ids(lines.slice(0, 3).join("\n") + "\n", head)).toEqual(["audit-chain-broken"]);
  });
});
