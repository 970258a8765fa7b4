import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLAUDE_CODE_STARTER_POLICY, schemaComment, STARTER_POLICY } from "../src/cli/commands/init.js";
import { loadPolicy, parsePolicyText } from "../src/node/policy.js";
import { cli } from "./cli-io.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "plangate-init-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("plangate init", () => {
  it("writes a commented starter plangate.yaml that is a valid policy", async () => {
    const r = await cli(["init"], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout: "wrote plangate.yaml\n" });
    const text = readFileSync(join(dir, "plangate.yaml"), "utf8");
    expect(text).toBe(`${schemaComment(join(dir, "plangate.yaml"))}\n${STARTER_POLICY}`);
    expect(text).toContain("# ");
    await expect(parsePolicyText(text, "plangate.yaml")).resolves.toMatchObject({ workspace: ".", plan: { maxAgeDays: 30 } });
  });
  it("--host claude-code writes the Claude Code starter policy: the profile, constraints allowed, free reads, plan mode's plans pending", async () => {
    const r = await cli(["init", "--host", "claude-code"], { cwd: dir });
    expect(r).toMatchObject({ code: 0, stdout: "wrote plangate.yaml\n" });
    const text = readFileSync(join(dir, "plangate.yaml"), "utf8");
    expect(text).toBe(`${schemaComment(join(dir, "plangate.yaml"))}\n${CLAUDE_CODE_STARTER_POLICY}`);
    const { policy } = await loadPolicy({ cwd: dir });
    expect(policy).toMatchObject({ host: "claude-code", plan: { constraints: "allow", allowOpenArguments: false }, guard: { free: ["Read", "Glob", "Grep", "LS"], noRun: "allow-free" }, approval: { onPlanAccepted: "pending" } });
    // The example plan of examples/claude-code validates under it, the profile's tools being the allow list.
    const md = readFileSync(join(import.meta.dirname, "../examples/claude-code/plan.md"), "utf8");
    writeFileSync(join(dir, "plan.json"), md.slice(md.indexOf("```json\n") + 8, md.lastIndexOf("```")));
    // The project file its Edit changes: the tests then load the result, JavaScript the starter policy trusts (writtenCode).
    mkdirSync(join(dir, "src"), { recursive: true });
    writeFileSync(join(dir, "src/index.js"), "export {};\n");
    const ok = await cli(["validate", "plan.json", "-o", "json"], { cwd: dir });
    expect(ok.code, ok.stdout + ok.stderr).toBe(0);
    // A tool Claude Code does not have is refused under it.
    writeFileSync(join(dir, "bad.json"), JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: "a.txt", content: "x" } }] }));
    const bad = await cli(["validate", "bad.json"], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(bad.stdout).toContain("unknown-tool");
  });
  it("--host with no starter policy is a usage error (exit 2)", async () => {
    const r = await cli(["init", "--host", "vscode"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no starter policy for "vscode" (known: generic, claude-code)');
  });
  it("refuses to overwrite an existing file without --force (exit 2)", async () => {
    writeFileSync(join(dir, "plangate.yaml"), "mine: true\n");
    const r = await cli(["init"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("already exists; pass --force");
    expect(readFileSync(join(dir, "plangate.yaml"), "utf8")).toBe("mine: true\n");
    expect((await cli(["init", "--force"], { cwd: dir })).code).toBe(0);
    expect(readFileSync(join(dir, "plangate.yaml"), "utf8")).toBe(`${schemaComment(join(dir, "plangate.yaml"))}\n${STARTER_POLICY}`);
  });
  it("starts with a yaml-language-server line that points at the published policy schema", async () => {
    await cli(["init"], { cwd: dir });
    const first = readFileSync(join(dir, "plangate.yaml"), "utf8").split("\n")[0]!;
    const m = /^# yaml-language-server: \$schema=(.+)$/.exec(first);
    expect(m).not.toBeNull();
    const schema = JSON.parse(readFileSync(resolve(dir, m![1]!), "utf8")) as { $id: string };
    expect(schema.$id).toBe("urn:plangate:schema:policy");
  });
  it("writes elsewhere with --out and is picked up by validate", async () => {
    expect((await cli(["init", "--out", ".plangate.yaml", "--output", "json"], { cwd: dir })).stdout).toContain('"written"');
    writeFileSync(join(dir, "plan.yaml"), "steps:\n  - tool: read_file\n    arguments: {path: a.txt}\n    intent: Read a\n");
    const r = await cli(["validate", "plan.yaml", "--output", "json"], { cwd: dir });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].diagnostics).toEqual([]);
  });
  it.each([".plangate.yaml", "plangate.json", "plangate.yml"])("refuses to add plangate.yaml beside %s (two would be ambiguous)", async (other) => {
    writeFileSync(join(dir, other), "{}\n");
    const r = await cli(["init"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${other} is already a policy file in that folder`);
    expect((await cli(["init", "--out", "elsewhere.yaml"], { cwd: dir })).code).toBe(0);
  });
});
