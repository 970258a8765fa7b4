import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverPolicy, loadPolicy, PolicyError } from "../src/node/policy.js";
import { cli } from "./cli-io.js";

const root = mkdtempSync(join(tmpdir(), "plangate-policy-"));
mkdirSync(join(root, "a/b/c"), { recursive: true });
mkdirSync(join(root, "a/ws"));
mkdirSync(join(root, "a/elsewhere"));
writeFileSync(join(root, "a/plangate.yaml"), "workspace: ws\ntools:\n  allowFile: tools.txt\n  deny: [rm_rf]\nrules:\n  stale-plan: error\n");
writeFileSync(join(root, "a/tools.txt"), "plot_qc\n");

describe("policy discovery and resolution", () => {
  it("walks up from the working directory", () => {
    expect(discoverPolicy(join(root, "a/b/c"))).toBe(join(root, "a/plangate.yaml"));
  });
  it("resolves relative paths against the policy's folder and extends the default lists", async () => {
    const { policy, tools } = await loadPolicy({ cwd: join(root, "a/b/c") });
    expect(policy.workspace).toBe(join(root, "a/ws"));
    expect(tools?.names.has("plot_qc")).toBe(true);
    expect(policy.tools.deny).toContain("rm_rf");
    expect(policy.tools.deny).toContain("think");
    expect(policy.rules["stale-plan"]).toBe("error");
  });
  it("uses the embedded defaults when there is no file", async () => {
    const empty = mkdtempSync(join(tmpdir(), "plangate-nopolicy-"));
    const { policy, tools } = await loadPolicy({ cwd: empty });
    expect(policy.plan.maxAgeDays).toBe(30);
    expect(policy.workspace).toBe(empty);
    expect(tools).toBeUndefined();
  });
  it("--workspace wins over the policy", async () => {
    const { policy } = await loadPolicy({ cwd: join(root, "a"), workspace: "elsewhere" });
    expect(policy.workspace).toBe(join(root, "a/elsewhere"));
  });
});

describe("an empty tool allow list", () => {
  // `allow: []` reads as "allow nothing", but no list means no constraint: every tool passed with a warning.
  const bad = (name: string, text: string) => {
    writeFileSync(join(root, name), text);
    return join(root, name);
  };
  it("is a usage error with its position, at the top level and in an override", async () => {
    await expect(loadPolicy({ file: bad("ea1.yaml", "tools:\n  allow: []\n"), cwd: root })).rejects.toThrow(/ea1\.yaml:2:10: tools\.allow is empty/);
    await expect(loadPolicy({ file: bad("ea2.yaml", "tools:\n  allow: [read_file]\noverrides:\n  - files: ['legacy/**']\n    tools:\n      allow: []\n"), cwd: root })).rejects.toThrow(/ea2\.yaml:6:14: tools\.allow is empty/);
  });
  it("is accepted beside an allowFile or a registry, which constrain the tools", async () => {
    writeFileSync(join(root, "ea-tools.txt"), "read_file\n");
    await expect(loadPolicy({ file: bad("ea3.yaml", "tools:\n  allow: []\n  allowFile: ea-tools.txt\n"), cwd: root })).resolves.toBeDefined();
  });
});

describe("a setting that would switch a check off", () => {
  it("delegation.sessionTtlSeconds of 0 (every registration would take over a live one) or a fraction is a usage error", async () => {
    for (const [name, value] of [["st0.yaml", "0"], ["st1.yaml", "0.5"], ["st2.yaml", "-1"]] as const) {
      writeFileSync(join(root, name), `delegation:\n  sessionTtlSeconds: ${value}\n`);
      await expect(loadPolicy({ file: join(root, name), cwd: root }), value).rejects.toThrow(/sessionTtlSeconds/);
    }
    writeFileSync(join(root, "st3.yaml"), "delegation:\n  sessionTtlSeconds: 60\n");
    expect((await loadPolicy({ file: join(root, "st3.yaml"), cwd: root })).policy.delegation.sessionTtlSeconds).toBe(60);
  });
});

describe("the workspace must be a folder", () => {
  // Where the workspace is not, no link in it can be followed: every path would pass lexically while the
  // executor, in the real folder, follows links out. A missing or mistyped workspace is a usage error.
  it("refuses a policy whose workspace does not exist, or is a file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-ws-"));
    writeFileSync(join(dir, "plangate.yaml"), "workspace: proj\n");
    await expect(loadPolicy({ cwd: dir })).rejects.toThrow(/plangate\.yaml: the workspace .*proj is not a folder \(it does not exist\)/);
    writeFileSync(join(dir, "proj"), "x");
    await expect(loadPolicy({ cwd: dir })).rejects.toThrow(/the workspace .*proj is not a folder/);
  });
  it("refuses --workspace naming no folder, with or without a policy file", async () => {
    await expect(loadPolicy({ cwd: root, file: false, workspace: "missing-ws" })).rejects.toThrow(/--workspace: the workspace .*missing-ws is not a folder/);
    await expect(loadPolicy({ cwd: join(root, "a"), workspace: "missing-ws" })).rejects.toThrow(PolicyError);
  });
  it("the CLI exits 2 for it", async () => {
    writeFileSync(join(root, "ws-plan.json"), '[{"tool": "a"}]');
    const r = await cli(["validate", join(root, "ws-plan.json"), "--no-policy", "--workspace", join(root, "nowhere")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/is not a folder/);
  });
});

