import { execFileSync } from "node:child_process";
import { chmodSync, chownSync, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { ExecutionGuard, type GuardRefusal } from "../src/node/guard.js";
import { KeyError, keyFolderOf, keyPlacesFor, loadPrivateKey, loadTrustedKeys, MAX_KEY_FILE_BYTES, ownedByAnother } from "../src/node/keys.js";
import { loadPolicy } from "../src/node/policy.js";
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

describe("outside any repository, the folders a command is pointed at are the project's too", () => {
  // The same attack without `.git`: whoever writes the project edits the policy (which names the
  // workspace) to `workspace: ./sub` and `approval.trustedKeys: ./evil.pub`, planted beside the policy.
  function project(policy = "workspace: ./sub\napproval:\n  trustedKeys: ./evil.pub\ntools:\n  allow: [read_file, write_file]\n") {
    const proj = realpathSync(mkdtempSync(join(tmpdir(), "plangate-nogit-")));
    mkdirSync(join(proj, "sub"));
    writeFileSync(join(proj, "sub", "plan.json"), JSON.stringify(PLAN));
    writeFileSync(join(proj, "plangate.yaml"), policy);
    // The planter's own key pair, made elsewhere; its public key is then written into the project.
    const theirs = realpathSync(mkdtempSync(join(tmpdir(), "plangate-theirs-")));
    const home = realpathSync(mkdtempSync(join(tmpdir(), "plangate-home-")));
    return { proj, sub: join(proj, "sub"), theirs, home, state: join(home, "state"), env: { HOME: home } };
  }
  async function signedBy(p: ReturnType<typeof project>, keyDir: string, name = "evil"): Promise<string> {
    expect((await cli(["keygen", "--out", keyDir, "--name", name])).code).toBe(0);
    const a = await cli(["approve", "plan.json", "--key", join(keyDir, `${name}.key`), "--policy", join(p.proj, "plangate.yaml")], { cwd: p.sub, env: p.env });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    const file = join(p.theirs, "a.json");
    writeFileSync(file, a.stdout);
    return file;
  }

  it("verify and guard start refuse a trusted key beside the policy, pointing at the policy's setting", async () => {
    const p = project();
    const approval = await signedBy(p, p.theirs);
    writeFileSync(join(p.proj, "evil.pub"), readFileSync(join(p.theirs, "evil.pub")));
    const v = await cli(["verify", "plan.json", "--approval", approval], { cwd: p.sub, env: p.env });
    expect(v.code, v.stdout + v.stderr).toBe(1);
    expect(v.stdout).toContain(`The trusted key ${join(p.proj, "evil.pub")} lives inside ${p.proj}, the folder of the policy file: whoever writes the project could plant their own key there`);
    expect(v.stdout).toContain(`= at: ${join(p.proj, "plangate.yaml")}:3:16`);
    expect(v.stdout).toContain("= hint: keep trusted keys in ~/.config/plangate (or $XDG_CONFIG_HOME/plangate) or ~/.ssh");
    const json = JSON.parse((await cli(["verify", "plan.json", "--approval", approval, "-o", "json"], { cwd: p.sub, env: p.env })).stdout);
    expect(json.results[0].diagnostics).toEqual([
      expect.objectContaining({ rule: "approval-key-in-workspace", severity: "error", file: join(p.proj, "plangate.yaml"), line: 3, column: 16 }),
    ]);
    const g = await cli(["guard", "start", "plan.json", "--approval", approval, "--state-dir", p.state], { cwd: p.sub, env: p.env });
    expect(g.code, g.stdout + g.stderr).toBe(1);
    expect(g.stdout).toMatch(/the folder of the policy file.*\[approval-key-in-workspace\]/);
    // The approval was not used up: the same key kept in the per-user folder verifies, and the run starts.
    const mine = join(p.home, ".config", "plangate");
    mkdirSync(mine, { recursive: true });
    writeFileSync(join(mine, "approver.pub"), readFileSync(join(p.theirs, "evil.pub")));
    const ok = await cli(["guard", "start", "plan.json", "--approval", approval, "--state-dir", p.state, "--trusted-keys", join(mine, "approver.pub")], { cwd: p.sub, env: p.env });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  });

  it("approve refuses a signing key beside the policy, and one in the folder it runs in", async () => {
    const p = project("workspace: ./sub\ntools:\n  allow: [read_file, write_file]\n");
    expect((await cli(["keygen", "--out", p.proj, "--name", "evil"])).code).toBe(0);
    const a = await cli(["approve", "plan.json", "--key", join(p.proj, "evil.key")], { cwd: p.sub, env: p.env });
    expect(a.code).toBe(1);
    expect(a.stdout).toContain(`The signing key ${join(p.proj, "evil.key")} lives inside ${p.proj}, the folder of the policy file: whoever writes the project could read it there`);
    expect(a.stdout).toMatch(/\[approval-key-in-workspace\]\n {2}= hint: keep the signing key in ~\/\.config\/plangate/);
    // A policy passed from elsewhere: the folder approve runs in is still the project's.
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "plangate-policy-")));
    writeFileSync(join(elsewhere, "p.yaml"), `workspace: ${p.sub}\ntools:\n  allow: [read_file, write_file]\n`);
    mkdirSync(join(p.proj, "keys"));
    expect((await cli(["keygen", "--out", join(p.proj, "keys")])).code).toBe(0);
    const b = await cli(["approve", "sub/plan.json", "--key", "keys/plangate.key", "--policy", join(elsewhere, "p.yaml")], { cwd: p.proj, env: p.env });
    expect(b.code).toBe(1);
    expect(b.stdout).toContain(`lives inside ${p.proj}, the folder plangate runs in`);
  });

  it("the folder of the plan, and the repository holding a folder, are the project's too", async () => {
    const p = project("tools:\n  allow: [read_file, write_file]\n");
    expect((await cli(["keygen", "--out", p.theirs, "--name", "evil"])).code).toBe(0);
    const theirs = readFileSync(join(p.theirs, "evil.pub"));
    // A policy and a working folder elsewhere; the plan kept in the project's plans/, its key pair beside it.
    const elsewhere = realpathSync(mkdtempSync(join(tmpdir(), "plangate-policy-")));
    writeFileSync(join(elsewhere, "p.yaml"), `workspace: ${p.sub}\ntools:\n  allow: [read_file, write_file]\n`);
    const plans = join(p.proj, "plans");
    mkdirSync(join(plans, "keys"), { recursive: true });
    writeFileSync(join(plans, "plan.json"), JSON.stringify(PLAN));
    const policy = ["--policy", join(elsewhere, "p.yaml")];
    const a = await cli(["approve", join(plans, "plan.json"), "--key", join(p.theirs, "evil.key"), ...policy], { cwd: elsewhere, env: p.env });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    writeFileSync(join(p.theirs, "a.json"), a.stdout);
    writeFileSync(join(plans, "keys", "evil.pub"), theirs);
    const v = await cli(["verify", join(plans, "plan.json"), "--approval", join(p.theirs, "a.json"), ...policy, "--trusted-keys", join(plans, "keys", "evil.pub")], { cwd: elsewhere, env: p.env });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`lives inside ${plans}, the folder of the plan`);
    // A repository around the folder plangate runs in: its root is the project's, whatever workspace the policy names.
    const repo = realpathSync(mkdtempSync(join(tmpdir(), "plangate-repo-")));
    mkdirSync(join(repo, ".git"));
    mkdirSync(join(repo, "tools"));
    writeFileSync(join(repo, "evil.pub"), theirs);
    const r = await cli(["verify", join(plans, "plan.json"), "--approval", join(p.theirs, "a.json"), ...policy, "--trusted-keys", join(repo, "evil.pub")], { cwd: join(repo, "tools"), env: p.env });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`lives inside ${repo}, the repository holding the folder plangate runs in`);
    // The same key outside every such folder verifies.
    const kept = realpathSync(mkdtempSync(join(tmpdir(), "plangate-kept-")));
    writeFileSync(join(kept, "evil.pub"), theirs);
    const ok = await cli(["verify", join(plans, "plan.json"), "--approval", join(p.theirs, "a.json"), ...policy, "--trusted-keys", join(kept, "evil.pub")], { cwd: join(repo, "tools"), env: p.env });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
  });

  it("accepts keys in the per-user folders: $XDG_CONFIG_HOME/plangate, ~/.config/plangate, ~/.ssh, a policy kept beside them", async () => {
    const p = project("tools:\n  allow: [read_file, write_file]\n");
    const xdg = join(p.home, "xdg");
    for (const [dir, env] of [
      [join(p.home, ".config", "plangate"), { HOME: p.home }],
      [join(p.home, ".ssh"), { HOME: p.home }],
      [join(xdg, "plangate"), { HOME: p.home, XDG_CONFIG_HOME: xdg }],
    ] as const) {
      mkdirSync(dir, { recursive: true });
      const approval = await signedBy(p, dir, `k${Math.random().toString(36).slice(2)}`);
      const pub = readdirSync(dir).find((f) => f.endsWith(".pub"))!;
      const v = await cli(["verify", "plan.json", "--approval", approval, "--trusted-keys", join(dir, pub)], { cwd: p.sub, env });
      expect(v.code, `${dir}: ${v.stdout}${v.stderr}`).toBe(0);
      rmSync(dir, { recursive: true });
    }
    // The per-user setup of a project outside any repository: the policy and the key pair in ~/.config/plangate,
    // the policy naming the key beside itself, approve and verify run from the project.
    const mine = join(p.home, ".config", "plangate");
    expect((await cli(["keygen", "--out", mine])).code).toBe(0);
    writeFileSync(join(mine, "plangate.yaml"), `workspace: ${p.sub}\napproval:\n  trustedKeys: ./plangate.pub\ntools:\n  allow: [read_file, write_file]\n`);
    const policy = ["--policy", join(mine, "plangate.yaml")];
    const a = await cli(["approve", "plan.json", "--key", join(mine, "plangate.key"), ...policy], { cwd: p.sub, env: p.env });
    expect(a.code, a.stdout + a.stderr).toBe(0);
    writeFileSync(join(p.theirs, "mine.json"), a.stdout);
    const v = await cli(["verify", "plan.json", "--approval", join(p.theirs, "mine.json"), ...policy], { cwd: p.sub, env: p.env });
    expect(v.code, v.stdout + v.stderr).toBe(0);
    // Run from the home folder: it is no project's folder (it holds every per-user folder).
    const fromHome = await cli(["verify", join(p.sub, "plan.json"), "--approval", join(p.theirs, "mine.json"), ...policy], { cwd: p.home, env: p.env });
    expect(fromHome.code, fromHome.stdout + fromHome.stderr).toBe(0);
    // ~/.config a repository of dotfiles, the policy in it: still the user's own.
    mkdirSync(join(p.home, ".config", ".git"));
    expect((await cli(["verify", "plan.json", "--approval", join(p.theirs, "mine.json"), ...policy], { cwd: p.sub, env: p.env })).code).toBe(0);
  });

  it("a policy the project may edit names keys only in the per-user folders: not a key planted elsewhere (/tmp)", async () => {
    const p = project();
    expect((await cli(["keygen", "--out", p.theirs, "--name", "evil"])).code).toBe(0);
    // An approval signed by the planter's key under a policy file (the policy's hash is in it).
    const approvedUnder = async (policy: string) => {
      const a = await cli(["approve", "plan.json", "--key", join(p.theirs, "evil.key"), "--policy", policy], { cwd: p.sub, env: p.env });
      expect(a.code, a.stdout + a.stderr).toBe(0);
      const file = join(p.theirs, `a-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, a.stdout);
      return file;
    };
    // The edited policy names a key the planter wrote outside every folder plangate is pointed at.
    const policy = join(p.proj, "plangate.yaml");
    writeFileSync(policy, `workspace: ./sub\napproval:\n  trustedKeys: ${join(p.theirs, "evil.pub")}\ntools:\n  allow: [read_file, write_file]\n`);
    const approval = await approvedUnder(policy);
    const v = await cli(["verify", "plan.json", "--approval", approval], { cwd: p.sub, env: p.env });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`The trusted key ${join(p.theirs, "evil.pub")} is named by ${policy}, a policy file whoever writes the project may edit, and lies outside the per-user key folders`);
    expect(v.stdout).toContain(`= at: ${policy}:3:16`);
    expect(v.stdout).toMatch(/or name the key yourself \(--trusted-keys\)\n/);
    const g = await cli(["guard", "start", "plan.json", "--approval", approval, "--state-dir", p.state], { cwd: p.sub, env: p.env });
    expect(g.stdout).toMatch(/is named by .*\[approval-key-in-workspace\]/);
    // The same key named on the command line is the user's own choice.
    const flag = await cli(["verify", "plan.json", "--approval", approval, "--trusted-keys", join(p.theirs, "evil.pub")], { cwd: p.sub, env: p.env });
    expect(flag.code, flag.stdout + flag.stderr).toBe(0);
    // Named by a policy kept in the per-user folder: the user's own choice too.
    const mine = join(p.home, ".config", "plangate");
    mkdirSync(mine, { recursive: true });
    const own = join(mine, "plangate.yaml");
    writeFileSync(own, readFileSync(policy, "utf8").replace("./sub", p.sub));
    const byOwn = await cli(["verify", "plan.json", "--approval", await approvedUnder(own), "--policy", own], { cwd: p.sub, env: p.env });
    expect(byOwn.code, byOwn.stdout + byOwn.stderr).toBe(0);
    // And the project's policy may name a key kept in the per-user folder.
    copyFileSync(join(p.theirs, "evil.pub"), join(mine, "approver.pub"));
    writeFileSync(policy, `workspace: ./sub\napproval:\n  trustedKeys: ${join(mine, "approver.pub")}\ntools:\n  allow: [read_file, write_file]\n`);
    const kept = await cli(["verify", "plan.json", "--approval", await approvedUnder(policy)], { cwd: p.sub, env: p.env });
    expect(kept.code, kept.stdout + kept.stderr).toBe(0);
  });

  it("a per-user folder that lies in the project (a link into it) is the project's", async () => {
    const p = project();
    const approval = await signedBy(p, p.theirs);
    mkdirSync(join(p.proj, "keys"));
    writeFileSync(join(p.proj, "keys", "evil.pub"), readFileSync(join(p.theirs, "evil.pub")));
    mkdirSync(join(p.home, ".config"));
    symlinkSync(join(p.proj, "keys"), join(p.home, ".config", "plangate"));
    const v = await cli(["verify", "plan.json", "--approval", approval, "--trusted-keys", join(p.home, ".config", "plangate", "evil.pub")], { cwd: p.sub, env: p.env });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`The trusted key ${join(p.proj, "keys", "evil.pub")} lives inside ${p.proj}, the folder of the policy file`);
  });

  it("a trusted key file another user owns and no one else may write is accepted where the project is (the current user cannot have planted it)", async () => {
    const p = project();
    const approval = await signedBy(p, p.theirs);
    const key = join(p.proj, "evil.pub");
    writeFileSync(key, readFileSync(join(p.theirs, "evil.pub")), { mode: 0o644 });
    // Owned by user 4242 while plangate runs as user 1000 (the ids are set: the tests may run as root).
    chownSync(key, 4242, 4242);
    const uid = vi.spyOn(process, "getuid").mockReturnValue(1000);
    try {
      const trusted = (await cli(["verify", "plan.json", "--approval", approval], { cwd: p.sub, env: p.env })).code;
      chmodSync(key, 0o664);
      const groupWritable = await cli(["verify", "plan.json", "--approval", approval], { cwd: p.sub, env: p.env });
      chmodSync(key, 0o644);
      chownSync(key, 1000, 1000);
      const own = (await cli(["verify", "plan.json", "--approval", approval], { cwd: p.sub, env: p.env })).code;
      expect([trusted, groupWritable.code, own]).toEqual([0, 1, 1]);
      expect(groupWritable.stdout).toMatch(/the folder of the policy file.*\[approval-key-in-workspace\]/);
    } finally {
      uid.mockRestore();
    }
    // Root can write every file: for root no file is another's.
    expect(ownedByAnother({ uid: 4242, mode: 0o100644 })).toBe(process.getuid?.() !== 0 && process.getuid?.() !== 4242);
  });
});

describe("a key file with more than one name", () => {
  // A hard link in the workspace to the trusted key: a write through it rewrites the key in place, though
  // the path the policy names lies outside every project folder.
  it("verify and the guard refuse a trusted key hard-linked into the workspace, or anywhere", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const args = ["verify", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile];
    expect((await cli(args, { cwd: k.workspace })).code).toBe(0);
    linkSync(k.keys.publicFile, join(k.workspace, "notes.txt"));
    const v = await cli(args, { cwd: k.workspace });
    expect(v.code).toBe(1);
    expect(v.stdout).toContain(`The trusted key ${k.keys.publicFile} has 2 names (hard links): a write through another name, perhaps inside the workspace, changes the key`);
    expect(v.stdout).toMatch(/\[approval-key-in-workspace\]\n {2}= hint: give the key file a single name: copy it \(cp, not ln\)/);
    const g = await ExecutionGuard.open({ ...(await k.guardOptions()), trustedKeys: loadTrustedKeys(k.keys.publicFile) }).catch((e) => e);
    expect((g as GuardRefusal).diagnostics.map((d) => [d.rule, d.messageId])).toEqual([["approval-key-in-workspace", "trustedKeyLinked"]]);
    // Wherever the other name is: where it lies cannot be seen.
    rmSync(join(k.workspace, "notes.txt"));
    linkSync(k.keys.publicFile, join(k.guardDir, "copy.pub"));
    expect((await cli(args, { cwd: k.workspace })).stdout).toMatch(/has 2 names/);
    // A copy (cp) is a file of its own: the key is trusted again.
    rmSync(join(k.guardDir, "copy.pub"));
    copyFileSync(k.keys.publicFile, join(k.guardDir, "copy.pub"));
    expect((await cli(args, { cwd: k.workspace })).code).toBe(0);
  });

  it("approve refuses a signing key hard-linked into the workspace; a symlink's target is what counts", async () => {
    const k = approvalKit();
    const args = ["approve", "plan.json", "--tools", k.toolsFile, "--key", k.keys.privateFile];
    expect((await cli(args, { cwd: k.workspace })).code).toBe(0);
    linkSync(k.keys.privateFile, join(k.workspace, "k"));
    const a = await cli(args, { cwd: k.workspace });
    expect(a.code).toBe(1);
    expect(a.stdout).toContain(`The signing key ${k.keys.privateFile} has 2 names (hard links): another name, perhaps inside the workspace, lets it be read`);
    // Named through a symbolic link outside the workspace: the file it leads to has two names.
    const link = join(k.guardDir, "key-link");
    symlinkSync(k.keys.privateFile, link);
    expect((await cli(["approve", "plan.json", "--tools", k.toolsFile, "--key", link], { cwd: k.workspace })).stdout).toMatch(/has 2 names.*\[approval-key-in-workspace\]/);
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

describe("keyPlacesFor: the project's folders and the per-user key folders", () => {
  it("takes the policy's folder, the working folders and the plan's, each with the repository holding it", () => {
    const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-places-")));
    const home = join(root, "home");
    for (const d of ["home/.config/plangate", "repo/.git", "repo/a/b", "plans", "cfg"]) mkdirSync(join(root, d), { recursive: true });
    const places = keyPlacesFor({ policy: join(root, "repo", "a", "plangate.yaml"), cwd: [join(root, "repo", "a", "b"), undefined, "relative"], plan: join(root, "plans", "p.json"), env: { HOME: home } });
    expect(places.folders).toEqual([
      { dir: join(root, "repo", "a"), anchor: "policy", repository: false },
      { dir: join(root, "repo"), anchor: "policy", repository: true },
      { dir: join(root, "repo", "a", "b"), anchor: "cwd", repository: false },
      { dir: join(root, "plans"), anchor: "plan", repository: false },
    ]);
    expect(places.userFolders).toEqual([join(home, ".config", "plangate"), join(home, ".ssh")]);
    expect(keyFolderOf(join(root, "repo", "k.pub"), places)).toEqual({ folder: places.folders[1] });
    expect(keyFolderOf(join(home, ".ssh", "k.pub"), places)).toEqual({ userFolder: join(home, ".ssh") });
    // The home folder, its ancestors and the root are no project's; a standard input plan has no folder.
    expect(keyPlacesFor({ cwd: [home, root, "/"], plan: "-", env: { HOME: home } }).folders).toEqual([]);
    // A policy in a per-user folder is the user's own, and so is a repository holding it (dotfiles in ~/.config).
    mkdirSync(join(home, ".config", ".git"));
    expect(keyPlacesFor({ policy: join(home, ".config", "plangate", "plangate.yaml"), env: { HOME: home } }).folders).toEqual([]);
    // A per-user folder inside a project folder is no refuge: XDG_CONFIG_HOME under the working folder.
    const inside = keyPlacesFor({ cwd: join(root, "cfg"), env: { HOME: home, XDG_CONFIG_HOME: join(root, "cfg") } });
    expect(inside.userFolders).toEqual([join(home, ".config", "plangate"), join(home, ".ssh")]);
    // Without HOME: no per-user folders (XDG_CONFIG_HOME alone names one), and nothing is too wide but the root.
    expect(keyPlacesFor({ cwd: root, env: { XDG_CONFIG_HOME: join(root, "x") } })).toEqual({ folders: [{ dir: root, anchor: "cwd", repository: false }], userFolders: [] });
  });

  it("a policy's identity does not change with the lines its settings are written on", async () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-at-")));
    writeFileSync(join(dir, "a.yaml"), "approval:\n  trustedKeys: /etc/plangate/keys\n");
    writeFileSync(join(dir, "b.yaml"), "# the approver's keys\n\napproval:\n    trustedKeys: /etc/plangate/keys\n");
    const a = await loadPolicy({ file: join(dir, "a.yaml"), cwd: dir });
    const b = await loadPolicy({ file: join(dir, "b.yaml"), cwd: dir });
    expect(a.policy.settingsAt).toEqual({ trustedKeys: { file: join(dir, "a.yaml"), line: 2, column: 16 } });
    expect(b.policy.settingsAt).toEqual({ trustedKeys: { file: join(dir, "b.yaml"), line: 4, column: 18 } });
    expect(a.hash).toBe(b.hash);
    // Set by a base and not by the file: the base's line.
    writeFileSync(join(dir, "c.yaml"), "extends: ./a.yaml\n");
    expect((await loadPolicy({ file: join(dir, "c.yaml"), cwd: dir })).policy.settingsAt).toEqual({ trustedKeys: { file: join(dir, "a.yaml"), line: 2, column: 16 } });
  });
});
