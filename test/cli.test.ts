import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { pythonChecksum } from "../src/core/canonical/python-json.js";
import { cli } from "./cli-io.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-cli-"));
const write = (name: string, text: string) => {
  writeFileSync(join(dir, name), text);
  return name;
};

describe("exit codes", () => {
  it("0 for a valid plan, 1 for a rejected one", async () => {
    write("ok.json", '[{"tool": "a"}]');
    write("bad.json", '[{"tool": "a"}, {}]');
    expect((await cli(["validate", "ok.json"], { cwd: dir })).code).toBe(0);
    expect((await cli(["validate", "bad.json"], { cwd: dir })).code).toBe(1);
    expect((await cli(["validate", "ok.json", "bad.json"], { cwd: dir })).code).toBe(1);
  });
  it("1 for a missing plan file (a diagnostic, not a usage error)", async () => {
    const r = await cli(["validate", "missing.json", "--output", "json"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics[0].rule).toBe("file-not-found");
  });
  it("2 for usage errors", async () => {
    expect((await cli(["frobnicate"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate", "ok.json", "--output", "xml"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate", "ok.json", "--no-such-flag"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate", "ok.json", "--max-age", "soon"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate", "ok.json", "--tools", "nope.txt"], { cwd: dir })).code).toBe(2);
    expect((await cli(["validate", "ok.json", "--dialect", "klingon"], { cwd: dir })).code).toBe(2);
    expect((await cli([], { cwd: dir })).code).toBe(2);
  });
  it("0 for --help and --version", async () => {
    const h = await cli(["validate", "--help"], { cwd: dir });
    expect(h.code).toBe(0);
    expect(h.stdout).toContain("--fail-fast");
    expect((await cli(["--version"], { cwd: dir })).code).toBe(0);
  });
  it("--version and -V print the version alone, as commander prints it (without loading any command)", async () => {
    const { VERSION } = await import("../src/version.js");
    for (const args of [["--version"], ["-V"], ["--version", "validate"]]) {
      const r = await cli(args, { cwd: dir });
      expect(r.code, args.join(" ")).toBe(0);
      expect(r.stdout, args.join(" ")).toBe(`${VERSION}\n`);
      expect(r.stderr).toBe("");
    }
  });
});

describe("validate", () => {
  it("reads standard input with -", async () => {
    const r = await cli(["validate", "-", "--output", "json"], { cwd: dir, stdin: '[{"tool": "a"}]' });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0]).toMatchObject({ file: "-", dialect: "scqc-legacy", valid: true, steps: 1 });
  });
  it("prints exactly SPEC's JSON report shape, plus the policy used", async () => {
    const r = await cli(["validate", "bad.json", "--output", "json"], { cwd: dir });
    const doc = JSON.parse(r.stdout);
    expect(Object.keys(doc)).toEqual(["version", "policy", "results", "summary"]);
    expect(Object.keys(doc.results[0])).toEqual(["file", "dialect", "valid", "planHash", "steps", "diagnostics"]);
    // The warning: no tool registry or allow list, so nothing constrains the tools.
    expect(doc.summary).toEqual({ files: 1, valid: 0, errors: 1, warnings: 1 });
  });
  it("uses --tools and gives did-you-mean hints", async () => {
    write("tools.txt", "# tools\nplot_qc\nrun_scar\n");
    write("typo.json", '[{"tool": "plot_qcc"}]');
    const r = await cli(["validate", "typo.json", "--tools", "tools.txt"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('did you mean "plot_qc"?');
    expect(r.stdout).toContain("> 1 | ");
  });
  it("--fail-fast keeps the first error in check order", async () => {
    const plan = [{ tool: "a" }];
    write(
      "ff.json",
      JSON.stringify({ version: "1.0", created_at: "2020-01-01T00:00:00", checksum: "0".repeat(64), plan: [...plan, { toolx: 1 }] }, null, 2),
    );
    const all = JSON.parse((await cli(["validate", "ff.json", "--output", "json"], { cwd: dir })).stdout).results[0].diagnostics;
    expect(all.map((d: { rule: string }) => d.rule).sort()).toEqual(["checksum-mismatch", "missing-field", "stale-plan", "unknown-key", "unknown-tool"].sort());
    const ff = JSON.parse((await cli(["validate", "ff.json", "--output", "json", "--fail-fast"], { cwd: dir })).stdout).results[0].diagnostics;
    expect(ff.map((d: { rule: string }) => d.rule)).toEqual(["checksum-mismatch"]);
  });
  it("colours only on a TTY without NO_COLOR", async () => {
    expect((await cli(["validate", "bad.json"], { cwd: dir, tty: true })).stdout).toContain("\u001b[");
    expect((await cli(["validate", "bad.json"], { cwd: dir, tty: true, env: { NO_COLOR: "1" } })).stdout).not.toContain("\u001b[");
    expect((await cli(["validate", "bad.json"], { cwd: dir })).stdout).not.toContain("\u001b[");
  });
});

describe("seal, migrate, hash", () => {
  const plan = [{ tool: "plot_qc", description: "plot", params: { stage: "pre", ratio: 1.0 } }];
  it("seal changes only the checksum", async () => {
    const text = `{\n  "version": "1.0",\n  "created_at": "2026-11-20T10:00:00",\n  "checksum": "stale",\n  "plan": [{"tool": "plot_qc", "params": {"ratio": 1.0}}],\n  "message": "kept last"\n}\n`;
    write("env.json", text);
    const r = await cli(["seal", "env.json"], { cwd: dir });
    expect(r.code).toBe(0);
    const sum = JSON.parse(r.stdout).checksum;
    expect(r.stdout).toBe(text.replace('"stale"', JSON.stringify(sum)));
    expect(r.stdout).toContain('"ratio": 1.0');
    expect((await cli(["validate", "-"], { cwd: dir, stdin: r.stdout })).code).toBe(0);
  });
  it("seal --in-place rewrites the file; seal inserts a missing checksum before plan", async () => {
    write("env2.json", '{\n  "version": "1.0",\n  "plan": [{"tool": "a"}]\n}\n');
    expect((await cli(["seal", "env2.json", "--in-place"], { cwd: dir })).code).toBe(0);
    const out = readFileSync(join(dir, "env2.json"), "utf8");
    expect(JSON.parse(out).checksum).toBe(pythonChecksum([{ tool: "a" }]));
    expect(out.indexOf('"checksum"')).toBeLessThan(out.indexOf('"plan"'));
  });
  it("seal refuses a legacy list and --in-place with --out", async () => {
    write("legacy.json", JSON.stringify(plan));
    const r = await cli(["seal", "legacy.json"], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("migrate");
    expect((await cli(["seal", "legacy.json", "--in-place", "--out", "x.json"], { cwd: dir })).code).toBe(2);
  });
  it("migrate wraps a legacy list in a sealed envelope", async () => {
    const r = await cli(["migrate", "legacy.json", "--out", "migrated.json", "--message", "qc"], { cwd: dir });
    expect(r.code).toBe(0);
    const env = JSON.parse(readFileSync(join(dir, "migrated.json"), "utf8"));
    expect(env).toMatchObject({ version: "1.0", created_at: "2026-11-22T12:00:00.000000", message: "qc", checksum: pythonChecksum(plan) });
    expect(env.plan).toEqual(plan);
    expect((await cli(["validate", "migrated.json"], { cwd: dir })).code).toBe(0);
  });
  it("seal and migrate --output json print the report envelope, the checksum and the text or the file written in the result", async () => {
    write("env3.json", '{\n  "version": "1.0",\n  "plan": [{"tool": "a"}]\n}\n');
    const sealed = JSON.parse((await cli(["seal", "env3.json", "-o", "json"], { cwd: dir })).stdout);
    expect(sealed).toMatchObject({ version: 1, results: [{ file: "env3.json", valid: true, checksum: pythonChecksum([{ tool: "a" }]), diagnostics: [] }], summary: { files: 1, valid: 1, errors: 0 } });
    expect(JSON.parse(sealed.results[0].text).checksum).toBe(pythonChecksum([{ tool: "a" }]));
    const migrated = JSON.parse((await cli(["migrate", "legacy.json", "--out", "m2.json", "-o", "json"], { cwd: dir })).stdout);
    expect(migrated.results[0]).toMatchObject({ file: "legacy.json", valid: true, written: "m2.json", checksum: pythonChecksum(plan) });
    const refused = await cli(["seal", "legacy.json", "-o", "json"], { cwd: dir });
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ version: 1, results: [{ file: "legacy.json", valid: false }], summary: { files: 1, valid: 0, errors: 1 } });
  });
  it("hash prints the plan hash, the same for equal plans written differently", async () => {
    write("h1.json", '{"a": 1, "b": [1, 2]}');
    write("h2.json", '{\n  "b": [1, 2],\n  "a": 1\n}');
    const a = await cli(["hash", "h1.json"], { cwd: dir });
    const b = await cli(["hash", "h2.json"], { cwd: dir });
    expect(a.stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    expect(a.stdout).toBe(b.stdout);
    expect((await cli(["hash", "missing.json"], { cwd: dir })).code).toBe(1);
  });
});

describe("rules and explain", () => {
  it("lists rules as text and JSON", async () => {
    const t = await cli(["rules"]);
    expect(t.stdout).toContain("checksum-mismatch");
    const j = JSON.parse((await cli(["rules", "--output", "json"])).stdout);
    expect(j.rules.find((r: { id: string }) => r.id === "stale-plan").defaultSeverity).toBe("warning");
  });
  it("explains a rule, and suggests for a typo", async () => {
    expect((await cli(["explain", "stale-plan"])).stdout).toContain("Why:");
    const r = await cli(["explain", "stale-plna"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('did you mean "stale-plan"');
  });
});