describe("invalid policies", () => {
  const bad = (name: string, text: string) => {
    writeFileSync(join(root, name), text);
    return join(root, name);
  };
  it("reports an unknown key with its position and the closest key", async () => {
    const f = bad("p1.yaml", "plan:\n  maxAgeDay: 3\n");
    await expect(loadPolicy({ file: f, cwd: root })).rejects.toThrow(/p1\.yaml:2:3: unknown key "maxAgeDay".*did you mean "maxAgeDays"/);
  });
  it("reports a wrong type with its position", async () => {
    const f = bad("p2.yaml", "plan:\n  maxAgeDays: soon\n");
    await expect(loadPolicy({ file: f, cwd: root })).rejects.toThrow(/p2\.yaml:2:15/);
  });
  it("reports an unknown rule id", async () => {
    const f = bad("p3.yaml", "rules:\n  stale-plans: off\n");
    await expect(loadPolicy({ file: f, cwd: root })).rejects.toThrow(PolicyError);
  });
  it("reports malformed YAML", async () => {
    const f = bad("p4.yaml", "plan: [\n");
    await expect(loadPolicy({ file: f, cwd: root })).rejects.toThrow(/p4\.yaml:\d+:\d+/);
  });
  it("the CLI exits 2 for an invalid or missing policy", async () => {
    writeFileSync(join(root, "plan.json"), '[{"tool": "a"}]');
    const r = await cli(["validate", "plan.json", "--policy", "p1.yaml"], { cwd: root });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("p1.yaml:2:3");
    expect((await cli(["validate", "plan.json", "--policy", "none.yaml"], { cwd: root })).code).toBe(2);
  });
  it("refuses a protected glob with several runs of unknown length that cannot be matched in linear time, and takes one that can", async () => {
    await expect(loadPolicy({ file: bad("pg1.yaml", "paths:\n  protected:\n    - '**/*.pem'\n    - '**/+(a|b)*c*'\n"), cwd: root })).rejects.toThrow(
      /pg1\.yaml:4:7: the protected glob "\*\*\/\+\(a\|b\)\*c\*" has several runs of unknown length .*extglobs/,
    );
    await expect(loadPolicy({ file: bad("pg2.yaml", "overrides:\n  - files: ['*.yaml']\n    paths:\n      protected: ['**/a/**/[[:alpha:]]']\n"), cwd: root })).rejects.toThrow(/pg2\.yaml:4:19: the protected glob/);
    // picomatch reads "|" as two globs (".pem" files under x/ too): RE2 would read a letter.
    await expect(loadPolicy({ file: bad("pg4.yaml", "paths:\n  protected: ['**/a/**/b/**/c|**/*.pem']\n"), cwd: root })).rejects.toThrow(/pg4\.yaml:2:15: the protected glob .*"\|"/);
    // Groups of alternatives that can match the same text multiply the ways picomatch tries: two brace
    // groups go to RE2 (which expands them), a repeated extglob is refused (`{a,a}` 24 times: 0.8 s a path).
    await expect(loadPolicy({ file: bad("pg5.yaml", "paths:\n  protected: ['**/+(a|aa)b']\n"), cwd: root })).rejects.toThrow(/pg5\.yaml:2:15: the protected glob .*brace groups or an extglob.*extglobs/);
    await expect(loadPolicy({ file: bad("pg6.yaml", `paths:\n  protected: ['${"{a,a}".repeat(40)}b']\n`), cwd: root })).rejects.toThrow(/its braces spell over 64 globs/);
    writeFileSync(join(root, "pg3.yaml"), "paths:\n  protected: ['**/*secret*key*', '/etc/**/a/**/b', '**/@(a|b).pem', '**/*.{pem,key}', 'x/{a,b}/{c,d}.txt']\n");
    expect((await loadPolicy({ file: join(root, "pg3.yaml"), cwd: root })).policy.paths.protected).toContain("**/*secret*key*");
  });
  // A protected glob that matches nothing by a slip of spelling protects nothing: refused, with what to write.
  it.each([
    ["secrets/", /"secrets\/" ends with "\/", so it matches no path: write "secrets"/],
    ["secrets\\\\*", /holds a backslash/],
    [" secrets/**", /begins or ends with white space/],
    ["secrets/** ", /begins or ends with white space/],
    ["secrets//**", /has an empty or "\." folder name/],
    ["secrets/./**", /has an empty or "\." folder name/],
  ])("refuses the protected glob %j (exit 2), at the top level and in an override", async (glob, message) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-protect-slip-"));
    writeFileSync(join(dir, "p.json"), JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: "secrets/a.txt", content: "x" }, intent: "Edit" }] }));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\npaths:\n  protected: ["${glob}"]\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:4:15: the protected glob .*${message.source}`));
    expect((await cli(["validate", "p.json"], { cwd: dir })).code).toBe(2);
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\noverrides:\n  - files: ["*.json"]\n    paths:\n      protected: ["${glob}"]\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:6:19: the protected glob .*${message.source}`));
  });
  it.each([
    // A name without wildcards protects the path and everything in it, as a folder's name reads.
    ["secrets", "secrets/a.txt", 1],
    ["./secrets", "secrets/deep/a.txt", 1],
    ["config/prod", "config/prod/db.yaml", 1],
    ["secrets", "secrets", 1],
    ["secrets/**", "secrets/a.txt", 1],
    ["secrets/*", "secrets/a.txt", 1],
    ["**/secrets/**", "x/secrets/a.txt", 1],
    ["secrets/a.txt", "secrets/a.txt", 1],
    // Honest neighbours stay writable.
    ["secrets", "secrets-old/a.txt", 0],
    ["secrets", "docs/secrets.md", 0],
    ["secrets/*.txt", "secrets/a.md", 0],
  ])("the protected glob %j and a write to %j: exit %i", async (glob, path, code) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-protect-name-"));
    writeFileSync(join(dir, "p.json"), JSON.stringify({ steps: [{ tool: "write_file", arguments: { path, content: "x" }, intent: "Edit" }] }));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\npaths:\n  protected: ["${glob}"]\n`);
    const r = await cli(["validate", "p.json"], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(code);
    if (code === 1) expect(r.stdout).toContain("[protected-path-write]");
  });
  // A program is matched by its name wherever it lies: an entry naming it by a path matches nothing.
  it.each([
    ["deny", "/bin/rm", "rm"],
    ["deny", "/bin/rm -rf", "rm -rf"],
    ["deny", "./scripts/deploy.sh", "deploy.sh"],
    ["allow", "/usr/bin/make test", "make test"],
  ])("refuses commands.%s entry %j (exit 2), naming %j, at the top level and in an override", async (list, entry, name) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-command-entry-"));
    writeFileSync(join(dir, "p.json"), JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "rm -rf build" }, intent: "Clean" }] }));
    const expected = new RegExp(`the commands\\.${list} entry "${entry.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}" names its program by a path.*write "${name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}"`);
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\ncommands:\n  ${list}: ["${entry}"]\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:4:`));
    const r = await cli(["validate", "p.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(expected);
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\noverrides:\n  - files: ["*.json"]\n    commands:\n      ${list}: ["${entry}"]\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(expected);
  });
  it.each([
    ["deny", "rm", "rm -rf build", 1],
    ["deny", "rm", "/bin/rm -rf build", 1],
    ["deny", "git push", "git -C x push", 1],
    ["deny", "curl", "rm -rf build", 0],
    ["allow", "make test", "make test", 0],
    ["allow", "make test", "/usr/bin/make test", 0],
  ])("commands.%s [%j] and the command %j: exit %i", async (list, entry, command, code) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-command-entry-"));
    writeFileSync(join(dir, "p.json"), JSON.stringify({ steps: [{ tool: "run_command", arguments: { command }, intent: "Run it" }] }));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\ncommands:\n  ${list}: ["${entry}"]\n`);
    const r = await cli(["validate", "p.json"], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(code);
    if (code === 1) expect(r.stdout).toContain("[disallowed-tool]");
  });
  it("paths.unprotect lets writers touch default protected globs, for every plan or for some plan files, and names no other glob", async () => {
    const { policyForFile } = await import("../src/node/policy.js");
    const { validateFile } = await import("../src/node/api.js");
    const dir = mkdtempSync(join(tmpdir(), "plangate-unprotect-"));
    mkdirSync(join(dir, "plans/ci"), { recursive: true });
    const write = (path: string) => JSON.stringify({ steps: [{ tool: "write_file", arguments: { path, content: "x" }, intent: "Edit" }] });
    writeFileSync(join(dir, "plans/a.json"), write(".github/workflows/ci.yml"));
    writeFileSync(join(dir, "plans/ci/a.json"), write(".github/workflows/ci.yml"));
    writeFileSync(join(dir, "plans/b.json"), write(".vscode/settings.json"));
    writeFileSync(
      join(dir, "plangate.yaml"),
      "paths:\n  unprotect: ['**/.vscode/settings.json']\noverrides:\n  - files: ['plans/ci/**']\n    paths:\n      unprotect: ['.github/workflows/**']\n",
    );
    const loaded = await loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir });
    expect(loaded.policy.paths.protected).not.toContain("**/.vscode/settings.json");
    expect(loaded.policy.paths.protected).toContain(".github/workflows/**");
    expect(policyForFile(loaded.policy, join(dir, "plans/ci/a.json")).paths.protected).not.toContain(".github/workflows/**");
    const rules = async (f: string) => (await validateFile(join(dir, f), loaded)).diagnostics.map((d) => d.rule);
    expect(await rules("plans/a.json")).toContain("protected-path-write");
    expect(await rules("plans/ci/a.json")).not.toContain("protected-path-write");
    expect(await rules("plans/b.json")).not.toContain("protected-path-write");
    // The policy's hash says what was unprotected.
    const plain = await loadPolicy({ file: false, cwd: dir });
    expect(loaded.hash).not.toBe(plain.hash);
    // A glob that is not a default, spelt otherwise, is refused where it is written, with the default it may mean.
    await expect(loadPolicy({ file: bad("up1.yaml", "paths:\n  unprotect: ['.github/workflows/*']\n"), cwd: root })).rejects.toThrow(
      /up1\.yaml:2:15: "\.github\/workflows\/\*" is not a default protected glob.*did you mean "\.github\/workflows\/\*\*"/,
    );
    await expect(loadPolicy({ file: bad("up2.yaml", "overrides:\n  - files: ['*.json']\n    paths:\n      unprotect: ['secrets/**']\n"), cwd: root })).rejects.toThrow(/up2\.yaml:4:19: "secrets\/\*\*" is not a default protected glob/);
    await expect(loadPolicy({ file: bad("up3.yaml", "paths:\n  unprotect: '.mcp.json'\n"), cwd: root })).rejects.toThrow(PolicyError);
    rmSync(dir, { recursive: true, force: true });
  });
  it("names the executor's YAML parser: pyyaml by default, yaml-1.2 turns the YAML 1.1 refusals off", async () => {
    const empty = mkdtempSync(join(tmpdir(), "plangate-nopolicy-"));
    expect((await loadPolicy({ cwd: empty })).policy.yaml.executor).toBe("pyyaml");
    writeFileSync(join(root, "y12.yaml"), "yaml:\n  executor: yaml-1.2\n");
    expect((await loadPolicy({ file: join(root, "y12.yaml"), cwd: root })).policy.yaml.executor).toBe("yaml-1.2");
    writeFileSync(join(root, "ygo.yaml"), "yaml:\n  executor: go-yaml-v2\n");
    expect((await loadPolicy({ file: join(root, "ygo.yaml"), cwd: root })).policy.yaml.executor).toBe("go-yaml-v2");
    await expect(loadPolicy({ file: bad("y13.yaml", "yaml:\n  executor: ruamel\n"), cwd: root })).rejects.toThrow(/y13\.yaml:2:13: yaml\.executor/);
    await expect(loadPolicy({ file: bad("y14.yaml", "yaml:\n  exec: pyyaml\n"), cwd: root })).rejects.toThrow(/y14\.yaml:2:3: unknown key "exec" in yaml \(known: executor\)/);
    writeFileSync(join(root, "on.yaml"), "steps:\n  - tool: read_file\n    arguments: {path: a.txt, mode: on}\n    intent: read\n");
    const py = await cli(["validate", "on.yaml", "--output", "json"], { cwd: root });
    expect(py.code).toBe(1);
    const d = JSON.parse(py.stdout).results[0].diagnostics.find((x: { rule: string }) => x.rule === "unsafe-value");
    expect(d).toMatchObject({ line: 3, column: 36, endColumn: 38, pointer: "/steps/0/arguments/mode" });
    const y12 = await cli(["validate", "on.yaml", "--policy", "y12.yaml", "--output", "json"], { cwd: root });
    expect(JSON.parse(y12.stdout).results[0].diagnostics.map((x: { rule: string }) => x.rule)).not.toContain("unsafe-value");
  });
  it("the policy's severities apply", async () => {
    writeFileSync(join(root, "sev.yaml"), "rules:\n  unknown-key: warning\n");
    writeFileSync(join(root, "k.json"), '[{"tool": "a", "extra": 1}]');
    expect((await cli(["validate", "k.json", "--policy", "sev.yaml"], { cwd: root })).code).toBe(0);
    writeFileSync(join(root, "off.yaml"), "rules:\n  unknown-key: 'off'\n");
    const r = await cli(["validate", "k.json", "--policy", "off.yaml", "--output", "json"], { cwd: root });
    expect(JSON.parse(r.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule)).not.toContain("unknown-key");
  });
});

describe("discovery stops at the project root", () => {
  /** root/plangate.yaml above root/repo (with .git as `kind`), and a plan in root/repo/sub. */
  function layout(kind: "dir" | "file") {
    const base = mkdtempSync(join(tmpdir(), "plangate-discover-"));
    mkdirSync(join(base, "repo/sub/deeper"), { recursive: true });
    writeFileSync(join(base, "plangate.yaml"), "rules:\n  unknown-key: 'off'\n");
    if (kind === "dir") mkdirSync(join(base, "repo/.git"));
    else writeFileSync(join(base, "repo/.git"), "gitdir: /elsewhere/.git/worktrees/repo\n");
    writeFileSync(join(base, "repo/sub/plan.json"), '[{"tool": "a", "extra": 1}]');
    return base;
  }
  it.each(["dir", "file"] as const)("does not go above the folder holding .git (a %s)", async (kind) => {
    const base = layout(kind);
    expect(discoverPolicy(join(base, "repo/sub/deeper"))).toBeUndefined();
    expect(discoverPolicy(join(base, "repo"))).toBeUndefined();
    // The policy above the repository is not applied: unknown-key stays an error.
    const r = await cli(["validate", "plan.json", "--output", "json"], { cwd: join(base, "repo/sub") });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).policy).toBeNull();
    // Outside the repository (the same tree without .git) it is found as before.
    rmSync(join(base, "repo/.git"), { recursive: true });
    expect(discoverPolicy(join(base, "repo/sub/deeper"))).toBe(join(base, "plangate.yaml"));
  });
  it("finds a policy in the folder that holds .git, and in a folder between", () => {
    const base = layout("dir");
    writeFileSync(join(base, "repo/plangate.json"), "{}");
    expect(discoverPolicy(join(base, "repo/sub/deeper"))).toBe(join(base, "repo/plangate.json"));
    writeFileSync(join(base, "repo/sub/.plangate.yml"), "{}\n");
    expect(discoverPolicy(join(base, "repo/sub/deeper"))).toBe(join(base, "repo/sub/.plangate.yml"));
  });
  it("stops at a nested repository's root (a submodule)", () => {
    const base = layout("dir");
    writeFileSync(join(base, "repo/plangate.yaml"), "{}\n");
    mkdirSync(join(base, "repo/sub/.git"));
    expect(discoverPolicy(join(base, "repo/sub/deeper"))).toBeUndefined();
  });
  it.each(["plangate.yaml", ".plangate.yaml", "plangate.yml", ".plangate.yml", "plangate.json"])("discovers %s", (name) => {
    const base = mkdtempSync(join(tmpdir(), "plangate-names-"));
    mkdirSync(join(base, ".git"));
    mkdirSync(join(base, "x"));
    writeFileSync(join(base, name), "{}\n");
    expect(discoverPolicy(join(base, "x"))).toBe(join(base, name));
  });
  it("refuses two policy files in one folder (exit 2), and ignores a folder named like one", async () => {
    const base = mkdtempSync(join(tmpdir(), "plangate-two-"));
    mkdirSync(join(base, ".git"));
    writeFileSync(join(base, "plangate.yaml"), "{}\n");
    writeFileSync(join(base, "plangate.json"), "{}");
    expect(() => discoverPolicy(base)).toThrow(/two policy files in one folder/);
    writeFileSync(join(base, "plan.json"), '[{"tool": "a"}]');
    const r = await cli(["validate", "plan.json", "-o", "json"], { cwd: base });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "usage", message: expect.stringMatching(/two policy files/) });
    // --policy and --no-policy settle it.
    expect((await cli(["validate", "plan.json", "--policy", "plangate.yaml"], { cwd: base })).code).toBe(0);
    expect((await cli(["validate", "plan.json", "--no-policy"], { cwd: base })).code).toBe(0);
    const dirs = mkdtempSync(join(tmpdir(), "plangate-dirname-"));
    mkdirSync(join(dirs, ".git"));
    mkdirSync(join(dirs, "plangate.yaml"));
    expect(discoverPolicy(dirs)).toBeUndefined();
  });
});

describe("reports name the policy used; --no-policy", () => {
  const base = mkdtempSync(join(tmpdir(), "plangate-named-"));
  mkdirSync(join(base, ".git"));
  mkdirSync(join(base, "sub"));
  writeFileSync(join(base, "plangate.yaml"), "rules:\n  unknown-key: 'off'\n");
  writeFileSync(join(base, "other.yaml"), "rules:\n  unknown-key: warning\n");
  writeFileSync(join(base, "k.json"), '[{"tool": "a", "extra": 1}]');
  it("text and JSON name the discovered file", async () => {
    const t = await cli(["validate", "k.json"], { cwd: base });
    expect(t.code).toBe(0);
    expect(t.stdout).toMatch(/\nPolicy: plangate\.yaml\.\n$/);
    const j = await cli(["validate", "k.json", "--output", "json"], { cwd: base });
    expect(JSON.parse(j.stdout).policy).toBe(join(base, "plangate.yaml"));
    // From a subfolder the path is shown relative to where it is not inside: absolute.
    const sub = await cli(["validate", "../k.json"], { cwd: join(base, "sub") });
    expect(sub.stdout).toContain(`Policy: ${join(base, "plangate.yaml")}.`);
  });
  it("text and JSON name a --policy file", async () => {
    expect((await cli(["validate", "k.json", "--policy", "other.yaml"], { cwd: base })).stdout).toMatch(/Policy: other\.yaml\./);
    expect(JSON.parse((await cli(["validate", "k.json", "--policy", "other.yaml", "-o", "json"], { cwd: base })).stdout).policy).toBe(join(base, "other.yaml"));
  });
  it("--no-policy uses the defaults and says so", async () => {
    const t = await cli(["validate", "k.json", "--no-policy"], { cwd: base });
    expect(t.code).toBe(1);
    expect(t.stdout).toMatch(/\[unknown-key\][\s\S]*Policy: none \(built-in defaults\)\.\n$/);
    const j = await cli(["validate", "k.json", "--no-policy", "--output", "json"], { cwd: base });
    expect(JSON.parse(j.stdout)).toMatchObject({ version: 1, policy: null });
    for (const cmd of [["approve", "k.json"], ["check-return", "-"], ["check-task", "1"], ["check-delegation"], ["verify", "k.json"]])
      expect((await cli([...cmd, "--no-policy", "--help"], { cwd: base })).stdout).toContain("--no-policy");
  });
});

describe("the structural rules cannot be lowered", () => {
  const STRUCTURAL = ["parse-error", "unknown-format", "duplicate-key", "limit-exceeded", "unsafe-value"];
  const cases = STRUCTURAL.flatMap((id) => ["off", "warning", "info"].map((sev) => [id, sev] as const));
  it.each(cases)("rules: %s: %s is a usage error with its position", async (id, sev) => {
    const f = join(root, `s-${id}-${sev}.yaml`);
    writeFileSync(f, `plan:\n  maxAgeDays: 3\nrules:\n  ${id}: '${sev}'\n`);
    await expect(loadPolicy({ file: f, cwd: root })).rejects.toThrow(new RegExp(`s-${id}-${sev}\\.yaml:4:3: "${id}" cannot be set to "${sev}"`));
    const r = await cli(["validate", "plan.json", "--policy", f], { cwd: root });
    expect(r.code).toBe(2);
  });
  it.each(STRUCTURAL)("rules: %s: error is accepted (it changes nothing)", async (id) => {
    const f = join(root, `e-${id}.yaml`);
    writeFileSync(f, `rules:\n  ${id}: error\n`);
    await expect(loadPolicy({ file: f, cwd: root })).resolves.toBeTruthy();
  });
  it("a Policy object built in code that switches them off is overruled", async () => {
    const { validatePlan } = await import("../src/node/validate-plan.js");
    const { defaultPolicy } = await import("../src/policy/defaults.js");
    const policy = defaultPolicy("/workspace");
    for (const id of STRUCTURAL) policy.rules[id] = "off";
    const dup = await validatePlan('[{"tool": "a", "tool": "b"}]', { file: "p.json", policy });
    expect(dup.diagnostics.map((d) => [d.rule, d.severity])).toContainEqual(["duplicate-key", "error"]);
    expect(dup.valid).toBe(false);
    const broken = await validatePlan("[{", { file: "p.json", policy });
    expect(broken.diagnostics.map((d) => [d.rule, d.severity])).toContainEqual(["parse-error", "error"]);
    const twoWays = await validatePlan('[{"tool": "a", "params": {"n": 9007199254740993}}]', { file: "p.json", policy });
    expect(twoWays.diagnostics.map((d) => [d.rule, d.severity])).toContainEqual(["unsafe-value", "error"]);
    expect(twoWays.valid).toBe(false);
  });
  it.each([
    ["off", "pyyaml", 2, "unsafe-value"],
    ["warning", "pyyaml", 2, "unsafe-value"],
    // The honest way to accept YAML 1.2 values: name the executor's reader.
    [undefined, "yaml-1.2", 0, undefined],
  ] as const)("a YAML 1.1 boolean with unsafe-value: %s, yaml.executor: %s exits %i", async (sev, executor, code, rule) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-unsafe-"));
    writeFileSync(join(dir, "plan.yaml"), "steps:\n  - tool: read_file\n    intent: read it\n    arguments:\n      path: in.txt\n      follow: no\n");
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: [read_file]\nyaml:\n  executor: ${executor}\n${sev ? `rules:\n  unsafe-value: ${sev}\n` : ""}`);
    const r = await cli(["validate", "plan.yaml"], { cwd: dir });
    expect(r.code).toBe(code);
    if (rule) expect(r.stderr).toContain(`"${rule}" cannot be set to "${sev}"`);
  });
  // Lowered, a plan could rewrite the guard's hook configuration, git hooks or the policy itself.
  it.each(["off", "warning", "info"])("rules: protected-path-write: %s is a usage error pointing at paths.unprotect, at the top level and in an override", async (sev) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-protection-"));
    writeFileSync(join(dir, "p.json"), JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: ".claude/settings.json", content: "{}" }, intent: "Edit" }] }));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\nrules:\n  protected-path-write: '${sev}'\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:4:3: "protected-path-write" cannot be set to "${sev}": .*paths\\.unprotect`));
    const r = await cli(["validate", "p.json"], { cwd: dir });
    expect(r.code).toBe(2);
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\noverrides:\n  - files: ["*.json"]\n    rules:\n      protected-path-write: '${sev}'\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(/plangate\.yaml:6:7: "protected-path-write" cannot be set/);
  });
  // Each protection is always an error, and the message names its narrow way out.
  it.each([
    ["path-outside-workspace", "off", /a plan could then read or write any file the executor can.*make the policy's workspace a folder that holds it.*commands\.installOutside/],
    ["path-outside-workspace", "warning", /"path-outside-workspace" cannot be set to "warning"/],
    ["scope-mismatch", "info", /declare a scope outside the workspace.*make the policy's workspace that folder/],
    ["disallowed-tool", "off", /denied tools and programs.*tools\.deny or commands\.deny.*commands\.inlineCode/],
    ["unknown-tool", "warning", /outside the allow list.*tools\.allow: \["\*"\]/],
    ["argument-constraint", "off", /constraint object.*plan\.constraints: allow.*plan\.allowOpenArguments: true/],
    ["hash-mismatch", "off", /--expected-hash would then check nothing.*leave --expected-hash out/],
  ])("rules: %s: %s is a usage error naming the way out, at the top level and in an override", async (rule, sev, message) => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-protection-"));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\nrules:\n  ${rule}: '${sev}'\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:4:3: "${rule}" cannot be set to "${sev}": `));
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(message);
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\noverrides:\n  - files: ["*.json"]\n    rules:\n      ${rule}: '${sev}'\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(new RegExp(`plangate\\.yaml:6:7: "${rule}" cannot be set`));
    writeFileSync(join(dir, "plangate.yaml"), `tools:\n  allow: ["*"]\nrules:\n  ${rule}: error\n`);
    await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).resolves.toBeDefined();
  });
  it("a Policy object built in code that switches path-outside-workspace or disallowed-tool off is overruled, at validation and when a call is made", async () => {
    const { validatePlan } = await import("../src/node/validate-plan.js");
    const { defaultPolicy } = await import("../src/policy/defaults.js");
    const { callPathProblem } = await import("../src/approval/call-paths.js");
    const { createFileProbe } = await import("../src/node/file-probe.js");
    const ws = mkdtempSync(join(tmpdir(), "plangate-protection-"));
    const policy = defaultPolicy(ws);
    policy.tools.allow = ["*"];
    policy.rules["path-outside-workspace"] = "off";
    policy.rules["disallowed-tool"] = "off";
    const plan = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "/etc/passwd" }, intent: "Read" }, { tool: "think", arguments: {}, intent: "Think" }] });
    const report = await validatePlan(plan, { file: join(ws, "p.json"), policy, workspace: ws });
    expect(report.diagnostics.map((d) => [d.rule, d.severity])).toEqual(expect.arrayContaining([["path-outside-workspace", "error"], ["disallowed-tool", "error"]]));
    expect(report.valid).toBe(false);
    expect((await callPathProblem(1, "read_file", { path: "/etc/passwd" }, { workspace: ws, policy }, createFileProbe))?.rule).toBe("path-outside-workspace");
  });
  it("rules: protected-path-write: error is accepted; paths.unprotect still lifts one default glob for some plans", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-protection-"));
    mkdirSync(join(dir, "plans/ci"), { recursive: true });
    const write = (path: string) => JSON.stringify({ steps: [{ tool: "write_file", arguments: { path, content: "x" }, intent: "Edit" }] });
    writeFileSync(join(dir, "plans/ci/a.json"), write(".github/workflows/ci.yml"));
    writeFileSync(join(dir, "plans/ci/b.json"), write(".claude/settings.json"));
    writeFileSync(join(dir, "plangate.yaml"), 'tools:\n  allow: ["*"]\nrules:\n  protected-path-write: error\noverrides:\n  - files: ["plans/ci/**"]\n    paths:\n      unprotect: [".github/workflows/**"]\n');
    expect((await cli(["validate", "plans/ci/a.json"], { cwd: dir })).code).toBe(0);
    const b = await cli(["validate", "plans/ci/b.json"], { cwd: dir });
    expect(b.code).toBe(1);
    expect(b.stdout).toContain("[protected-path-write]");
  });
  it("a Policy object built in code that lowers protected-path-write is overruled, at validation and when a call is made", async () => {
    const { validatePlan } = await import("../src/node/validate-plan.js");
    const { defaultPolicy } = await import("../src/policy/defaults.js");
    const { callPathProblem } = await import("../src/approval/call-paths.js");
    const { createFileProbe } = await import("../src/node/file-probe.js");
    const ws = mkdtempSync(join(tmpdir(), "plangate-protection-"));
    const policy = defaultPolicy(ws);
    policy.tools.allow = ["*"];
    policy.rules["protected-path-write"] = "off";
    const plan = JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: ".git/hooks/pre-commit", content: "x" }, intent: "Edit" }] });
    const report = await validatePlan(plan, { file: join(ws, "p.json"), policy, workspace: ws });
    expect(report.diagnostics.map((d) => [d.rule, d.severity])).toContainEqual(["protected-path-write", "error"]);
    expect(report.valid).toBe(false);
    const atCall = await callPathProblem(1, "write_file", { path: ".git/hooks/pre-commit", content: "x" }, { workspace: ws, policy }, createFileProbe);
    expect(atCall?.rule).toBe("protected-path-write");
  });
  it.each(["plangate.yml", "sub/plangate.yaml", "sub/.plangate.yml", "plangate.json", "a/b/.plangate.yaml"])("a plan may not write a policy file (%s)", async (path) => {
    const { validatePlan } = await import("../src/node/validate-plan.js");
    const { defaultPolicy } = await import("../src/policy/defaults.js");
    const ws = mkdtempSync(join(tmpdir(), "plangate-protect-"));
    const plan = JSON.stringify({ steps: [{ tool: "write_file", arguments: { path, content: "rules: {}" }, intent: "loosen the policy" }] });
    const r = await validatePlan(plan, { file: "plan.json", workspace: ws, policy: defaultPolicy(ws) });
    expect(r.diagnostics.map((d) => d.rule)).toContain("protected-path-write");
  });
});

