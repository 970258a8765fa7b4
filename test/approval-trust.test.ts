import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyError, loadPrivateKey, loadTrustedKeys, MAX_KEY_FILE_BYTES } from "../src/node/keys.js";
import { approvalKit, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";

/*
 * What an approval trusts (the key files) and where its single use is recorded: each read within a bound,
 * and each store of consumed approvals consulted whatever folder a start names.
 */

describe("trusted key files hold keys and nothing else", () => {
  it("refuses a key file that is a device or a pipe, at once, and one over the size bound", () => {
    const k = approvalKit();
    const fifo = join(k.root, "keys.fifo");
    execFileSync("mkfifo", [fifo]);
    expect(() => loadTrustedKeys(fifo)).toThrow(/a device, pipe or socket, not a public key file/);
    expect(() => loadTrustedKeys("/dev/zero")).toThrow(/not a public key file/);
    // A folder of keys whose *.pub is a link to a device.
    const dir = join(k.root, "trusted");
    mkdirSync(dir);
    symlinkSync("/dev/zero", join(dir, "zero.pub"));
    expect(() => loadTrustedKeys(dir)).toThrow(KeyError);
    const big = join(k.root, "big.pub");
    writeFileSync(big, readFileSync(k.keys.publicFile, "utf8") + "\n".repeat(MAX_KEY_FILE_BYTES));
    expect(() => loadTrustedKeys(big)).toThrow(/more than a trusted key file holds/);
    // The private key too (approve --key, the policy's approval.key).
    expect(() => loadPrivateKey(fifo)).toThrow(/not a key file/);
    expect(() => loadPrivateKey("/dev/zero")).toThrow(/not a key file/);
  });

  it("refuses a public key found inside other text (a note, a log, a plan), naming the line", () => {
    const k = approvalKit();
    const pem = readFileSync(k.keys.publicFile, "utf8");
    for (const [text, line] of [
      [`# Add a greeting\n\n## Rationale\n\`\`\`\n${pem}\`\`\`\n`, 1],
      [`${pem}\nlog: allowed read_file\n`, 5],
      [`${pem}-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n`, 4],
    ] as const) {
      const file = join(k.root, "mixed.pem");
      writeFileSync(file, text);
      expect(() => loadTrustedKeys(file)).toThrow(new RegExp(`line ${line} is not part of a PEM public key block`));
    }
    // White space around and between blocks is still a key file, as keygen writes it or several concatenated.
    const two = join(k.root, "two.pem");
    writeFileSync(two, `\n${pem}\n\n${pem}  \n`);
    expect(loadTrustedKeys(two)).toHaveLength(2);
  });

  it("the CLI: a trusted key inside a plan file is a usage error, exit 2", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const planWithKey = join(k.root, "kept-plan.md");
    writeFileSync(planWithKey, `# Notes\n\n${readFileSync(k.keys.publicFile, "utf8")}`);
    const r = await cli(["verify", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", planWithKey], { cwd: k.workspace });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/line 1 is not part of a PEM public key block/);
    expect((await cli(["verify", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile], { cwd: k.workspace })).code).toBe(0);
  });
});

describe("a single-use approval is recorded in the per-user store whatever store a start names", () => {
  it("the deprecated guard start --state with a fresh --consumed-dir cannot replay an approval a run used", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const env = { XDG_STATE_HOME: join(k.root, "xdg") };
    const base = ["plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile];
    const first = await cli(["guard", "start", ...base, "--state-dir", join(k.guardDir, "d1")], { cwd: k.workspace, env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    const replay = await cli(["guard", "start", ...base, "--state", join(k.guardDir, "s.json"), "--audit", join(k.guardDir, "a.log"), "--consumed-dir", join(k.guardDir, "fresh")], { cwd: k.workspace, env });
    expect(replay.code, replay.stdout + replay.stderr).toBe(1);
    expect(replay.stdout).toMatch(/already used \(recorded in .*xdg\/plangate\/consumed\).*\[approval-consumed\]/);
    expect(existsSync(join(k.guardDir, "s.json"))).toBe(false);
  });

  it("an approval used by the deprecated guard start with --consumed-dir cannot start a run in a state directory, nor again", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    const record = await k.record();
    writeFileSync(approval, k.sign(record));
    const env = { XDG_STATE_HOME: join(k.root, "xdg") };
    const base = ["plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile];
    const first = await cli(["guard", "start", ...base, "--state", join(k.guardDir, "s1.json"), "--audit", join(k.guardDir, "a.log"), "--consumed-dir", join(k.guardDir, "c1")], { cwd: k.workspace, env });
    expect(first.code, first.stdout + first.stderr).toBe(0);
    expect(existsSync(join(k.root, "xdg", "plangate", "consumed", record.nonce))).toBe(true);
    const run = await cli(["guard", "start", ...base, "--state-dir", join(k.guardDir, "d1")], { cwd: k.workspace, env });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/\[approval-consumed\]/);
    const again = await cli(["guard", "start", ...base, "--state", join(k.guardDir, "s2.json"), "--audit", join(k.guardDir, "a.log"), "--consumed-dir", join(k.guardDir, "c2")], { cwd: k.workspace, env });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/\[approval-consumed\]/);
  });
});

describe("a policy that moves the workspace below the repository does not move trust with it", () => {
  // Whoever writes the project's policy set `workspace: ./sub` and pointed approval.trustedKeys at a key
  // pair planted beside the policy: outside the workspace, so the key-in-workspace check passed.
  function planted() {
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "plangate-project-")));
    mkdirSync(join(repo, ".git"));
    mkdirSync(join(repo, "sub"));
    writeFileSync(join(repo, "sub", "plan.json"), JSON.stringify(PLAN));
    writeFileSync(join(repo, "plangate.yaml"), "workspace: ./sub\napproval:\n  trustedKeys: ./evil.pub\ntools:\n  allow: [read_file, write_file]\n");
    return { repo, sub: join(repo, "sub"), state: join(realpathSync(mkdtempSync(join(tmpdir(), "plangate-state-"))), "s") };
  }

  it("approve refuses to sign with a key in the repository, outside the workspace", async () => {
    const p = planted();
    expect((await cli(["keygen", "--out", p.repo, "--name", "evil"])).code).toBe(0);
    const a = await cli(["approve", "plan.json", "--key", join(p.repo, "evil.key")], { cwd: p.sub });
    expect(a.code).toBe(1);
    expect(a.stdout).toMatch(/The signing key .*evil\.key lives inside the repository .* that holds the workspace.*\[approval-key-in-workspace\]/);
  });

  it("verify and guard start refuse an approval verified by a trusted key in the repository", async () => {
    const p = planted();
    const outside = join(realpathSync(mkdtempSync(join(tmpdir(), "plangate-keys-"))));
    expect((await cli(["keygen", "--out", outside, "--name", "evil"])).code).toBe(0);
    // Signed elsewhere (the key pair is the planter's own), the public key then planted beside the policy.
    const a = await cli(["approve", "plan.json", "--key", join(outside, "evil.key")], { cwd: p.sub });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    writeFileSync(join(p.repo, "a.json"), a.stdout);
    writeFileSync(join(p.repo, "evil.pub"), readFileSync(join(outside, "evil.pub")));
    const v = await cli(["verify", "plan.json", "--approval", join(p.repo, "a.json")], { cwd: p.sub });
    expect(v.code).toBe(1);
    expect(v.stdout).toMatch(/The trusted key .*evil\.pub lives inside the repository .* that holds the workspace.*\[approval-key-in-workspace\]/);
    const g = await cli(["guard", "start", "plan.json", "--approval", join(p.repo, "a.json"), "--state-dir", p.state], { cwd: p.sub });
    expect(g.code).toBe(1);
    expect(g.stdout).toMatch(/\[approval-key-in-workspace\]/);
    // The same key kept outside the repository is accepted.
    const v2 = await cli(["verify", "plan.json", "--approval", join(p.repo, "a.json"), "--trusted-keys", join(outside, "evil.pub")], { cwd: p.sub });
    expect(v2.code, v2.stdout + v2.stderr).toBe(0);
  });
});

