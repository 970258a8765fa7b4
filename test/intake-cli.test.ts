import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./cli-io.js";

const repo = join(import.meta.dirname, "..");
const policy = "examples/plangate.yaml";
let dir: string;

beforeAll(() => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-intake-")));
  mkdirSync(join(dir, "ws", "data"), { recursive: true });
  mkdirSync(join(dir, "elsewhere"));
  symlinkSync(join(dir, "elsewhere"), join(dir, "ws", "shared"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const json = async (args: string[], cwd = repo) => {
  const r = await cli([...args, "--output", "json"], { cwd });
  return { code: r.code, report: r.stdout ? JSON.parse(r.stdout) : undefined, stderr: r.stderr };
};

describe("intake protocol end to end", () => {
  it("accepts the example plans in YAML and JSON, with one plan hash", async () => {
    const r = await json(["validate", "--policy", policy, "examples/intake.valid.yaml", "examples/intake.valid.json"]);
    expect(r.code).toBe(0);
    const [y, j] = r.report.results;
    expect(y.diagnostics).toEqual([]);
    expect(y.dialect).toBe("intake");
    expect(y.planHash).toBe(j.planHash);
    const hash = await cli(["hash", "examples/intake.valid.json"], { cwd: repo });
    expect(hash.stdout.trim()).toContain(y.planHash);
  });
  it("rejects the invalid examples with the checklist's rules", async () => {
    const r = await json(["validate", "--policy", policy, "examples/intake.invalid.yaml"]);
    expect(r.code).toBe(1);
    const rules = new Set(r.report.results[0].diagnostics.map((d: { rule: string }) => d.rule));
    for (const id of ["scope-mismatch", "disallowed-tool", "path-outside-workspace", "protected-path-write", "unresolved-argument", "non-deterministic", "multiple-tools", "missing-intent", "unknown-key"])
      expect(rules, id).toContain(id);
  });
  it("checks --expected-hash against the plan hash or the raw file's SHA-256", async () => {
    const file = "examples/intake.valid.yaml";
    const planHash = (await json(["validate", "--policy", policy, file])).report.results[0].planHash;
    const raw = createHash("sha256").update(readFileSync(join(repo, file))).digest("hex");
    expect((await json(["validate", "--policy", policy, file, "--expected-hash", planHash])).code).toBe(0);
    expect((await json(["validate", "--policy", policy, file, "--expected-hash", `SHA256:${raw.toUpperCase()}`])).code).toBe(0);
    // The JSON spelling has the same plan hash, so a hash approved for one accepts the other.
    expect((await json(["validate", "--policy", policy, "examples/intake.valid.json", "--expected-hash", planHash])).code).toBe(0);
    const bad = await json(["validate", "--policy", policy, file, "--expected-hash", `sha256:${"0".repeat(64)}`]);
    expect(bad.code).toBe(1);
    expect(bad.report.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["hash-mismatch"]);
  });
  it("uses --workspace for scope and paths, and follows symlinks on disk", async () => {
    const plan = { scope: join(dir, "ws"), steps: [{ tool: "write_file", arguments: { path: "shared/new/out.txt", content: "x" }, intent: "Write the output" }] };
    writeFileSync(join(dir, "plan.json"), JSON.stringify(plan));
    const r = await json(["validate", "plan.json", "--workspace", "ws"], dir);
    expect(r.code).toBe(1);
    expect(r.report.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["unknown-tool", "path-outside-workspace"]);
    const other = await json(["validate", "plan.json", "--workspace", "elsewhere"], dir);
    expect(other.report.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toContain("scope-mismatch");
  });
  it("reads the policy's registry and validates arguments against its inputSchemas", async () => {
    writeFileSync(join(dir, "ws", "tools.json"), JSON.stringify({ tools: [{ name: "read_file", inputSchema: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } }] }));
    writeFileSync(join(dir, "ws", "plangate.yaml"), "tools:\n  registry: tools.json\nrules:\n  unknown-key: warning\n");
    writeFileSync(join(dir, "ws", "plan.yaml"), "steps:\n  - tool: read_file\n    arguments: {file: a.txt}\n    intent: Read a\n    note: x\n");
    const r = await json(["validate", "plan.yaml"], join(dir, "ws"));
    expect(r.code).toBe(1);
    const d = r.report.results[0].diagnostics;
    expect(d.map((x: { rule: string; severity: string }) => `${x.rule}:${x.severity}`)).toEqual(["tool-arguments:error", "unknown-key:warning"]);
  });
  it("refuses a malformed policy or one with unknown keys (exit 2, with its position)", async () => {
    writeFileSync(join(dir, "bad.yaml"), "tools:\n  registy: tools.json\n");
    const r = await cli(["validate", "--policy", "bad.yaml", "plan.json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("bad.yaml:2:3");
    expect(r.stderr).toContain('did you mean "registry"');
    writeFileSync(join(dir, "broken.yaml"), "tools: [\n");
    expect((await cli(["validate", "--policy", "broken.yaml", "plan.json"], { cwd: dir })).code).toBe(2);
  });
});