describe("argument constraint policy keys", () => {
  const dir = mkdtempSync(join(tmpdir(), "plangate-policy-constraints-"));
  it("defaults to refusing constraints and open arguments", async () => {
    const { policy } = await loadPolicy({ file: false, cwd: dir });
    expect(policy.plan).toMatchObject({ constraints: "refuse", allowOpenArguments: false });
  });
  it("reads plan.constraints and plan.allowOpenArguments, and refuses other values", async () => {
    writeFileSync(join(dir, "plangate.yaml"), "plan:\n  constraints: allow\n  allowOpenArguments: true\n");
    expect((await loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).policy.plan).toMatchObject({ constraints: "allow", allowOpenArguments: true });
    for (const bad of ["constraints: maybe", "constraints: true", "allowOpenArguments: yes please"]) {
      writeFileSync(join(dir, "plangate.yaml"), `plan:\n  ${bad}\n`);
      await expect(loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir })).rejects.toThrow(PolicyError);
    }
  });
});

// A policy found walking up (not named) decides what passes: one another user could have written is refused.
describe.skipIf(process.getuid === undefined)("a discovered policy another user could have written", () => {
  const isRoot = process.getuid?.() === 0;
  const plan = JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: "a.txt", content: "x" }, intent: "Write" }] });
  type Spoil = [name: string, spoil: (file: string) => void, message: RegExp];
  const spoils: Spoil[] = [
    ["writable by every user", (f) => chmodSync(f, 0o666), /the policy file .*plangate\.yaml is writable by every user \(mode 0666\)/],
    ...(isRoot
      ? ([
          ["owned by another user", (f) => chownSync(f, 65534, statSync(f).gid), /the policy file .*plangate\.yaml is owned by user 65534/],
          ["group-writable by another group", (f) => (chownSync(f, 0, 65534), chmodSync(f, 0o664)), /writable by the members of group 65534/],
        ] as Spoil[])
      : []),
  ];
  it.each(spoils)("validate refuses a policy found above the plan that is %s (exit 2); --policy names it on purpose", async (_name, spoil, message) => {
    const top = mkdtempSync(join(tmpdir(), "plangate-found-"));
    mkdirSync(join(top, "project", "plans"), { recursive: true });
    writeFileSync(join(top, "plangate.yaml"), 'tools:\n  allow: ["*"]\n');
    writeFileSync(join(top, "project", "plans", "p.json"), plan);
    spoil(join(top, "plangate.yaml"));
    const r = await cli(["validate", "plans/p.json"], { cwd: join(top, "project") });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).toMatch(/found walking up from .*: pass --policy FILE to use it anyway, or --no-policy/);
    await expect(loadPolicy({ cwd: join(top, "project") })).rejects.toThrow(PolicyError);
    const named = await cli(["validate", "plans/p.json", "--policy", join(top, "plangate.yaml")], { cwd: join(top, "project") });
    expect(named.code, named.stderr).toBe(0);
    const none = await cli(["validate", "plans/p.json", "--no-policy"], { cwd: join(top, "project") });
    expect([none.code, none.stdout]).toEqual([0, expect.stringContaining("Policy: none (built-in defaults).")]);
  });
  it("an own policy file found walking up, mode 0644 (or 0664 for the user's own group), is used as before", async () => {
    for (const mode of [0o644, 0o664, 0o600]) {
      const top = mkdtempSync(join(tmpdir(), "plangate-found-"));
      mkdirSync(join(top, "project", "plans"), { recursive: true });
      writeFileSync(join(top, "plangate.yaml"), 'tools:\n  allow: ["*"]\n');
      chmodSync(join(top, "plangate.yaml"), mode);
      writeFileSync(join(top, "project", "plans", "p.json"), plan);
      const r = await cli(["validate", "plans/p.json"], { cwd: join(top, "project") });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain(`Policy: ${join(top, "plangate.yaml")}.`);
    }
  });
});
