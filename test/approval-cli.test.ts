import { execFileSync } from "node:child_process";
import { readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ExecutionGuard, GuardRefusal } from "../src/node/guard.js";
import { loadPolicy } from "../src/node/policy.js";
import { approvalKit, DEFAULT_POLICY_HASH, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

describe("approval commands read files within a bound", () => {
  // A plan or approval swapped for a device, a pipe or a huge file was read to its end: /dev/zero or a FIFO
  // with no writer hung verify and guard start.
  it("verify and guard start refuse a plan or an approval that is a device or a pipe, at once", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    symlinkSync("/dev/zero", join(k.workspace, "zero.json"));
    execFileSync("mkfifo", [join(k.workspace, "fifo.json")]);
    const base = ["--tools", k.toolsFile, "--trusted-keys", k.keys.publicFile, "-o", "json"];
    for (const [plan, a] of [["zero.json", approval], ["fifo.json", approval], ["plan.json", join(k.workspace, "zero.json")], ["plan.json", join(k.workspace, "fifo.json")]] as const) {
      const v = await cli(["verify", plan, "--approval", a, ...base], { cwd: k.workspace });
      expect(v.code, `verify ${plan} ${a}: ${v.stdout}${v.stderr}`).toBe(1);
      // guard start: a plan it cannot read is refused (exit 1); an approval it cannot read is a usage error.
      const g = await cli(["guard", "start", plan, "--approval", a, ...base, "--state-dir", join(k.guardDir, "state")], { cwd: k.workspace });
      expect(g.code, `guard start ${plan} ${a}: ${g.stdout}${g.stderr}`).toBe(plan === "plan.json" ? 2 : 1);
    }
  }, 20_000);
});

