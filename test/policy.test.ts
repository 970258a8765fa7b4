import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { discoverPolicy, loadPolicy, PolicyError } from "../src/node/policy.js";
import { cli } from "./cli-io.js";

const root = mkdtempSync(join(tmpdir(), "plangate-policy-"));
mkdirSync(join(root, "a/b/c"), { recursive: true });
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
  it("names the executor's YAML parser: pyyaml by default, yaml-1.2 turns the YAML 1.1 refusals off", async () => {
    const empty = mkdtempSync(join(tmpdir(), "plangate-nopolicy-"));
    expect((await loadPolicy({ cwd: empty })).policy.yaml.executor).toBe("pyyaml");
    writeFileSync(join(root, "y12.yaml"), "yaml:\n  executor: yaml-1.2\n");
    expect((await loadPolicy({ file: join(root, "y12.yaml"), cwd: root })).policy.yaml.executor).toBe("yaml-1.2");
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
