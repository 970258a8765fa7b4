import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_EXTENDS_DEPTH, MAX_PROTECTED_GLOBS, policyForFile } from "../src/node/policy.js";
import { DEFAULT_PROTECTED_PATHS } from "../src/policy/defaults.js";
import { validateFile } from "../src/node/api.js";
import { cli } from "./cli-io.js";
import { loadPolicyIn, policyRefusal } from "./helpers.js";

/** A fresh folder with the given files (paths relative to it; parents made). */
function tree(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), "plangate-extends-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const load = (root: string, file = "plangate.yaml") => loadPolicyIn(root, file);
const refusal = (root: string, file = "plangate.yaml") => policyRefusal(root, file);

describe("policy extends", () => {
  it("merges bases in order under the file: later wins, lists merge as over the defaults, paths resolve in each file's folder", async () => {
    const root = tree({
      "shared/base.yaml": "workspace: ../ws\ntools:\n  allow: [read_file]\n  deny: [rm_rf]\n  allowFile: tools.txt\nplan:\n  maxAgeDays: 7\nrules:\n  stale-plan: error\n  unknown-key: warning\n",
      "shared/tools.txt": "plot_qc\n",
      "shared/more.yaml": "tools:\n  deny: [curl]\ncommands:\n  deny: [rm]\n",
      "plangate.yaml": "extends: [shared/base.yaml, shared/more.yaml]\nplan:\n  maxAgeDays: 3\nrules:\n  unknown-key: error\n",
      "ws/.keep": "",
    });
    const { policy, tools } = await load(root);
    expect(policy.workspace).toBe(join(root, "ws"));
    expect(policy.tools.allow).toEqual(["read_file"]);
    expect(policy.tools.allowFile).toBe(join(root, "shared/tools.txt"));
    expect(tools?.names.has("plot_qc")).toBe(true);
    expect(policy.tools.deny).toEqual(expect.arrayContaining(["think", "rm_rf", "curl"]));
    expect(policy.commands.deny).toEqual(["rm"]);
    expect(policy.plan.maxAgeDays).toBe(3);
    expect(policy.rules).toEqual({ "stale-plan": "error", "unknown-key": "error" });
  });

  it("a package as a base: its package.json `plangate` file, else its plangate.yaml, found as Node finds packages", async () => {
    const root = tree({
      "node_modules/plangate-config-strict/package.json": JSON.stringify({ name: "plangate-config-strict", plangate: "policy/strict.yaml" }),
      "node_modules/plangate-config-strict/policy/strict.yaml": "plan:\n  maxAgeDays: 3\n",
      "node_modules/@org/plangate-config/package.json": JSON.stringify({ name: "@org/plangate-config" }),
      "node_modules/@org/plangate-config/plangate.yaml": "commands:\n  deny: [curl]\n",
      "project/plangate.yaml": "extends: [plangate-config-strict, \"@org/plangate-config\"]\nrules:\n  stale-plan: error\n",
    });
    const { policy } = await load(join(root, "project"));
    expect(policy.plan.maxAgeDays).toBe(3);
    expect(policy.commands.deny).toContain("curl");
    expect(policy.rules["stale-plan"]).toBe("error");
  });

  it("refuses a package that is not installed, a name that is neither a file nor a package, and a package policy outside the package", async () => {
    const missing = tree({ "plangate.yaml": "extends: plangate-config-nowhere\n" });
    expect(await refusal(missing)).toMatch(/plangate\.yaml:1:10: extends names the package "plangate-config-nowhere", which is not installed/);
    const odd = tree({ "plangate.yaml": "extends: ../base\n" });
    expect(await refusal(odd)).toMatch(/extends must name a policy file \(\.yaml, \.yml or \.json\) or a package/);
    const escape = tree({
      "node_modules/evil/package.json": JSON.stringify({ name: "evil", plangate: "../../secret.yaml" }),
      "plangate.yaml": "extends: evil\n",
    });
    expect(await refusal(escape)).toMatch(/must be a \.yaml, \.yml or \.json file inside the package/);
  });

  it("a base may itself extend; a diamond reads the shared base twice and is no cycle", async () => {
    const root = tree({
      "d.yaml": "plan:\n  maxAgeDays: 1\n",
      "b.yaml": "extends: d.yaml\ntools:\n  deny: [b_tool]\n",
      "c.yaml": "extends: ./d.yaml\ntools:\n  deny: [c_tool]\n",
      "plangate.yaml": "extends: [b.yaml, c.yaml]\n",
    });
    const { policy } = await load(root);
    expect(policy.plan.maxAgeDays).toBe(1);
    expect(policy.tools.deny).toEqual(expect.arrayContaining(["b_tool", "c_tool"]));
  });

  it("the policy hash is of the resolved policy: changing a base changes it", async () => {
    const root = tree({ "base.yaml": "plan:\n  maxAgeDays: 7\n", "plangate.yaml": "extends: base.yaml\n" });
    const before = (await load(root)).hash;
    writeFileSync(join(root, "base.yaml"), "plan:\n  maxAgeDays: 8\n");
    const after = (await load(root)).hash;
    expect(after).not.toBe(before);
    // The same settings written in one file are the same policy.
    writeFileSync(join(root, "flat.yaml"), "plan:\n  maxAgeDays: 8\n");
    expect((await load(root, "flat.yaml")).hash).toBe(after);
  });

  it("refuses a cycle, naming the chain and the extends entry's position", async () => {
    const self = tree({ "plangate.yaml": "rules: {}\nextends: plangate.yaml\n" });
    expect(await refusal(self)).toMatch(/plangate\.yaml:2:10: extends forms a cycle: .*plangate\.yaml → .*plangate\.yaml/);
    const two = tree({ "a.yaml": "extends: [b.yaml]\n", "b.yaml": "\nextends:\n  - a.yaml\n", "plangate.yaml": "extends: a.yaml\n" });
    expect(await refusal(two)).toMatch(/b\.yaml:3:5: extends forms a cycle: .*a\.yaml → .*b\.yaml → .*a\.yaml/);
    // The same file through a symbolic link is the same file.
    const linked = tree({ "real.yaml": "extends: link.yaml\n", "plangate.yaml": "extends: real.yaml\n" });
    symlinkSync(join(linked, "real.yaml"), join(linked, "link.yaml"));
    expect(await refusal(linked)).toMatch(/extends forms a cycle/);
  });

  it("refuses a symbolic link loop and a missing base with the position of the extends entry", async () => {
    const root = tree({ "plangate.yaml": "extends: loop.yaml\n" });
    symlinkSync(join(root, "loop2.yaml"), join(root, "loop.yaml"));
    symlinkSync(join(root, "loop.yaml"), join(root, "loop2.yaml"));
    expect(await refusal(root)).toMatch(/plangate\.yaml:1:10: cannot read policy file .*loop\.yaml: ELOOP/);
    const missing = tree({ "plangate.yaml": "extends: [gone.yaml]\n" });
    expect(await refusal(missing)).toMatch(/plangate\.yaml:1:11: cannot read policy file .*gone\.yaml: ENOENT/);
  });

  it(`refuses a chain deeper than ${MAX_EXTENDS_DEPTH}, and a fan-out that would read more than 64 files`, async () => {
    const files: Record<string, string> = { "plangate.yaml": "extends: p1.yaml\n" };
    for (let i = 1; i <= 20; i++) files[`p${i}.yaml`] = i < 20 ? `extends: p${i + 1}.yaml\n` : "rules: {}\n";
    const deep = tree(files);
    expect(await refusal(deep)).toMatch(new RegExp(`p${MAX_EXTENDS_DEPTH}\\.yaml:1:10: extends is more than ${MAX_EXTENDS_DEPTH} files deep`));
    // Exactly 8 deep is accepted.
    const ok: Record<string, string> = { "plangate.yaml": "extends: p1.yaml\n" };
    for (let i = 1; i <= MAX_EXTENDS_DEPTH; i++) ok[`p${i}.yaml`] = i < MAX_EXTENDS_DEPTH ? `extends: p${i + 1}.yaml\n` : "plan:\n  maxAgeDays: 2\n";
    expect((await load(tree(ok))).policy.plan.maxAgeDays).toBe(2);
    // Each level names the next twice: 2^8 reads without a limit.
    const fan: Record<string, string> = { "plangate.yaml": "extends: [f1.yaml, f1.yaml]\n" };
    for (let i = 1; i <= 8; i++) fan[`f${i}.yaml`] = i < 8 ? `extends: [f${i + 1}.yaml, f${i + 1}.yaml]\n` : "rules: {}\n";
    expect(await refusal(tree(fan))).toMatch(/reads more than 64 files through extends/);
    const many = tree({ "plangate.yaml": `extends: [${Array.from({ length: 17 }, () => "a.yaml").join(", ")}]\n`, "a.yaml": "{}\n" });
    expect(await refusal(many)).toMatch(/plangate\.yaml:1:10: extends must have at most 16 items/);
  });

  it("a base is a policy file read with the bounded reader and checked as a policy: /etc/passwd, a device, a folder, a huge file are refused", async () => {
    const root = tree({ "plangate.yaml": "extends: /etc/passwd\n" });
    expect(await refusal(root)).toMatch(/plangate\.yaml:1:10: extends must name a policy file \(\.yaml, \.yml or \.json\) or a package \(name or @scope\/name\), not "\/etc\/passwd"/);
    // Spelt as a policy file through a link: read, and refused as a policy (not an object of known keys).
    const linked = tree({ "plangate.yaml": "extends: passwd.yaml\n" });
    symlinkSync("/etc/passwd", join(linked, "passwd.yaml"));
    expect(await refusal(linked)).toMatch(/passwd\.yaml:\d+:\d+: /);
    const dev = tree({ "plangate.yaml": "extends: zero.yaml\n" });
    symlinkSync("/dev/zero", join(dev, "zero.yaml"));
    expect(await refusal(dev)).toMatch(/plangate\.yaml:1:10: cannot read policy file .*zero\.yaml: it is a device, pipe or socket/);
    const dir = tree({ "plangate.yaml": "extends: sub.yaml\n", "sub.yaml/x": "" });
    expect(await refusal(dir)).toMatch(/cannot read policy file .*sub\.yaml: it is a directory/);
    const huge = tree({ "plangate.yaml": "extends: huge.yaml\n", "huge.yaml": `# ${"x".repeat(17 * 1024 * 1024)}\n` });
    expect(await refusal(huge)).toMatch(/cannot read policy file .*huge\.yaml: it is over 16777216 bytes/);
    const wrong = tree({ "plangate.yaml": "extends: base.yaml\n", "base.yaml": "tols: {}\n" });
    expect(await refusal(wrong)).toMatch(/base\.yaml:1:1: unknown key "tols" in the policy; did you mean "tools"\?/);
  });

  it("is a usage error on the command line (exit 2), with the JSON error document", async () => {
    const root = tree({ "plangate.yaml": "extends: plangate.yaml\n", "p.json": "[]" });
    const r = await cli(["validate", "p.json", "-o", "json"], { cwd: root });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.stdout).error).toMatchObject({ code: "usage", message: expect.stringMatching(/extends forms a cycle/) });
  });
});

