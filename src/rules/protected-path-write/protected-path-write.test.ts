import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";

let root: string;
let ws: string;
beforeAll(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-protected-")));
  ws = join(root, "ws");
  mkdirSync(join(ws, ".git", "hooks"), { recursive: true });
  mkdirSync(join(ws, "src"));
  symlinkSync(join(ws, ".git", "hooks"), join(ws, "hooks"));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const plan = (tool: string, args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "x" }] });
const check = (tool: string, args: Record<string, unknown>, policy = defaultPolicy(ws)) =>
  diagnosticsOf("protected-path-write", plan(tool, args), { workspace: ws, policy });

describe("protected-path-write", () => {
  it.each([
    ["write_file", { path: ".git/config" }],
    ["edit_file", { path: ".env" }],
    ["write_file", { path: ".env.production" }],
    ["write_file", { path: "deploy/keys/server.pem" }],
    ["delete_file", { path: "config/.env.local" }],
    ["write_file", { path: ".GIT/HEAD" }],
    ["write_file", { path: "hooks/pre-commit" }],
    ["write_file", { path: "./src/../.git/index" }],
    ["move_file", { source: "a.txt", destination: "plangate.yaml" }],
    ["Write_File", { path: ".git/config" }],
    ["save_report", { path: ".env" }],
    ["fs.putObject", { path: ".git/HEAD" }],
    ["git-commit", { cwd: ".git" }],
  ])("reports %s %j", async (tool, args) => {
    const d = await check(tool, args);
    expect(d).toHaveLength(1);
    expect(d[0]!.step).toBe(1);
  });
  it("names the tool and the path", async () => {
    const d = await check("write_file", { path: ".git/config" });
    expect(d[0]!.message).toBe('Step 1: "write_file" would write to the protected path ".git/config".');
    expect(d[0]!.pointer).toBe("/steps/0/arguments/path");
  });
  it("lets read tools read protected paths, and write tools write others", async () => {
    expect(await check("read_file", { path: ".git/config" })).toEqual([]);
    expect(await check("list_directory", { path: ".git" })).toEqual([]);
    expect(await check("get_settings", { path: ".env" })).toEqual([]);
    expect(await check("write_file", { path: "src/app.ts" })).toEqual([]);
    expect(await check("write_file", { path: "environment.md" })).toEqual([]);
  });
  it("uses the policy's write tools and protected globs", async () => {
    const policy = defaultPolicy(ws);
    policy.tools.write.push("upload");
    policy.paths.protected.push("secrets/**");
    expect(await check("upload", { path: "secrets/a" }, policy)).toHaveLength(1);
  });
});
