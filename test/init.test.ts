import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { schemaComment, STARTER_POLICY } from "../src/cli/commands/init.js";
import { parsePolicyText } from "../src/node/policy.js";
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