describe("guard start without a per-user store of consumed approvals", () => {
  // Without HOME or XDG_STATE_HOME a used approval was recorded only in the state directory the start
  // named: a start naming a fresh one ran it again.
  it("is refused unless the store is named; set HOME, XDG_STATE_HOME or PLANGATE_CONSUMED_DIR, or pass --consumed-dir", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const base = ["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile];
    const r = await cli([...base, "--state-dir", join(k.guardDir, "d1")], { cwd: k.workspace, env: {} });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("No per-user store of consumed approvals: neither HOME nor XDG_STATE_HOME is set");
    expect(r.stdout).toMatch(/\[guard-failure\]\n {2}= hint: set HOME or XDG_STATE_HOME .*PLANGATE_CONSUMED_DIR=DIR, or --consumed-dir DIR/);
    const json = JSON.parse((await cli([...base, "--state-dir", join(k.guardDir, "d1"), "-o", "json"], { cwd: k.workspace, env: {} })).stdout);
    expect(json.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["guard-failure"]);
    // Deprecated --state needs a store too: --consumed-dir, or the per-user one.
    const legacy = await cli([...base, "--state", join(k.guardDir, "s.json"), "--audit", join(k.guardDir, "a.log")], { cwd: k.workspace, env: {} });
    expect(legacy.stdout).toMatch(/No per-user store.*\[guard-failure\]/);
    expect(existsSync(join(k.guardDir, "d1"))).toBe(false);
    // Nothing was used up: named explicitly, the store takes the approval once, and only once.
    const named = { PLANGATE_CONSUMED_DIR: join(k.root, "consumed") };
    const ok = await cli([...base, "--state-dir", join(k.guardDir, "d1")], { cwd: k.workspace, env: named });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    const replay = await cli([...base, "--state-dir", join(k.guardDir, "d2")], { cwd: k.workspace, env: named });
    expect(replay.stdout).toMatch(/already used \(recorded in .*consumed\).*\[approval-consumed\]/);
  });

  it("starts with --consumed-dir, or with HOME alone", async () => {
    const k = approvalKit();
    const base = ["guard", "start", "plan.json", "--tools", k.toolsFile, "--trusted-keys", k.keys.publicFile];
    const fresh = async () => {
      const file = join(k.root, `a-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, k.sign(await k.record()));
      return file;
    };
    const withDir = await cli([...base, "--approval", await fresh(), "--state-dir", join(k.guardDir, "d1"), "--consumed-dir", join(k.guardDir, "c")], { cwd: k.workspace, env: {} });
    expect(withDir.code, withDir.stdout + withDir.stderr).toBe(0);
    const legacy = await cli([...base, "--approval", await fresh(), "--state", join(k.guardDir, "s.json"), "--audit", join(k.guardDir, "a.log"), "--consumed-dir", join(k.guardDir, "c")], { cwd: k.workspace, env: {} });
    expect(legacy.code, legacy.stdout + legacy.stderr).toBe(0);
    const home = join(k.root, "home");
    const withHome = await cli([...base, "--approval", await fresh(), "--state-dir", join(k.guardDir, "d2")], { cwd: k.workspace, env: { HOME: home } });
    expect(withHome.code, withHome.stdout + withHome.stderr).toBe(0);
    expect(readdirSync(join(home, ".local", "state", "plangate", "consumed"))).toHaveLength(1);
  });
});
