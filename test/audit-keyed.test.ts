/**
 * The keyed audit chain. The attacker can write the audit trail (it may sit anywhere the agent can
 * write) but not the guard's state (outside the workspace, 0600), which holds the run's secret key
 * and the head. Every forgery below recomputes the hash chain perfectly: only the MACs and the head
 * can tell it from the real log.
 */
import { createHmac } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { entryMac, lineHash, verifyAuditText } from "../src/node/audit.js";
import { hookCall, startGuard } from "../src/node/hook.js";
import { readState } from "../src/node/guard-state.js";
import { canonicalJson } from "../src/core/canonical/jcs.js";
import { approvalKit, DEFAULT_POLICY_HASH, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { cpuBound, cpuMsSince } from "./cpu-time.js";
import { NOW } from "./helpers.js";

type Entry = Record<string, unknown>;

/** A guard run with one deny then one allow: open, deny, allow (3 lines), plus `before` lines of an earlier log. */
async function run(before: string[] = []) {
  const k = approvalKit();
  const state = join(k.guardDir, "state.json");
  const audit = join(k.guardDir, "audit.log");
  if (before.length) writeFileSync(audit, before.map((l) => l + "\n").join(""));
  await startGuard(state, {
    plan: k.planFile,
    approval: k.sign(await k.record()),
    workspace: k.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    tools: k.tools,
    trustedKeys: k.trustedKeys,
    consumedDir: join(k.guardDir, "consumed"),
    audit,
    now: () => NOW,
  });
  expect(await hookCall(state, { tool: "write_file", args: { path: "/etc/passwd", content: "x" } }, NOW)).toMatchObject({ rule: "guard-step-mismatch" });
  expect(await hookCall(state, { tool: "read_file", args: PLAN[0]!.params }, NOW)).toBeUndefined();
  const entries = () => readFileSync(audit, "utf8").split("\n").slice(0, -1).map((l) => JSON.parse(l) as Entry);
  return { k, state, audit, entries };
}

/** Rewrites a log as an attacker would: renumbers seq and recomputes every prev (MACs as `mac` says). */
function rewrite(entries: Entry[], mac: (e: Entry) => unknown = (e) => e.mac): string {
  let prev: string | null = null;
  const out: string[] = [];
  entries.forEach((e, i) => {
    const { mac: _m, ...rest } = e;
    const next: Entry = { ...rest, seq: i, prev };
    const m = mac({ ...next, mac: e.mac });
    if (m !== undefined) next.mac = m;
    const line = JSON.stringify(next);
    out.push(line);
    prev = lineHash(line);
  });
  return out.map((l) => l + "\n").join("");
}

const denyAsAllow = (es: Entry[]) => es.map((e) => (e.event === "deny" ? { ...e, event: "allow", rule: undefined, reason: undefined } : e)).map((e) => JSON.parse(JSON.stringify(e)) as Entry);

describe("keyed audit chain", () => {
  it("writes the state 0600 with a 256-bit key, the run's first line and the head; every line carries a MAC", async () => {
    const r = await run();
    expect(statSync(r.state).mode & 0o777).toBe(0o600);
    const s = readState(r.state);
    expect(s).toMatchObject({ version: 2, audit_from: 0, audit_head: { count: 3 }, max_input_bytes: 1 << 20 });
    expect(s.audit_key).toMatch(/^[0-9a-f]{64}$/);
    const key = Buffer.from(s.audit_key!, "hex");
    for (const e of r.entries()) {
      const { mac, ...rest } = e;
      expect(mac).toBe("hmac-sha256:" + createHmac("sha256", key).update(canonicalJson(rest)).digest("hex"));
    }
    const v = await cli(["audit", "verify", r.audit, "--state", r.state, "--output", "json"]);
    expect(v.code).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ version: 1, results: [{ file: r.audit, valid: true, level: "authenticated", entries: 3, authenticated: { from: 1, to: 3 }, diagnostics: [] }], summary: { files: 1, valid: 1 } });
  });

  /** Each forgery: the rewritten log, the 1-based line the keyed check names (undefined: the head check). */
  const FORGERIES: { name: string; forge: (es: Entry[], key: Buffer) => string; line?: number }[] = [
    { name: "a deny rewritten as an allow, MACs left in place", forge: (es) => rewrite(denyAsAllow(es)), line: 2 },
    { name: "a deny rewritten as an allow, MACs removed", forge: (es) => rewrite(denyAsAllow(es), () => undefined), line: 1 },
    { name: "a deny rewritten as an allow, MACs recomputed under the attacker's own key", forge: (es) => rewrite(denyAsAllow(es), (e) => entryMac(Buffer.alloc(32, 7), e)), line: 1 },
    { name: "a deny rewritten as an allow, MAC prefix changed", forge: (es) => rewrite(denyAsAllow(es), (e) => String(e.mac).replace("hmac-sha256:", "sha256:")), line: 1 },
    { name: "the deny line deleted and the rest renumbered", forge: (es) => rewrite([es[0]!, es[2]!]), line: 2 },
    { name: "an allow line forged and appended (head moved)", forge: (es) => rewrite([...es, { ...es[2]!, step: 2, tool: "write_file" }]), line: 4 },
    { name: "the last line cut off (nothing recomputed)", forge: (es) => rewrite(es.slice(0, 2)) },
    { name: "the lines reordered and renumbered", forge: (es) => rewrite([es[0]!, es[2]!, es[1]!]), line: 2 },
    { name: "a MAC of another line copied onto the edited one", forge: (es) => rewrite(denyAsAllow(es).map((e, i, all) => (i === 1 ? { ...e, mac: all[2]!.mac } : e))), line: 2 },
  ];

  it.each(FORGERIES.map((f) => [f.name, f] as const))("%s: chain intact without the state, audit-chain-broken with it", async (_n, f) => {
    const r = await run();
    const s = readState(r.state);
    writeFileSync(r.audit, f.forge(r.entries(), Buffer.from(s.audit_key!, "hex")));
    // Without the state: the chain checks out, and that is all that is claimed.
    const bare = await cli(["audit", "verify", r.audit]);
    expect(bare.code).toBe(1);
    expect(bare.stdout).toMatch(/\[audit-unauthenticated\]/);
    expect(bare.stdout).not.toMatch(/audit-chain-broken/);
    const chainOnly = await cli(["audit", "verify", r.audit, "--chain-only"]);
    expect(chainOnly.code).toBe(0);
    expect(chainOnly.stdout).toMatch(/chain intact; not authenticated: give --state to check the MACs/);
    // With the state: the forgery is found, at the line it starts.
    const keyed = await cli(["audit", "verify", r.audit, "--state", r.state, "--output", "json"]);
    expect(keyed.code).toBe(1);
    const doc = JSON.parse(keyed.stdout).results[0];
    expect(doc.valid).toBe(false);
    expect(doc.level).toBe("broken");
    expect(doc.diagnostics.map((d: { rule: string }) => d.rule)).toContain("audit-chain-broken");
    if (f.line !== undefined) expect(doc.diagnostics[0]).toMatchObject({ rule: "audit-chain-broken", line: f.line });
    // And the hook refuses to append to it: every call is blocked.
    await expect(hookCall(r.state, { tool: "write_file", args: PLAN[1]!.params }, NOW)).rejects.toThrow(/audit trail is broken/);
  });

  it("guard start --output json does not print the audit key", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const state = join(k.guardDir, "state.json");
    const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state", state, "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c"), "-o", "json"], { cwd: k.workspace });
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout).results[0];
    expect(doc).toMatchObject({ file: "plan.json", valid: true, diagnostics: [] });
    expect(doc.state).toMatchObject({ version: 2, audit_from: 0, max_input_bytes: 1 << 20 });
    expect(doc.state).not.toHaveProperty("audit_key");
    expect(r.stdout + r.stderr).not.toContain(readState(state).audit_key!);
  });

  it("the hook reads the log only up to the size the guard left: a grown, replaced or device log is refused unread", async () => {
    const { appendFileSync, rmSync, symlinkSync } = await import("node:fs");
    const { execFileSync } = await import("node:child_process");
    const call = { tool: "write_file", args: PLAN[1]!.params };
    const grown = await run();
    expect(readState(grown.state).audit_bytes).toBe(readFileSync(grown.audit).byteLength);
    appendFileSync(grown.audit, " ".repeat(1 << 20));
    await expect(hookCall(grown.state, call, NOW)).rejects.toThrow(/is more than \d+ bytes, but the guard left it at \d+ bytes/);
    const shrunk = await run();
    writeFileSync(shrunk.audit, readFileSync(shrunk.audit).subarray(0, 10));
    await expect(hookCall(shrunk.state, call, NOW)).rejects.toThrow(/is 10 bytes, but the guard left it at/);
    const device = await run();
    rmSync(device.audit);
    symlinkSync("/dev/zero", device.audit);
    await expect(hookCall(device.state, call, NOW)).rejects.toThrow(/is a device, pipe or socket/);
    const fifo = await run();
    rmSync(fifo.audit);
    execFileSync("mkfifo", [fifo.audit]);
    await expect(hookCall(fifo.state, call, NOW)).rejects.toThrow(/is a device, pipe or socket/);
    const gone = await run();
    rmSync(gone.audit);
    await expect(hookCall(gone.state, call, NOW)).rejects.toThrow(/cannot be read \(ENOENT\)/);
    // audit verify refuses a device without reading it.
    expect((await cli(["audit", "verify", device.audit, "--chain-only"])).stdout).toMatch(/is a device, pipe or socket.*\[audit-chain-broken\]/);
  });

  it("a plan swapped for a device or a folder is refused at once (approval-plan-mismatch), not read forever", async () => {
    const { rmSync, symlinkSync, mkdirSync } = await import("node:fs");
    for (const swap of ["device", "folder"] as const) {
      const r = await run();
      rmSync(r.k.planFile);
      if (swap === "device") symlinkSync("/dev/zero", r.k.planFile);
      else mkdirSync(r.k.planFile);
      const started = process.cpuUsage();
      expect(await hookCall(r.state, { tool: "write_file", args: PLAN[1]!.params }, NOW)).toMatchObject({ rule: "approval-plan-mismatch" });
      expect(cpuMsSince(started)).toBeLessThan(cpuBound(2000));
    }
  });

  it("a log copied from another run (another key) is not authenticated by this run's state", async () => {
    const a = await run();
    const b = await run();
    writeFileSync(a.audit, readFileSync(b.audit));
    const r = verifyAuditText(readFileSync(a.audit, "utf8"), { head: readState(a.state).audit_head, key: Buffer.from(readState(a.state).audit_key!, "hex"), from: 0 });
    expect(r.level).toBe("broken");
    expect(r.diagnostics[0]).toMatchObject({ rule: "audit-chain-broken", line: 1 });
  });

  it("authenticates the run's lines and says that earlier lines only predate it", async () => {
    // Two lines of an older (0.1, unkeyed) log, then this run.
    const old = rewrite([
      { seq: 0, ts: "2026-11-01T00:00:00.000Z", event: "open", plan_hash: "sha256:x", nonce: "n", prev: null },
      { seq: 1, ts: "2026-11-01T00:00:00.000Z", event: "complete", plan_hash: "sha256:x", nonce: "n", prev: null },
    ]);
    const r = await run(old.trimEnd().split("\n"));
    expect(readState(r.state).audit_from).toBe(2);
    const v = await cli(["audit", "verify", r.audit, "--state", r.state]);
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/5 entries, chain intact; authenticated: lines 3–5 carry valid MACs under the run's key; lines 1–2 predate the run/);
    // Editing an older line breaks the chain into the run's first (authenticated) line.
    const text = readFileSync(r.audit, "utf8").replace('"event":"complete"', '"event":"open"');
    writeFileSync(r.audit, text);
    const broken = await cli(["audit", "verify", r.audit, "--state", r.state]);
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/Line 3 does not chain to line 2/);
  });

  it("a plangate 0.1 state (no audit key): audit verify reports unauthenticated, the hook refuses to continue", async () => {
    const r = await run();
    const s = readState(r.state) as unknown as Entry;
    const { audit_key: _k, audit_from: _f, max_input_bytes: _m, ...v1 } = s;
    const legacy = join(r.k.guardDir, "v1.json");
    writeFileSync(legacy, JSON.stringify({ ...v1, version: 1 }));
    const v = await cli(["audit", "verify", r.audit, "--state", legacy]);
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/written by plangate 0\.1 and holds no audit key.*\[audit-unauthenticated\]/);
    const chainOnly = await cli(["audit", "verify", r.audit, "--state", legacy, "--chain-only", "--output", "json"]);
    expect(chainOnly.code).toBe(0);
    expect(JSON.parse(chainOnly.stdout).results[0]).toMatchObject({ valid: true, level: "chain", authenticated: null });
    // The 0.1 state still pins the head: a cut tail is found.
    writeFileSync(r.audit, readFileSync(r.audit, "utf8").split("\n").slice(0, 2).join("\n") + "\n");
    expect((await cli(["audit", "verify", r.audit, "--state", legacy, "--chain-only"])).stdout).toMatch(/ends at line 2.*\[audit-chain-broken\]/);
    const hook = await cli(["guard", "--state", legacy], { stdin: JSON.stringify({ tool_name: "read_file", tool_input: PLAN[0]!.params }) });
    expect(hook.code).toBe(2);
    expect(hook.stderr).toMatch(/plangate 0\.1 and has no audit key.*\[guard-failure\]/);
  });

  it("a state whose key is malformed is not a guard state (usage error for verify, block for the hook)", async () => {
    const r = await run();
    for (const key of ["", "00", "zz".repeat(32), 42]) {
      const bad = join(r.k.guardDir, `bad-${String(key).length}-${typeof key}.json`);
      writeFileSync(bad, JSON.stringify({ ...JSON.parse(readFileSync(r.state, "utf8")), audit_key: key }));
      expect((await cli(["audit", "verify", r.audit, "--state", bad])).code).toBe(2);
      expect((await cli(["guard", "--state", bad], { stdin: "{}" })).code).toBe(2);
    }
  });
});
