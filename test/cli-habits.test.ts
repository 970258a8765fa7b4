import { cpSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ignoreMatcher } from "../src/cli/inputs.js";
import { cli } from "./cli-io.js";

const root = join(import.meta.dirname, "..");
const tmp = () => realpathSync(mkdtempSync(join(tmpdir(), "plangate-habits-")));

const PLAN = (tool: string) => JSON.stringify({ steps: [{ tool, arguments: { path: "a.txt" }, intent: "Read a." }] });

/** A project folder with plans, non-plans, an ignore file and nested folders (a repository root: `.git`). */
function project(): string {
  const dir = tmp();
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "plans/sub"), { recursive: true });
  mkdirSync(join(dir, "node_modules/x"), { recursive: true });
  mkdirSync(join(dir, "drafts"), { recursive: true });
  writeFileSync(join(dir, "plangate.yaml"), "tools:\n  allow: [read_file]\n");
  writeFileSync(join(dir, "plans/a.json"), PLAN("read_file"));
  writeFileSync(join(dir, "plans/sub/b.yaml"), "steps:\n  - tool: read_file\n    arguments: {path: b.txt}\n    intent: Read b.\n");
  writeFileSync(join(dir, "plans/bad.json"), PLAN("soupx"));
  writeFileSync(join(dir, "plans/tools.json"), JSON.stringify({ tools: [{ name: "read_file" }] }));
  writeFileSync(join(dir, "plans/notes.md"), "# Notes\n\nNot a plan.\n");
  writeFileSync(join(dir, "plans/readme.txt"), "text");
  writeFileSync(join(dir, "node_modules/x/p.json"), PLAN("soupx"));
  writeFileSync(join(dir, "drafts/d.json"), PLAN("soupx"));
  writeFileSync(join(dir, ".plangateignore"), "# drafts are not checked\ndrafts/\n");
  return dir;
}

const files = (stdout: string) =>
  (JSON.parse(stdout) as { results: { file: string; valid: boolean }[] }).results.map((r) => `${r.file}:${r.valid ? "valid" : "rejected"}`);

describe("folders and globs as inputs", () => {
  it("walks a folder for plans, skipping files no dialect reads, policy files, node_modules, .git and .plangateignore", async () => {
    const cwd = project();
    const r = await cli(["validate", ".", "-o", "json"], { cwd });
    expect(files(r.stdout)).toEqual(["plans/a.json:valid", "plans/bad.json:rejected", "plans/sub/b.yaml:valid"]);
    expect(r.code).toBe(1);
  });

  it("expands a quoted glob itself", async () => {
    const cwd = project();
    const r = await cli(["validate", "plans/**/*.yaml", "-o", "json"], { cwd });
    expect(files(r.stdout)).toEqual(["plans/sub/b.yaml:valid"]);
    expect(r.code).toBe(0);
  });

  it("reads a named file even when a folder walk would skip it, and says when a folder holds no plan", async () => {
    const cwd = project();
    expect((await cli(["validate", "drafts/d.json", "-o", "json"], { cwd })).code).toBe(1);
    const none = await cli(["validate", "plans/sub/../../node_modules"], { cwd });
    expect(none.code).toBe(2);
    expect(none.stderr).toMatch(/no plan files found/);
  });

  it("judges each file by the policy found from its own folder, from anywhere", async () => {
    const cwd = project();
    const elsewhere = tmp();
    const r = await cli(["validate", join(cwd, "plans"), "-o", "json"], { cwd: elsewhere });
    const doc = JSON.parse(r.stdout) as { policy: string; results: { valid: boolean }[] };
    expect(doc.policy).toBe(join(cwd, "plangate.yaml"));
    expect(doc.results.map((x) => x.valid)).toEqual([true, false, true]);
  });

  it("validates the bundled examples from another folder: valid ones pass, invalid ones are rejected, others are skipped", async () => {
    const copy = tmp();
    cpSync(join(root, "examples"), join(copy, "examples"), { recursive: true });
    const r = await cli(["validate", join(copy, "examples"), "-o", "json"], { cwd: tmp() });
    const results = (JSON.parse(r.stdout) as { results: { file: string; valid: boolean }[] }).results;
    expect(results.length).toBeGreaterThanOrEqual(12);
    for (const x of results) expect(x.valid, x.file).toBe(x.file.includes(".valid."));
  });
});

