import { chmodSync, chownSync, mkdirSync, mkdtempSync, realpathSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExecutionGuard, GuardRefusal } from "../src/node/guard.js";
import { untrustedPlace } from "../src/node/private-place.js";
import { approvalKit, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";

/*
 * The guard's own state (state directory, consumed approvals, a 0.1 state file) decides every call: a
 * place another user could write or replace is refused (guard-failure), never used.
 */

const isRoot = process.getuid?.() === 0;
const posix = process.getuid !== undefined;

function tmp(): string {
  return realpathSync(mkdtempSync(join(tmpdir(), "plangate-private-")));
}

describe.skipIf(!posix)("untrustedPlace", () => {
  const me = { uid: process.getuid!(), gid: process.getgid!() };
  const other = { uid: me.uid + 4242, gid: me.gid + 4242 };
  type Case = [name: string, setup: (root: string) => string, who: typeof me, problem: RegExp | undefined];
  const cases: Case[] = [
    ["a folder of one's own, 0700", (r) => mk(r, "s", 0o700), me, undefined],
    ["a folder of one's own, 0755", (r) => mk(r, "s", 0o755), me, undefined],
    ["group-writable by the user's own group", (r) => mk(r, "s", 0o770), me, undefined],
    ["not there yet, under folders of one's own", (r) => join(r, "a", "b"), me, undefined],
    ["writable by every user", (r) => mk(r, "s", 0o777), me, /the state directory .*\/s is writable by every user \(mode 0777\).*chmod go-w/],
    ["writable by every user, sticky", (r) => mk(r, "s", 0o1777), me, /is writable by every user \(mode 1777\)/],
    ["group-writable by another group", (r) => mk(r, "s", 0o770), { uid: me.uid, gid: other.gid }, /is writable by the members of group/],
    // Root's own files are trusted by every user: as root, the folder is given to another user; else the check takes another uid.
    ["owned by another user", (r) => (isRoot ? chownTo(mk(r, "s", 0o700), 65534) : mk(r, "s", 0o700)), isRoot ? me : other, /is owned by user \d+, not by this user/],
    ["in a folder every user can write (no sticky bit)", (r) => join(mk(r, "pub", 0o777), "s"), me, /lies in .*\/pub, writable by every user \(mode 0777\) without the sticky bit/],
    ["not there yet, in a folder every user can write", (r) => join(mk(r, "pub", 0o777), "a", "s"), me, /lies in .*\/pub, writable by every user/],
    ["in a sticky folder every user can write (as /tmp)", (r) => mk(mk(r, "pub", 0o1777), "s", 0o700), me, undefined],
  ];
  it.each(cases)("%s", (_name, setup, who, problem) => {
    const root = tmp();
    const path = setup(root);
    // As another user sees it, the test's own folders (the temp root included) are someone else's.
    const got = untrustedPlace(path, "the state directory", { me: who, ancestors: who !== other });
    if (problem === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(problem);
  });
  it("checks nothing where there are no user ids", () => {
    expect(untrustedPlace(mk(tmp(), "s", 0o777), "the state directory", { me: undefined })).toBeUndefined();
  });
});

function chownTo(path: string, uid: number): string {
  chownSync(path, uid, statSync(path).gid);
  return path;
}

function mk(parent: string, name: string, mode: number): string {
  const p = join(parent, name);
  mkdirSync(p, { recursive: true });
  chmodSync(p, mode);
  return p;
}

type Kit = ReturnType<typeof approvalKit>;

async function approval(k: Kit, name: string): Promise<string> {
  const file = join(k.root, name);
  writeFileSync(file, k.sign(await k.record()));
  return file;
}

const start = (k: Kit, dir: string, a: string) =>
  cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", a, "--state-dir", dir, "--trusted-keys", k.keys.publicFile], { cwd: k.workspace });

const call = (k: Kit) => JSON.stringify({ session_id: "s1", cwd: k.workspace, hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: PLAN[0]!.params });

describe.skipIf(!posix)("a state directory another user could write", () => {
  type Spoil = [name: string, spoil: (dir: string, k: Kit) => void, message: RegExp];
  const spoils: Spoil[] = [
    ["the state directory is writable by every user", (d) => chmodSync(d, 0o777), /state directory .* is writable by every user/],
    ["the state directory is writable by every user, sticky", (d) => chmodSync(d, 0o1777), /state directory .* is writable by every user \(mode 1777\)/],
    ["its runs/ folder is writable by every user", (d) => chmodSync(join(d, "runs"), 0o777), /folder .*\/runs is writable by every user/],
    ["its sessions/ folder is writable by every user", (d) => chmodSync(join(d, "sessions"), 0o777), /folder .*\/sessions is writable by every user/],
    ["its consumed/ folder is writable by every user", (d) => chmodSync(join(d, "consumed"), 0o777), /folder .*\/consumed is writable by every user/],
    ["the folder holding it is writable by every user", (_d, k) => chmodSync(k.root, 0o777), /lies in .* writable by every user \(mode 0777\) without the sticky bit/],
    ...(isRoot
      ? ([
          ["the state directory is owned by another user", (d) => chownSync(d, 65534, statSync(d).gid), /is owned by user 65534/],
          ["the state directory is group-writable by another group", (d) => (chownSync(d, 0, 65534), chmodSync(d, 0o770)), /writable by the members of group 65534/],
        ] as Spoil[])
      : []),
  ];

  it.each(spoils)("the hook blocks a call when %s (exit 2; a deny in claude mode)", async (_name, spoil, message) => {
    const k = approvalKit();
    const dir = join(k.root, "state");
    expect((await start(k, dir, await approval(k, "a.json"))).code).toBe(0);
    spoil(dir, k);
    const exit = await cli(["guard", "--state-dir", dir, "--no-policy"], { stdin: call(k) });
    expect(exit.code).toBe(2);
    expect(exit.stderr).toMatch(message);
    expect(exit.stderr).toContain("[guard-failure]");
    const claude = await cli(["guard", "--state-dir", dir, "--no-policy", "--output", "claude"], { stdin: call(k) });
    expect(claude.code).toBe(0);
    const answer = JSON.parse(claude.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toMatch(/not private.*\[guard-failure\]/);
  });

  it("the honest run keeps working: a state directory plangate made, in a folder of one's own", async () => {
    const k = approvalKit();
    const dir = join(k.root, "state");
    expect((await start(k, dir, await approval(k, "a.json"))).code).toBe(0);
    expect(statSync(dir).mode & 0o077).toBe(0);
    const r = await cli(["guard", "--state-dir", dir, "--no-policy"], { stdin: call(k) });
    expect(r.code, r.stderr).toBe(0);
    expect((await cli(["guard", "status", "--state-dir", dir])).code).toBe(0);
  });

  it("the honest run keeps working in a folder created 0755 (umask 022) and under a sticky folder", async () => {
    const k = approvalKit();
    const sticky = mk(k.root, "shared", 0o1777);
    const dir = mk(sticky, "state", 0o755);
    expect((await start(k, dir, await approval(k, "a.json"))).code).toBe(0);
    expect((await cli(["guard", "--state-dir", dir, "--no-policy"], { stdin: call(k) })).code).toBe(0);
  });

  it("guard start into such a directory is a usage error (exit 2) and does not use up the approval", async () => {
    const k = approvalKit();
    const dir = mk(k.root, "state", 0o777);
    const a = await approval(k, "a.json");
    const refused = await start(k, dir, a);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/not private: the state directory .* is writable by every user/);
    chmodSync(dir, 0o700);
    const again = await start(k, dir, a);
    expect(again.code, again.stderr).toBe(0);
  });

  it("guard status and stop refuse it too (exit 2)", async () => {
    const k = approvalKit();
    const dir = join(k.root, "state");
    expect((await start(k, dir, await approval(k, "a.json"))).code).toBe(0);
    chmodSync(join(dir, "runs"), 0o777);
    expect((await cli(["guard", "status", "--state-dir", dir])).code).toBe(2);
    expect((await cli(["guard", "stop", "--session", "s1", "--state-dir", dir])).code).toBe(2);
  });

  it("a per-user store of consumed approvals every user can write refuses guard start (exit 2)", async () => {
    const k = approvalKit();
    const consumed = mk(k.root, "consumed", 0o777);
    const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", await approval(k, "a.json"), "--state-dir", join(k.root, "state"), "--trusted-keys", k.keys.publicFile], {
      cwd: k.workspace,
      env: { PLANGATE_CONSUMED_DIR: consumed },
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/store of consumed approvals .*\/consumed is writable by every user/);
  });

  it("the library guard refuses a consumed-approval store every user can write (GuardRefusal, guard-failure)", async () => {
    const k = approvalKit();
    const o = await k.guardOptions();
    const refused = await ExecutionGuard.open({ ...o, consumedDir: mk(k.guardDir, "consumed", 0o777) }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect((refused as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["guard-failure"]);
    expect((refused as GuardRefusal).diagnostics[0]!.message).toMatch(/not private/);
    const guard = await ExecutionGuard.open({ ...o, consumedDir: join(k.guardDir, "c2") });
    expect(guard.next).toBe(0);
  });

  it("the 0.1 state file (guard --state) is refused when others can write it", async () => {
    const k = approvalKit();
    const state = join(k.guardDir, "state.json");
    const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", await approval(k, "a.json"), "--state", state, "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile], { cwd: k.workspace });
    expect(r.code, r.stderr).toBe(0);
    const ok = await cli(["guard", "--state", state], { stdin: call(k) });
    expect(ok.code, ok.stderr).toBe(0);
    chmodSync(state, 0o666);
    const refused = await cli(["guard", "--state", state], { stdin: call(k) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/guard state file .* is writable by every user.*\[guard-failure\]/);
  });
});
