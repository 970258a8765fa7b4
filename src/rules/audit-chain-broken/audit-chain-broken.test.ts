import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AuditLog, verifyAuditText } from "../../node/audit.js";
import { approvalKit } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { auditInput } from "../../../test/kind-inputs.js";

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

kindRuleTester("audit-chain-broken", "approval", {
  valid: [
    { name: "an intact chain", input: auditInput(3) },
    { name: "an intact chain ending where the guard wrote, with valid MACs", input: auditInput(2, { anchoredHead: { count: 2, hash: "sha256:line1" }, from: 0 }, "valid") },
    { name: "an empty trail", input: auditInput(0) },
  ],
  invalid: [
    {
      name: "a line out of sequence",
      input: { ...auditInput(2), lines: [auditInput(2).lines![0]!, { ...auditInput(2).lines![1]!, seq: 2 }] },
      errors: [{ messageId: "sequence", line: 2, message: "Line 2 has sequence number 2, expected 1: a line was deleted, inserted or moved.", expected: 1, actual: 2 }],
    },
    {
      name: "a line that does not chain",
      input: { ...auditInput(2), lines: [auditInput(2).lines![0]!, { ...auditInput(2).lines![1]!, prev: "sha256:x" }] },
      errors: [{ messageId: "prev", line: 2, expected: "sha256:line0", actual: "sha256:x" }],
    },
    {
      name: "a first line with a prev",
      input: { ...auditInput(1), lines: [{ ...auditInput(1).lines![0]!, prev: "sha256:x" }] },
      errors: [{ messageId: "firstPrev", message: "Line 1 does not chain to line 0: the first line must have prev null." }],
    },
    { name: "a line that is not an object", input: { ...auditInput(1), lines: [{ line: 1, object: false, prevHash: null, mac: "unchecked" }] }, errors: [{ messageId: "notObject", line: 1 }] },
    { name: "an unterminated last line", input: auditInput(2, { unterminated: 2 }), errors: [{ messageId: "unterminated", line: 2 }] },
    { name: "a MAC removed", input: auditInput(1, { from: 0 }, "absent"), errors: [{ messageId: "noMac", line: 1 }] },
    { name: "a MAC that does not verify", input: auditInput(1, { from: 0 }, "invalid"), errors: [{ messageId: "badMac", hint: "restore the log from a copy; investigate who can write it" }] },
    {
      name: "a log that does not end where the guard wrote",
      input: auditInput(1, { anchoredHead: { count: 2, hash: "sha256:line1" } }),
      errors: [{ messageId: "head", message: "The log ends at line 1, but the guard's state says it wrote 2 lines ending in sha256:line1: lines were removed from the end or the log was replaced." }],
    },
    { name: "a run that starts past the end", input: auditInput(1, { from: 3 }), errors: [{ messageId: "cut", expected: 4, actual: 1 }] },
    {
      name: "a trail that cannot be read",
      input: { step: "audit", file: "audit.jsonl", unreadable: { kind: "error", code: "ENOENT" } },
      errors: [{ messageId: "unreadable", message: "The audit trail audit.jsonl cannot be read (ENOENT).", hint: "check the path; a missing log is a broken trail" }],
    },
    {
      name: "a trail whose size changed under the guard",
      input: { step: "audit", file: "a.jsonl", tampered: { found: { kind: "size", size: 10 }, bytes: 20, head: { count: 1, hash: "sha256:h" } } },
      errors: [{ messageId: "tampered", message: "The audit trail a.jsonl is 10 bytes, but the guard left it at 20 bytes: it was changed outside the guard.", expected: { bytes: 20, head: { count: 1, hash: "sha256:h" } } }],
    },
    {
      name: "a trail read back at another size",
      input: { step: "audit", file: "a.jsonl", tampered: { found: { kind: "not-a-file", what: "a directory" }, bytes: 20 } },
      errors: [{ messageId: "resized", message: "The audit trail a.jsonl is a directory, but the guard left it at 20 bytes: it was changed outside the guard.", expected: 20 }],
    },
  ],
});
