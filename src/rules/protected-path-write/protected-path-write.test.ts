import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { parseToolsText } from "../../node/tools-file.js";
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
    // Writers whose names hold no write verb: unknown tools write (fail closed).
    ["developer__text_editor", { path: ".git/config" }],
    ["text_editor", { path: ".env" }],
    ["sed", { file: ".git/hooks/pre-commit" }],
    ["tee", { file: "plangate.yaml" }],
    ["get_settings", { path: ".env" }],
    // Paths under names no list holds.
    ["NotebookEdit", { notebook_path: ".git/hooks/post-checkout" }],
    ["move_file", { from: "a.txt", to: ".git/hooks/pre-push" }],
    ["render", { output: ".env" }],
    ["render", { out: ".git/config" }],
    ["sync", { dst: ".git/HEAD" }],
    ["export", { outputPath: ".git/info/attributes" }],
    ["export", { report_file: ".env.local" }],
    ["export", { anything: ".git/config" }],
    ["fetch_page", { url: "file:///WS/.git/config" }],
    // A nested repository, the policy at any depth.
    ["write_file", { path: "vendor/lib/.git/hooks/post-merge" }],
    ["write_file", { path: "vendor/lib/.git" }],
    ["write_file", { path: "sub/plangate.yaml" }],
    ["write_file", { path: "a/b/.plangate.yml" }],
    ["write_file", { path: "deep/plangate.json" }],
    ["write_file", { path: "x/.plangate/keys/k" }],
    // Windows spellings of the same folder.
    ["write_file", { path: ".git./config" }],
    ["write_file", { path: ".git /config" }],
    ["write_file", { path: ".git. . /config" }],
    ["write_file", { path: ".GiT/config" }],
    ["write_file", { path: ".git::$INDEX_ALLOCATION/config" }],
    ["write_file", { path: ".git\\hooks\\pre-commit" }],
    ["write_file", { path: "plangate.yaml." }],
    ["write_file", { path: ".env:stream" }],
    // Compatibility forms a normalising file system folds: KELVIN SIGN, LONG S, full-width letters.
    ["write_file", { path: "deploy/server.\u212Aey" }],
    ["write_file", { path: ".\uFF45nv" }],
    ["write_file", { path: ".\uFF47it/config" }],
    ["write_file", { path: "a/.\u017Fsh/x" }],
    // Windows 8.3 short names stand for any long name; invisible code points HFS+ drops.
    ["write_file", { path: "GIT~1/hooks/pre-commit" }],
    ["write_file", { path: "ENV~1" }],
    ["write_file", { path: "PLANGA~1.YAM" }],
    ["write_file", { path: ".gi\u00ADt/config" }],
    ["write_file", { path: ".e\u034Fnv" }],
    // A reader told to write is a writer.
    ["read_file", { path: ".git/hooks/pre-commit", content: "x" }],
    ["Read", { file_path: "in.txt", output_file: ".env" }],
    ["grep", { pattern: "x", path: "src", save_as: "plangate.yaml" }],
    // A map from paths to contents.
    ["write_file", { files: { "src/a.txt": "a", ".git/hooks/pre-commit": "x" } }],
    ["apply", { changes: [{ ".env": "x" }] }],
  ])("reports %s %j", async (tool, args) => {
    const d = await check(tool, JSON.parse(JSON.stringify(args).replace("/WS/", `${ws}/`)) as Record<string, unknown>);
    expect(d).toHaveLength(1);
    expect(d[0]!.step).toBe(1);
  });
  it("names the tool and the path", async () => {
    const d = await check("write_file", { path: ".git/config" });
    expect(d[0]!.message).toBe('Step 1: "write_file" would write to the protected path ".git/config".');
    expect(d[0]!.pointer).toBe("/steps/0/arguments/path");
  });
  it("points at the value a path key names, and says what a short name is", async () => {
    const d = await check("write_file", { files: { ".git/config": "x" } });
    expect(d[0]!.pointer).toBe("/steps/0/arguments/files/.git~1config");
    const s = await check("write_file", { path: "GIT~1/config" });
    expect(s[0]!.message).toContain("Windows 8.3 short name");
    expect(await check("write_file", { path: "notes~old/a.txt" })).toEqual([]);
    expect(await check("read_file", { path: ".git/HEAD", from: 1, to: 10 })).toEqual([]);
  });
  it("lets read tools read protected paths, and write tools write others", async () => {
    expect(await check("read_file", { path: ".git/config" })).toEqual([]);
    expect(await check("list_directory", { path: ".git" })).toEqual([]);
    expect(await check("Read", { file_path: ".env" })).toEqual([]);
    expect(await check("READ", { path: "vendor/lib/.git/config" })).toEqual([]);
    expect(await check("write_file", { path: "src/app.ts" })).toEqual([]);
    expect(await check("write_file", { path: "environment.md" })).toEqual([]);
    expect(await check("write_file", { path: "docs/git.md", title: "a b" })).toEqual([]);
    expect(await check("write_file", { path: ".github/workflows/ci.yml" })).toEqual([]);
    expect(await check("write_file", { path: "gitignore.txt" })).toEqual([]);
  });
  it("decides writers by the registry's MCP annotations and the policy's read list", async () => {
    const registry = (annotations: Record<string, unknown>) =>
      parseToolsText(JSON.stringify({ tools: [{ name: "get_settings", inputSchema: { type: "object" }, annotations }] }), "tools.json");
    const run = (annotations: Record<string, unknown>) =>
      diagnosticsOf("protected-path-write", plan("get_settings", { path: ".env" }), { workspace: ws, policy: defaultPolicy(ws), tools: registry(annotations) });
    expect(await run({ readOnlyHint: true })).toEqual([]);
    expect(await run({ readOnlyHint: true, destructiveHint: true })).toHaveLength(1);
    expect(await run({ readOnlyHint: false })).toHaveLength(1);
    expect(await run({ title: "Settings" })).toHaveLength(1);
    const policy = defaultPolicy(ws);
    policy.tools.read!.push("get_settings");
    expect(await check("get_settings", { path: ".env" }, policy)).toEqual([]);
    // The write list wins over everything that says "reader".
    const both = defaultPolicy(ws);
    both.tools.read!.push("get_settings");
    both.tools.write.push("get_settings");
    expect(await check("get_settings", { path: ".env" }, both)).toHaveLength(1);
  });
  it("uses the policy's write tools and protected globs", async () => {
    const policy = defaultPolicy(ws);
    policy.tools.write.push("upload");
    policy.paths.protected.push("secrets/**");
    expect(await check("upload", { path: "secrets/a" }, policy)).toHaveLength(1);
  });
});