describe("approval commands: flags, output and exit codes", () => {
  it("verify --output json prints one document with the record and the diagnostics", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const ok = await cli(["verify", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--trusted-keys", k.keys.publicFile, "--output", "json"], { cwd: k.workspace });
    expect(ok.code).toBe(0);
    const doc = JSON.parse(ok.stdout);
    expect(doc).toMatchObject({ version: 1, results: [{ file: "plan.json", valid: true, keyid: k.trustedKeys[0]!.keyid, diagnostics: [] }], summary: { files: 1, valid: 1, errors: 0 } });
    expect(doc.results[0].record.status).toBe("approved");
    const bad = await cli(["verify", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--output", "json"], { cwd: k.workspace });
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["approval-untrusted-key"]);
  });
  it("verify takes several plans, each with its own --approval in order: one result per plan in the envelope, SARIF too", async () => {
    const k = approvalKit();
    const second = [{ tool: "read_file", description: "read it again", params: { path: "data.csv" } }];
    const secondText = JSON.stringify(second, null, 2);
    writeFileSync(join(k.workspace, "two.json"), secondText);
    const a1 = join(k.root, "a1.json");
    const a2 = join(k.root, "a2.json");
    writeFileSync(a1, k.sign(await k.record()));
    writeFileSync(a2, k.sign(await k.record({}, { planText: secondText })));
    const base = ["--tools", k.toolsFile, "--trusted-keys", k.keys.publicFile];
    const both = await cli(["verify", "plan.json", "two.json", "--approval", a1, "--approval", a2, ...base, "-o", "json"], { cwd: k.workspace });
    expect(both.code, both.stdout + both.stderr).toBe(0);
    const doc = JSON.parse(both.stdout);
    expect(doc).toMatchObject({ version: 1, summary: { files: 2, valid: 2, errors: 0, warnings: 0 } });
    expect(doc.results.map((r: { file: string; approval: string; valid: boolean }) => [r.file, r.approval, r.valid])).toEqual([
      ["plan.json", a1, true],
      ["two.json", a2, true],
    ]);
    // Swapped: each plan is checked against the other's approval, and both fail, each in its own result.
    const swapped = await cli(["verify", "plan.json", "two.json", "--approval", a2, "--approval", a1, ...base, "-o", "json"], { cwd: k.workspace });
    expect(swapped.code).toBe(1);
    const sd = JSON.parse(swapped.stdout);
    expect(sd.summary).toMatchObject({ files: 2, valid: 0 });
    for (const r of sd.results) expect(r.diagnostics.map((d: { rule: string }) => d.rule)).toContain("approval-plan-mismatch");
    const text = await cli(["verify", "plan.json", "two.json", "--approval", a2, "--approval", a1, ...base], { cwd: k.workspace });
    expect(text.stdout).toMatch(/^plan\.json: error: .*\[approval-plan-mismatch\]/m);
    expect(text.stdout).toMatch(/^two\.json: error: .*\[approval-plan-mismatch\]/m);
    const sarif = JSON.parse((await cli(["verify", "plan.json", "two.json", "--approval", a2, "--approval", a1, ...base, "-o", "sarif"], { cwd: k.workspace })).stdout);
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.map((r: { ruleId: string; locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) => [r.ruleId, r.locations[0]!.physicalLocation.artifactLocation.uri])).toEqual([
      ["approval-plan-mismatch", "plan.json"],
      ["approval-plan-mismatch", "two.json"],
    ]);
  });
  it("approve prints the bare approval record (a DSSE envelope when signed) whatever --output says", async () => {
    const k = approvalKit();
    const base = ["approve", "plan.json", "--tools", k.toolsFile, "--key", k.keys.privateFile];
    for (const out of [[], ["-o", "json"], ["--output", "text"]]) {
      const r = await cli([...base, ...out], { cwd: k.workspace });
      expect(r.code, r.stderr).toBe(0);
      const doc = JSON.parse(r.stdout);
      expect(Object.keys(doc).sort()).toEqual(["payload", "payloadType", "signatures"]);
      expect(doc.payloadType).toBe("application/vnd.plangate.approval+json");
    }
  });
  it("verify refuses an approval count that does not pair one to one with the plans (usage error, exit 2)", async () => {
    const k = approvalKit();
    const a1 = join(k.root, "a1.json");
    writeFileSync(a1, k.sign(await k.record()));
    writeFileSync(join(k.workspace, "two.json"), "[]");
    for (const args of [
      ["verify", "plan.json", "two.json", "--approval", a1],
      ["verify", "plan.json", "--approval", a1, "--approval", a1],
      ["verify", "plan.json", "two.json"],
    ]) {
      const r = await cli([...args, "--trusted-keys", k.keys.publicFile, "-o", "json"], { cwd: k.workspace });
      expect(r.code, args.join(" ")).toBe(2);
      expect(JSON.parse(r.stdout).error.code).toBe("usage");
      expect(r.stderr).toMatch(/--approval/);
    }
  });
  it("audit verify --output sarif reports the broken chain with its rule", async () => {
    const k = approvalKit();
    const log = join(k.guardDir, "none.log");
    const r = await cli(["audit", "verify", log, "-o", "sarif"]);
    expect(r.code).toBe(1);
    const sarif = JSON.parse(r.stdout);
    expect(sarif.runs[0].results.map((x: { ruleId: string }) => x.ruleId)).toEqual(["audit-chain-broken"]);
    const json = JSON.parse((await cli(["audit", "verify", log, "-o", "json"])).stdout);
    expect(json).toMatchObject({ version: 1, results: [{ file: log, valid: false, level: "broken", diagnostics: [{ rule: "audit-chain-broken" }] }], summary: { files: 1, valid: 0, errors: 1 } });
  });
  it("a missing approval or plan file is exit 1; a missing flag or unreadable trusted keys is a usage error", async () => {
    const k = approvalKit();
    const missing = await cli(["verify", "plan.json", "--approval", "nope.json", "--trusted-keys", k.keys.publicFile], { cwd: k.workspace });
    expect(missing.code).toBe(1);
    expect(missing.stdout).toMatch(/\[approval-invalid\]/);
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    expect((await cli(["verify", "gone.json", "--approval", approval, "--trusted-keys", k.keys.publicFile], { cwd: k.workspace })).stdout).toMatch(/file-not-found/);
    expect((await cli(["verify", "plan.json"], { cwd: k.workspace })).code).toBe(2);
    expect((await cli(["verify", "plan.json", "--approval", approval, "--trusted-keys", join(k.root, "no-keys")], { cwd: k.workspace })).code).toBe(2);
  });
  it("guard start refuses a state file inside the workspace and one that exists, before consuming anything", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const args = (state: string) => ["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state", state, "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c")];
    const inside = await cli(args(join(k.workspace, "state.json")), { cwd: k.workspace });
    expect(inside.code).toBe(1);
    expect(inside.stdout).toMatch(/\[guard-failure\]/);
    writeFileSync(join(k.guardDir, "old.json"), "{}");
    expect((await cli(args(join(k.guardDir, "old.json")), { cwd: k.workspace })).code).toBe(1);
    // Neither refusal used up the approval.
    const ok = await cli(args(join(k.guardDir, "state.json")), { cwd: k.workspace });
    expect(ok.stderr).toBe("");
    expect(ok.code).toBe(0);
  });
  it("audit verify: a missing log is exit 1, a missing argument exit 2", async () => {
    const k = approvalKit();
    expect((await cli(["audit", "verify", join(k.guardDir, "none.log")])).code).toBe(1);
    expect((await cli(["audit", "verify"])).code).toBe(2);
  });
  it("guard.maxInputBytes from the policy file is recorded at guard start and bounds the hook's input", async () => {
    const k = approvalKit();
    const policyFile = join(k.root, "policy.yaml");
    writeFileSync(policyFile, "guard:\n  maxInputBytes: 512\n");
    const { hash } = await loadPolicy({ file: policyFile, cwd: k.workspace });
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record({ policy_hash: hash })));
    const state = join(k.guardDir, "state.json");
    const start = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state", state, "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c"), "--policy", policyFile], { cwd: k.workspace });
    expect(start.stdout + start.stderr).toBe(`plan.json: guard started: 3 approved steps, state ${state}\n`);
    expect(JSON.parse(readFileSync(state, "utf8")).max_input_bytes).toBe(512);
    const call = (pad: number) => JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: PLAN[0]!.params, pad: "x".repeat(pad) });
    const over = await cli(["guard", "--state", state], { stdin: call(600) });
    expect([over.code, over.stderr]).toEqual([2, "plangate guard: blocked: the hook input is over 512 bytes (guard.maxInputBytes); it is not read [limit-exceeded]\n"]);
    const under = await cli(["guard", "--state", state], { stdin: call(10) });
    expect([under.code, under.stderr]).toEqual([0, ""]);
  });
  it.each(["0", "-1", "1.5", '"1MB"', "[]"])("guard.maxInputBytes: %s is a usage error", async (v) => {
    const k = approvalKit();
    writeFileSync(join(k.root, "p.yaml"), `guard:\n  maxInputBytes: ${v}\n`);
    const r = await cli(["validate", "plan.json", "--policy", join(k.root, "p.yaml")], { cwd: k.workspace });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/p\.yaml:2:\d+: guard\.maxInputBytes/);
  });

  it("approve and guard start refuse a plan whose tools nothing constrains, until the policy allows * explicitly", async () => {
    const k = approvalKit();
    const key = ["--key", k.keys.privateFile];
    const bare = await cli(["approve", "plan.json", ...key], { cwd: k.workspace });
    expect(bare.code).toBe(1);
    expect(bare.stdout).toContain("error: No tool registry or allow list is in force");
    expect(bare.stdout).toContain("[unknown-tool]");
    expect(bare.stdout).toContain('tools.allow: ["*"]');
    const json = await cli(["approve", "plan.json", ...key, "--output", "json"], { cwd: k.workspace });
    expect(JSON.parse(json.stdout)).toMatchObject({ version: 1, results: [{ valid: false, diagnostics: [{ rule: "unknown-tool", severity: "error" }] }], summary: { valid: 0 } });
    // validate only warns, once.
    const v = await cli(["validate", "plan.json", "--output", "json"], { cwd: k.workspace });
    expect([v.code, JSON.parse(v.stdout).summary.warnings]).toEqual([0, 1]);

    // guard start refuses before consuming the approval; with the registry it was approved with, it starts.
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    const start = (state: string, ...more: string[]) =>
      cli(["guard", "start", "plan.json", ...more, "--approval", approval, "--state", join(k.guardDir, state), "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c")], { cwd: k.workspace });
    const refused = await start("s1.json");
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("[unknown-tool]");
    expect((await start("s2.json", "--tools", k.toolsFile)).code).toBe(0);

    // Saying so in the policy is enough: every tool is then accepted on purpose.
    for (const allow of ['["*"]', "\n    - '*'"]) {
      writeFileSync(join(k.workspace, "plangate.yaml"), `tools:\n  allow: ${allow}\n`);
      const r = await cli(["approve", "plan.json", ...key], { cwd: k.workspace });
      expect(r.code, r.stdout + r.stderr).toBe(0);
    }
    // An empty list is no list: the policy itself is refused (a usage error), it allows nothing by accident.
    writeFileSync(join(k.workspace, "plangate.yaml"), "tools:\n  allow: []\n");
    const empty = await cli(["approve", "plan.json", ...key], { cwd: k.workspace });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain("tools.allow is empty");
  });
  it("the library's guard refuses unconstrained tools too", async () => {
    const k = approvalKit();
    const refused = await ExecutionGuard.open({
      plan: k.planFile,
      approval: k.sign(await k.record()),
      workspace: k.workspace,
      policyHash: DEFAULT_POLICY_HASH,
      trustedKeys: k.trustedKeys,
      consumedDir: join(k.guardDir, "c"),
      audit: join(k.guardDir, "audit.log"),
      now: () => NOW,
    }).catch((e) => e);
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect((refused as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["unknown-tool"]);
  });
});