describe("ESLint's and ruff's habits", () => {
  it("--quiet shows errors only; --max-warnings N exits 1 past N warnings", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "p.json"), PLAN("anything"));
    // No registry: one warning (tools unchecked), no error.
    const loud = await cli(["validate", "p.json"], { cwd });
    expect(loud.code).toBe(0);
    expect(loud.stdout).toContain("warning");
    const quiet = await cli(["validate", "p.json", "--quiet"], { cwd });
    expect(quiet.stdout).not.toContain("warning:");
    expect((await cli(["validate", "p.json", "--max-warnings", "1"], { cwd })).code).toBe(0);
    const over = await cli(["validate", "p.json", "--max-warnings", "0"], { cwd });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain("more than --max-warnings 0");
    expect((await cli(["validate", "p.json", "--max-warnings", "x"], { cwd })).code).toBe(2);
  });

  it("--format is --output; the two disagreeing is a usage error", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "p.json"), PLAN("a"));
    const r = await cli(["validate", "p.json", "--format", "json"], { cwd });
    expect(JSON.parse(r.stdout).version).toBe(1);
    expect((await cli(["validate", "p.json", "--format", "json", "--output", "json"], { cwd })).code).toBe(0);
    expect((await cli(["validate", "p.json", "--format", "json", "--output", "sarif"], { cwd })).code).toBe(2);
  });

  it("--stdin-filename names standard input and picks its syntax", async () => {
    const cwd = tmp();
    const yaml = "steps:\n  - tool: read_file\n    arguments: {path: a.txt}\n    intent: Read a.\n";
    const r = await cli(["validate", "-", "--stdin-filename", "plans/x.yaml", "-o", "json"], { cwd, stdin: yaml });
    const result = JSON.parse(r.stdout).results[0];
    expect(result).toMatchObject({ file: "plans/x.yaml", dialect: "intake", valid: true });
    expect((await cli(["validate", "p.json", "--stdin-filename", "x.yaml"], { cwd })).code).toBe(2);
  });

  it("colours by --color / --no-color, then FORCE_COLOR, then the terminal and NO_COLOR", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "p.json"), PLAN("a"));
    const esc = (r: { stdout: string }) => r.stdout.includes("\u001b[");
    expect(esc(await cli(["validate", "p.json"], { cwd }))).toBe(false);
    expect(esc(await cli(["validate", "p.json", "--color"], { cwd }))).toBe(true);
    expect(esc(await cli(["validate", "p.json"], { cwd, env: { FORCE_COLOR: "1" } }))).toBe(true);
    expect(esc(await cli(["validate", "p.json"], { cwd, env: { FORCE_COLOR: "0" }, tty: true }))).toBe(false);
    expect(esc(await cli(["validate", "p.json", "--no-color"], { cwd, env: { FORCE_COLOR: "1" } }))).toBe(false);
    expect(esc(await cli(["validate", "p.json"], { cwd, tty: true }))).toBe(true);
    expect(esc(await cli(["validate", "p.json"], { cwd, tty: true, env: { NO_COLOR: "1" } }))).toBe(false);
  });

  it("prints the no-registry note once per run, not once per file", async () => {
    const cwd = tmp();
    for (let i = 0; i < 5; i++) writeFileSync(join(cwd, `p${i}.json`), PLAN("a"));
    const r = await cli(["validate", "."], { cwd });
    expect(r.stdout.match(/Tool names were not checked/g)).toHaveLength(1);
    expect(r.stdout).toContain("(5 files)");
    expect(r.stdout).toContain("5 warnings");
  });
});

describe(".plangateignore", () => {
  it("reads gitignore's spelling: comments, negation, folders, anchors", () => {
    const ignored = ignoreMatcher(["# c", "*.tmp.json", "!keep.tmp.json", "build/", "/top.json", "a/b.json"]);
    expect(ignored("x/y.tmp.json", false)).toBe(true);
    expect(ignored("x/keep.tmp.json", false)).toBe(false);
    expect(ignored("build", true)).toBe(true);
    expect(ignored("build", false)).toBe(false);
    expect(ignored("top.json", false)).toBe(true);
    expect(ignored("sub/top.json", false)).toBe(false);
    expect(ignored("a/b.json", false)).toBe(true);
    expect(ignored("z/a/b.json", false)).toBe(false);
  });
});

describe("one report envelope", () => {
  const envelope = (stdout: string) => {
    const doc = JSON.parse(stdout) as { version: number; results: { file: string; valid: boolean }[]; summary: { files: number; valid: number } };
    expect(doc.version).toBe(1);
    expect(doc.summary.files).toBe(doc.results.length);
    return doc;
  };

  it("hash takes several files: one line each (hash and name), or the JSON envelope", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "a.json"), PLAN("a"));
    writeFileSync(join(cwd, "b.json"), "{ not json");
    const text = await cli(["hash", "a.json", "a.json"], { cwd });
    expect(text.stdout.trim().split("\n")).toHaveLength(2);
    expect(text.stdout).toMatch(/^sha256:[0-9a-f]{64} {2}a\.json$/m);
    expect((await cli(["hash", "a.json"], { cwd })).stdout).toMatch(/^sha256:[0-9a-f]{64}\n$/);
    const r = await cli(["hash", "a.json", "b.json", "-o", "json"], { cwd });
    expect(r.code).toBe(1);
    const doc = envelope(r.stdout);
    expect(doc.results.map((x) => x.valid)).toEqual([true, false]);
    expect(doc.summary.valid).toBe(1);
  });

  it("check-return takes several returns, and writes SARIF and feedback", async () => {
    const cwd = tmp();
    writeFileSync(join(cwd, "good.json"), JSON.stringify({ status: "partial", summary: "Done.", artifacts: [], metadata: {}, session_id: "s1" }));
    writeFileSync(join(cwd, "bad.json"), JSON.stringify({ status: "finished-ish" }));
    const json = await cli(["check-return", "good.json", "bad.json", "--max-summary-tokens", "0", "-o", "json"], { cwd });
    expect(json.code).toBe(1);
    expect(envelope(json.stdout).results.map((x) => x.valid)).toEqual([true, false]);
    const sarif = JSON.parse((await cli(["check-return", "bad.json", "--max-summary-tokens", "0", "-o", "sarif"], { cwd })).stdout);
    expect(sarif.version).toBe("2.1.0");
    expect(sarif.runs[0].results.length).toBeGreaterThan(0);
    const feedback = (await cli(["check-return", "bad.json", "--max-summary-tokens", "0", "-o", "feedback"], { cwd })).stdout;
    expect(feedback).toMatch(/^# Return check failed/);
    expect(feedback).not.toMatch(/returns\.[a-z]|--[a-z]{3,}|plangate\.ya?ml/);
  });
});