const PLAN = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "data.csv" }, intent: "Read the table" }] });

const WRITE_PLAN = JSON.stringify({ steps: [{ tool: "write_file", intent: "write it", arguments: { path: "a.txt", content: "hi" } }] });

describe("policy overrides", () => {
  it("matches globs picomatch would backtrack on in linear time, and refuses one that cannot be ({a,a} 28 times took 4.7 s on a plan's name)", async () => {
    const root = tree({ "plangate.yaml": 'overrides:\n  - files: ["{legacy,old}/{a,b}/*.json", "**/x/**/y/**/*.json"]\n    rules:\n      missing-intent: warning\n' });
    const { policy } = await load(root);
    for (const p of ["old/b/p.json", "legacy/a/q.json", "k/x/l/y/m/p.json", "x/y/p.json"]) expect(policyForFile(policy, join(root, p)).rules["missing-intent"], p).toBe("warning");
    for (const p of ["old/c/p.json", "legacy/a/b/q.json", "x/p.json"]) expect(policyForFile(policy, join(root, p)), p).toBe(policy);
    const bomb = tree({ "plangate.yaml": `overrides:\n  - files: ["${"{a,a}".repeat(40)}b"]\n    rules:\n      missing-intent: warning\n` });
    await expect(load(bomb)).rejects.toThrow(/has two or more brace groups, nested braces, an extglob or several runs of unknown length .*its braces spell over 64 globs/);
  });

  it("applies the entries whose globs match the plan's path relative to the policy's folder, in order (later wins)", async () => {
    const root = tree({
      "plangate.yaml": [
        "tools:",
        "  allow: [read_file]",
        "rules:",
        "  missing-intent: error",
        "overrides:",
        "  - files: [\"legacy/**\"]",
        "    rules:",
        "      missing-intent: warning",
        "    tools:",
        "      allow: [read_file, fetch]",
        "  - files: [\"legacy/strict/*.json\"]",
        "    rules:",
        "      missing-intent: error",
        "    limits:",
        "      maxSteps: 3",
        "",
      ].join("\n"),
    });
    const { policy } = await load(root);
    expect(policy.overrides).toHaveLength(2);
    expect(policyForFile(policy, join(root, "new/p.json"))).toBe(policy);
    const legacy = policyForFile(policy, join(root, "legacy/a/p.json"));
    expect(legacy.rules["missing-intent"]).toBe("warning");
    expect(legacy.tools.allow).toEqual(["read_file", "fetch"]);
    expect(legacy.overrides).toBeUndefined();
    const strict = policyForFile(policy, join(root, "legacy/strict/p.json"));
    expect(strict.rules["missing-intent"]).toBe("error");
    expect(strict.limits.maxSteps).toBe(3);
    expect(strict.tools.allow).toEqual(["read_file", "fetch"]);
    // A path outside the policy's folder matches nothing, whatever its name.
    expect(policyForFile(policy, join(root, "..", "legacy", "p.json"))).toBe(policy);
    // The policy itself is left as it was.
    expect(policy.rules["missing-intent"]).toBe("error");
    // Files the same overrides match share one policy, merged and compiled once (256 overrides for each of
    // 100 files took 2.6 s); files other overrides match get their own.
    expect(policyForFile(policy, join(root, "legacy/b/q.json"))).toBe(legacy);
    expect(policyForFile(policy, join(root, "legacy/strict/q.json"))).toBe(strict);
    expect(strict).not.toBe(legacy);
  });

  it("validate judges each file by its overrides, on the command line and in the library; the tools an override allows are read", async () => {
    const step = (tool: string) => JSON.stringify({ steps: [{ tool, arguments: { url: "https://example.org" }, intent: "Fetch the page" }] });
    const root = tree({
      "plangate.yaml": "tools:\n  allow: [read_file]\noverrides:\n  - files: [\"web/*.json\"]\n    tools:\n      allow: [fetch]\n",
      "web/p.json": step("fetch"),
      "other/p.json": step("fetch"),
    });
    const r = await cli(["validate", "web/p.json", "other/p.json", "-o", "json"], { cwd: root });
    expect(r.code).toBe(1);
    const results = JSON.parse(r.stdout).results as { file: string; valid: boolean; diagnostics: { rule: string }[] }[];
    expect(results.map((x) => [x.file, x.valid])).toEqual([
      ["web/p.json", true],
      ["other/p.json", false],
    ]);
    expect(results[1]!.diagnostics.map((d) => d.rule)).toContain("unknown-tool");
    expect((await validateFile(join(root, "web/p.json"))).valid).toBe(true);
    expect((await validateFile(join(root, "other/p.json"))).valid).toBe(false);
    expect((await validateFile(join(root, "web/p.json"), await load(root))).valid).toBe(true);
  });

  it("commands.installOutside: the package managers that may install outside the workspace, set by a file, a base or an override", async () => {
    const step = (command: string) => JSON.stringify({ steps: [{ tool: "bash", arguments: { command }, intent: "Install the tool" }] });
    const root = tree({
      "base.yaml": "commands:\n  installOutside: [brew]\n",
      "plangate.yaml": "extends: base.yaml\ncommands:\n  deny: [curl]\noverrides:\n  - files: [\"tools/*.json\"]\n    commands:\n      installOutside: [cargo]\n",
      "tools/p.json": step("cargo install ripgrep"),
      "other/p.json": step("cargo install ripgrep"),
      "other/brew.json": step("brew install jq"),
    });
    const { policy } = await load(root);
    expect(policy.commands).toEqual({ allow: [], deny: ["curl"], allowCompound: false, installOutside: ["brew"] });
    expect(policyForFile(policy, join(root, "tools/p.json")).commands.installOutside).toEqual(["cargo"]);
    const r = await cli(["validate", "tools/p.json", "other/p.json", "other/brew.json", "-o", "json"], { cwd: root });
    const results = JSON.parse(r.stdout).results as { file: string; valid: boolean; diagnostics: { rule: string; message: string }[] }[];
    expect(results.map((x) => [x.file, x.valid])).toEqual([
      ["tools/p.json", true],
      ["other/p.json", false],
      ["other/brew.json", true],
    ]);
    expect(results[1]!.diagnostics.filter((d) => d.rule === "path-outside-workspace").map((d) => d.message)).toEqual([expect.stringContaining(`"cargo install" writes to cargo's bin folder`)]);
    // A policy that names none keeps the identity it had: the key is left out of the resolved policy.
    const plain = await load(tree({ "plangate.yaml": "commands:\n  deny: [curl]\n" }));
    expect(Object.keys(plain.policy.commands)).toEqual(["allow", "deny", "allowCompound"]);
    const typo = tree({ "plangate.yaml": "commands:\n  installOutside: cargo\n" });
    expect(await refusal(typo)).toMatch(/installOutside/);
  });

  it("commands.deny is a union: a base's or the file's denied programs stay denied in a file over it and in every override", async () => {
    const step = (command: string) => JSON.stringify({ steps: [{ tool: "bash", arguments: { command }, intent: "Fetch the data" }] });
    const root = tree({
      "base.yaml": "commands:\n  deny: [curl]\n",
      "plangate.yaml": "extends: base.yaml\ncommands:\n  deny: [wget]\noverrides:\n  - files: [\"prod/*.json\"]\n    commands:\n      deny: [rm]\n",
      "prod/curl.json": step("curl -o data.csv https://example.org/data.csv"),
      "prod/wget.json": step("wget https://example.org/data.csv"),
      "prod/rm.json": step("rm data.csv"),
      "dev/rm.json": step("rm data.csv"),
    });
    const { policy } = await load(root);
    expect(policy.commands.deny).toEqual(["curl", "wget"]);
    expect(policyForFile(policy, join(root, "prod/curl.json")).commands.deny).toEqual(["curl", "wget", "rm"]);
    const r = await cli(["validate", "prod/curl.json", "prod/wget.json", "prod/rm.json", "dev/rm.json", "-o", "json"], { cwd: root });
    const results = JSON.parse(r.stdout).results as { file: string; valid: boolean; diagnostics: { rule: string }[] }[];
    expect(results.map((x) => [x.file, x.valid, x.diagnostics.some((d) => d.rule === "disallowed-tool")])).toEqual([
      ["prod/curl.json", false, true],
      ["prod/wget.json", false, true],
      ["prod/rm.json", false, true],
      ["dev/rm.json", true, false],
    ]);
  });

  it("base overrides come first, the file's after; globs match from the policy in force's folder", async () => {
    const root = tree({
      "shared/base.yaml": "overrides:\n  - files: [\"plans/**\"]\n    plan:\n      maxAgeDays: 5\n",
      "plangate.yaml": "extends: shared/base.yaml\noverrides:\n  - files: [\"plans/old/**\"]\n    plan:\n      maxAgeDays: 500\n",
    });
    const { policy } = await load(root);
    expect(policyForFile(policy, join(root, "plans/p.json")).plan.maxAgeDays).toBe(5);
    expect(policyForFile(policy, join(root, "plans/old/p.json")).plan.maxAgeDays).toBe(500);
    expect(policyForFile(policy, join(root, "shared/plans/p.json")).plan.maxAgeDays).toBe(30);
  });

  it.each([
    ["approval", "approval:\n      singleUse: false"],
    ["guard", "guard:\n      noRun: allow-free"],
    ["workspace", "workspace: /"],
    ["host", "host: claude-code"],
    ["extends", "extends: x.yaml"],
  ])("refuses %s in an override: one per policy", async (key, setting) => {
    const root = tree({ "plangate.yaml": `rules: {}\noverrides:\n  - files: ["**"]\n    ${setting}\n` });
    expect(await refusal(root)).toMatch(new RegExp(`plangate\\.yaml:4:5: "${key}" cannot be set in an override: it is one per policy`));
  });

  it("checks an override as strictly as the policy: structural and approval rules, unknown keys and rules, bad globs", async () => {
    const cases: [string, RegExp][] = [
      ["    rules:\n      parse-error: off\n", /plangate\.yaml:5:7: "parse-error" cannot be set to "off"/],
      ["    rules:\n      approval-expired: off\n", /plangate\.yaml:5:7: the severity of "approval-expired" cannot be changed/],
      ["    rules:\n      stale-plna: off\n", /unknown rule "stale-plna"; did you mean "stale-plan"\?/],
      ["    tols: {}\n", /plangate\.yaml:4:5: unknown key "tols" in overrides\.0; did you mean "tools"\?/],
    ];
    for (const [body, message] of cases) expect(await refusal(tree({ "plangate.yaml": `rules: {}\noverrides:\n  - files: ["**"]\n${body}` }))).toMatch(message);
    expect(await refusal(tree({ "plangate.yaml": 'overrides:\n  - files: ["../x/**"]\n' }))).toMatch(/plangate\.yaml:2:13: "\.\.\/x\/\*\*" must be a glob relative to the policy's folder/);
    expect(await refusal(tree({ "plangate.yaml": 'overrides:\n  - files: ["/etc/*"]\n' }))).toMatch(/must be a glob relative to the policy's folder/);
    expect(await refusal(tree({ "plangate.yaml": "overrides:\n  - rules: {}\n" }))).toMatch(/overrides\.0 must have required property 'files'/);
  });

  // An override that tightens the policy for some plans and matches none of them by a slip of spelling
  // leaves those plans under the looser policy: such globs are refused with what to write instead.
  it.each([
    ["plans/prod/", /"plans\/prod\/" ends with "\/", so it matches no file: write "plans\/prod\/\*\*"/],
    ["plans/prod", /"plans\/prod" names a folder, which no plan file is: write "plans\/prod\/\*\*"/],
    ["plans\\\\prod\\\\*.json", /holds a backslash, .*write "\/" between folders/],
    ["plans//prod/**", /has an empty or "\." folder name/],
    ["plans/./prod/**", /has an empty or "\." folder name/],
    [" plans/prod/**", /begins or ends with white space/],
    ["plans/prod/** ", /begins or ends with white space/],
  ])("refuses the override glob %j, which would match no plan (exit 2)", async (glob, message) => {
    const root = tree({ "plangate.yaml": `tools:\n  allow: ["*"]\noverrides:\n  - files: ["${glob}"]\n    tools:\n      allow: [read_file]\n`, "plans/prod/p.json": WRITE_PLAN });
    expect(await refusal(root)).toMatch(new RegExp(`plangate\\.yaml:4:13: .*${message.source}`));
    const r = await cli(["validate", "plans/prod/p.json"], { cwd: root });
    expect(r.code).toBe(2);
  });

  it.each([
    ["plans/prod/**", 1],
    ["./plans/prod/**", 1],
    ["plans/*/p.json", 1],
    ["plans/prod/p.json", 1],
    ["**/prod/*.json", 1],
    // A file that is not there (yet) is a file's name: accepted, matching nothing now.
    ["plans/prod/later.json", 0],
  ])("an honest override glob %j is read as written (validate exits %i)", async (glob, code) => {
    const root = tree({ "plangate.yaml": `tools:\n  allow: ["*"]\noverrides:\n  - files: ["${glob}"]\n    tools:\n      allow: [read_file]\n`, "plans/prod/p.json": WRITE_PLAN });
    const r = await cli(["validate", "plans/prod/p.json"], { cwd: root });
    expect(r.code, r.stdout + r.stderr).toBe(code);
    if (code === 1) expect(r.stdout).toContain("[unknown-tool]");
  });

  it("a plan named through a link to the policy's folder is judged by its overrides, as by its own path", async () => {
    const root = tree({ "plangate.yaml": 'tools:\n  allow: ["*"]\noverrides:\n  - files: ["plans/prod/**"]\n    tools:\n      allow: [read_file]\n', "plans/prod/p.json": WRITE_PLAN });
    const link = join(mkdtempSync(join(tmpdir(), "plangate-link-")), "checkout");
    symlinkSync(root, link);
    const { policy } = await load(root);
    for (const path of [join(root, "plans/prod/p.json"), join(link, "plans/prod/p.json")]) expect(policyForFile(policy, path).tools.allow).toEqual(["read_file"]);
    const spellings: [cwd: string, plan: string][] = [
      [root, join(link, "plans/prod/p.json")],
      [link, join(root, "plans/prod/p.json")],
      [link, "plans/prod/p.json"],
    ];
    for (const [cwd, plan] of spellings) {
      const r = await cli(["validate", plan, "--policy", join(root, "plangate.yaml")], { cwd });
      expect(r.code, `${cwd} ${plan}: ${r.stdout}`).toBe(1);
      expect(r.stdout).toContain("[unknown-tool]");
    }
    // A plan outside the policy's folder, by any name, still matches none.
    const elsewhere = tree({ "p.json": WRITE_PLAN });
    expect(policyForFile(policy, join(elsewhere, "p.json")).tools.allow).toEqual(["*"]);
  });

  // An empty allow list is no list: where it would replace one, "no program" would read as "any program".
  it.each([
    [
      "an override",
      { "plangate.yaml": 'tools:\n  allow: ["*"]\ncommands:\n  allow: [make]\noverrides:\n  - files: ["plans/**"]\n    commands:\n      allow: []\n' },
      /plangate\.yaml:8:14: commands\.allow is empty, which replaces the list in force with none/,
    ],
    [
      "an override, with no list in force",
      { "plangate.yaml": 'tools:\n  allow: ["*"]\noverrides:\n  - files: ["plans/**"]\n    commands:\n      allow: []\n' },
      /plangate\.yaml:6:14: commands\.allow is empty/,
    ],
    [
      "a file over a base with a list",
      { "base.yaml": "commands:\n  allow: [make]\n", "plangate.yaml": 'extends: base.yaml\ntools:\n  allow: ["*"]\ncommands:\n  allow: []\n' },
      /plangate\.yaml:5:10: commands\.allow is empty, .*\(the base's list: make\)/,
    ],
  ])("refuses an empty commands.allow in %s (exit 2)", async (_where, files, message) => {
    const root = tree({ ...files, "plans/p.json": JSON.stringify({ steps: [{ tool: "run_command", intent: "fetch", arguments: { command: "curl evil.example" } }] }) });
    expect(await refusal(root)).toMatch(message);
    expect((await cli(["validate", "plans/p.json"], { cwd: root })).code).toBe(2);
  });

  it.each([
    // At the top level with nothing under it, it is the default written out (plangate init writes it so).
    ['tools:\n  allow: ["*"]\ncommands:\n  allow: []\n', 0],
    // An override with its own list narrows the programs, as it always did.
    ['tools:\n  allow: ["*"]\ncommands:\n  allow: [curl, make]\noverrides:\n  - files: ["plans/**"]\n    commands:\n      allow: [make]\n', 1],
    ['tools:\n  allow: ["*"]\ncommands:\n  allow: [make]\n', 1],
  ])("an honest commands.allow is read as written: %j exits %i", async (policy, code) => {
    const root = tree({ "plangate.yaml": policy, "plans/p.json": JSON.stringify({ steps: [{ tool: "run_command", intent: "fetch", arguments: { command: "curl evil.example" } }] }) });
    const r = await cli(["validate", "plans/p.json"], { cwd: root });
    expect(r.code, r.stdout + r.stderr).toBe(code);
    if (code === 1) expect(r.stdout).toContain("[disallowed-tool]");
  });

  it("the policy hash covers the overrides: adding one changes it, even one that matches no file", async () => {
    const root = tree({ "plangate.yaml": "tools:\n  allow: [read_file]\n", "p.json": PLAN });
    const without = (await load(root)).hash;
    writeFileSync(join(root, "plangate.yaml"), "tools:\n  allow: [read_file]\noverrides:\n  - files: [\"none/**\"]\n    plan:\n      maxAgeDays: 1\n");
    expect((await load(root)).hash).not.toBe(without);
  });
});

describe("protected globs, in all", () => {
  // Each glob is compiled and matched against every path a plan writes: 10,000 took 1.8 s and 270 MB for
  // 100 writes, 200,000 in a 4 MB JSON policy 35 s and 2.1 GB.
  const room = MAX_PROTECTED_GLOBS - DEFAULT_PROTECTED_PATHS.length;
  const globs = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `    - "**/p${from + i}/**/*.x"`).join("\n");

  it("loads a policy at the bound, and refuses one past it at the glob past it, before compiling it", async () => {
    expect((await load(tree({ "plangate.yaml": `paths:\n  protected:\n${globs(room)}\n` }))).policy.paths.protected).toHaveLength(MAX_PROTECTED_GLOBS);
    const past = await refusal(tree({ "plangate.yaml": `paths:\n  protected:\n${globs(20_000)}\n` }));
    expect(past).toMatch(new RegExp(`plangate\\.yaml:${3 + room}:7: the policy holds more than ${MAX_PROTECTED_GLOBS} protected globs in all`));
    expect(past).toContain("protect folders rather than each file in them");
    const json = JSON.stringify({ paths: { protected: Array.from({ length: 200_000 }, (_, i) => `**/p${i}/**/*.x`) } });
    expect(await refusal(tree({ "plangate.json": json }), "plangate.json")).toMatch(/plangate\.json:1:\d+: the policy holds more than \d+ protected globs in all/);
  });

  it("counts an override's globs and a base's with the file's", async () => {
    const half = Math.ceil(room / 2) + 1;
    const inOverride = await refusal(tree({ "plangate.yaml": `paths:\n  protected:\n${globs(half)}\noverrides:\n  - files: ["*.json"]\n    paths:\n      protected:\n${globs(half, half).replace(/^ {4}/gm, "        ")}\n` }));
    expect(inOverride).toMatch(/plangate\.yaml:\d+:11: the policy holds more than \d+ protected globs/);
    const overBases = await refusal(tree({ "base.yaml": `paths:\n  protected:\n${globs(half)}\n`, "plangate.yaml": `extends: base.yaml\npaths:\n  protected:\n${globs(half, half)}\n` }));
    expect(overBases).toMatch(/plangate\.yaml:4:5: the policy holds more than \d+ protected globs in all/);
  });

  it("refuses a glob longer than any path", async () => {
    const long = await refusal(tree({ "plangate.yaml": `paths:\n  protected:\n    - "${"a/".repeat(2100)}x"\n` }));
    expect(long).toMatch(/plangate\.yaml:3:7: the protected glob is 4201 characters long, longer than the 4096 of any path/);
  });
});
