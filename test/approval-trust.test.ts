import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { KeyError, loadPrivateKey, loadTrustedKeys, MAX_KEY_FILE_BYTES } from "../src/node/keys.js";
import { approvalKit } from "./approval-kit.js";
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
