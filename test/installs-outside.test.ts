import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defaultPolicy, validatePlan } from "../src/index.js";
import type { Policy } from "../src/core/policy.js";
import { projectConfigSetting } from "../src/commands/project-config.js";
import { hostCommandRefusal } from "../src/approval/host-command.js";
import { createFileProbe } from "../src/node/file-probe.js";
import { DEFAULT_PROTECTED_PATHS } from "../src/policy/defaults.js";

/*
 * Installs that go outside the workspace by what the line does not show: the project's own configuration of
 * the package manager, on disk (npm's and pnpm's .npmrc, Yarn's .yarnrc and .yarnrc.yml), read through the
 * validation's probe in the folder the command runs in and each one above it inside the workspace; and a
 * Python installer that is not the workspace's, which installs into whatever environment is in force.
 */

const tmp = realpathSync(mkdtempSync(join(tmpdir(), "plangate-installs-")));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
let n = 0;

/** A fresh workspace (inside a folder of its own, so a file beside it is outside) with the given files. */
function workspace(files: Record<string, string> = {}): string {
  const ws = join(tmp, `p${n++}`, "ws");
  mkdirSync(join(ws, ".git"), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(ws, name, ".."), { recursive: true });
    writeFileSync(join(ws, name), text);
  }
  return ws;
}

const plan = (command: string, extra: Record<string, unknown> = {}) => JSON.stringify({ scope: ".", steps: [{ tool: "run_command", arguments: { command, ...extra }, intent: "set up" }] });

async function refusals(ws: string, command: string, extra: Record<string, unknown> = {}, edit?: (p: Policy) => void) {
  const policy = defaultPolicy(ws);
  policy.commands.allowCompound = true;
  edit?.(policy);
  const report = await validatePlan(plan(command, extra), { policy, tools: ["run_command"] });
  return report.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.messageId}: ${d.message}`);
}

describe("a project's .npmrc that makes installs global", () => {
  it("refuses npm and pnpm installs as npm install -g is refused, naming the file and the setting", async () => {
    const ws = workspace({ ".npmrc": "registry=https://registry.example\n; a comment\nglobal = true\n" });
    expect(await refusals(ws, "npm install left-pad")).toEqual([
      `commandInstallsOutside: Step 1: the command in "command" writes outside the workspace ${ws} without naming it: "npm install" writes to npm's global prefix (its lib/node_modules, and its bin folder on the user's PATH): "global = true" in .npmrc (line 3) makes every npm install global.`,
    ]);
    for (const line of ["npm ci", "npm i -D vitest", "npm update", "npm uninstall x", "pnpm add x", "pnpm install", "npm --prefix=. install x && npm i y"])
      expect(await refusals(ws, line), line).toHaveLength(1);
    // What only reads or runs, the line's own --no-global, a folder the line names, and the policy's way out.
    for (const line of ["npm run build", "npm test", "npm ls", "npx vitest", "npm install --no-global x", "npm i --global=false x", "npm install --prefix ./tools x", "yarn add x", "pip download x"])
      expect(await refusals(ws, line), line).toEqual([]);
    expect(await refusals(ws, "npm install x", {}, (p) => (p.commands.installOutside = ["npm"]))).toEqual([]);
  });

  it("reads the folder the command runs in and each one above it up to the workspace root, and no higher", async () => {
    const ws = workspace({ "app/.npmrc": "location=global\n", "app/web/src/.keep": "", "lib/.keep": "" });
    writeFileSync(join(ws, "..", ".npmrc"), "global=true\n");
    expect(await refusals(ws, "npm install x")).toEqual([]);
    expect(await refusals(ws, "npm install x", { cwd: "lib" })).toEqual([]);
    expect(await refusals(ws, "npm install x", { cwd: "app/web/src" })).toHaveLength(1);
    expect(await refusals(ws, "cd app/web && npm install x")).toHaveLength(1);
    expect((await refusals(ws, "cd lib; npm i a; cd ../app; npm i b"))[0]).toContain('"location=global" in app/.npmrc (line 1)');
  });

  it("refuses what hands the decision to a file it does not read, or that it cannot read", async () => {
    expect((await refusals(workspace({ ".npmrc": "userconfig=./other.npmrc\n" }), "npm ci"))[0]).toContain('if the file that "userconfig=./other.npmrc" in .npmrc (line 1) names makes installs global');
    expect((await refusals(workspace({ ".npmrc": "global=${CI_GLOBAL}\n" }), "npm ci"))[0]).toContain('"global=${CI_GLOBAL}" in .npmrc');
    const folder = workspace();
    mkdirSync(join(folder, ".npmrc"));
    expect((await refusals(folder, "npm ci"))[0]).toContain("if .npmrc says so: plangate does not read it (it is not a regular file)");
    expect((await refusals(workspace({ ".npmrc": `${"x=1\n".repeat(20_000)}` }), "npm ci"))[0]).toContain("(it is larger than 64 KiB)");
    // A link is read where it leads, as npm reads it; one that leads nowhere is no file.
    const linked = workspace();
    writeFileSync(join(linked, "..", "shared.npmrc"), "global=true\n");
    symlinkSync("../shared.npmrc", join(linked, ".npmrc"));
    expect(await refusals(linked, "npm ci")).toHaveLength(1);
    const dangling = workspace();
    symlinkSync("../missing.npmrc", join(dangling, ".npmrc"));
    expect(await refusals(dangling, "npm ci")).toEqual([]);
  });

  it("is decided for a host's shell call as for a plan", async () => {
    const ws = workspace({ ".npmrc": "global\n" });
    const policy = { workspace: ws, commands: { allow: [], deny: [], allowCompound: false }, protected: DEFAULT_PROTECTED_PATHS };
    expect((await hostCommandRefusal("Bash", { command: "npm install left-pad" }, policy, createFileProbe))?.messageId).toBe("hostCommandInstallsOutside");
    expect(await hostCommandRefusal("Bash", { command: "npm run build" }, policy, createFileProbe)).toBeUndefined();
    expect(await hostCommandRefusal("Bash", { command: "npm install left-pad" }, { ...policy, workspace: workspace() }, createFileProbe)).toBeUndefined();
  });
});

describe("Yarn's project configuration", () => {
  it("refuses an install whose folders .yarnrc or .yarnrc.yml put outside the workspace, and passes one inside", async () => {
    expect((await refusals(workspace({ ".yarnrc": '--modules-folder "/tmp/nm"\n' }), "yarn add x"))[0]).toContain('writes to the folder "/tmp/nm" that "--modules-folder "/tmp/nm"" in .yarnrc (line 1) names');
    expect(await refusals(workspace({ ".yarnrc": "--install.modules-folder ../../nm\n" }), "yarn", { cwd: "pkg" })).toHaveLength(1);
    expect(await refusals(workspace({ "pkg/.yarnrc": "--install.modules-folder ../nm\n" }), "yarn", { cwd: "pkg" })).toEqual([]);
    expect(await refusals(workspace({ ".yarnrc.yml": "nodeLinker: pnp\nvirtualFolder: '../virtual'\n" }), "yarn install")).toHaveLength(1);
    expect(await refusals(workspace({ ".yarnrc.yml": "cacheFolder: /tmp/cache\nenableGlobalCache: true\n" }), "yarn install")).toEqual([]);
    expect(await refusals(workspace({ ".yarnrc": '--modules-folder "/tmp/nm"\n' }), "yarn run build")).toEqual([]);
  });
});

describe("reading a project configuration file", () => {
  it.each([
    [".npmrc", "global=true", "global=true"],
    [".npmrc", "  GLOBAL = 'True'", "GLOBAL = 'True'"],
    [".npmrc", "global", "global"],
    [".npmrc", "global=false", undefined],
    [".npmrc", "# global=true\n;global=true", undefined],
    [".npmrc", "location=global", "location=global"],
    [".npmrc", "location=project\nlocation=user", undefined],
    [".npmrc", "prefix=/usr/local", undefined],
    [".npmrc", "globalconfig=/etc/npmrc", "globalconfig=/etc/npmrc"],
    [".yarnrc", "registry \"https://r\"\n--modules-folder vendor", "--modules-folder vendor"],
    [".yarnrc", "cwd /elsewhere", "cwd /elsewhere"],
    [".yarnrc", "prefix \"/usr/local\"", undefined],
    [".yarnrc.yml", "pnpUnpluggedFolder: \"/x\"", "pnpUnpluggedFolder: \"/x\""],
    [".yarnrc.yml", "globalFolder: /x\ncacheFolder: /y", undefined],
  ])("%s: %j says %j", (file, text, setting) => {
    expect(projectConfigSetting(file, text)?.setting).toBe(setting);
  });
});

describe("a Python installer that is not the workspace's", () => {
  it("refuses pip and conda into the environment in force, and passes the workspace's own", async () => {
    const ws = workspace({ ".venv/bin/pip": "", "requirements.txt": "x\n" });
    for (const line of ["pip install -r requirements.txt", "python3 -m pip install -U pip", "pip uninstall -y x", "conda install numpy", "mamba install -y numpy"])
      expect((await refusals(ws, line))[0], line).toMatch(/^commandInstallsOutside: .* writes to the (Python|conda) environment (in force|active) where it runs/);
    for (const line of [
      ".venv/bin/pip install -r requirements.txt",
      ".venv/bin/python -m pip install -U pip",
      `${ws}/.venv/bin/pip install x`,
      "python3 -m venv .venv && .venv/bin/pip install -e .",
      "uv pip install -r requirements.txt",
      "uv sync",
      "pip install --target ./vendor x",
      "conda create -p ./env python=3.12 && conda install -p ./env numpy",
    ])
      expect(await refusals(ws, line), line).toEqual([]);
    // A virtual environment outside the workspace is outside; the policy may name pip for plans that run in one.
    expect(await refusals(ws, `${tmp}/venv/bin/pip install x`)).toHaveLength(1);
    expect(await refusals(ws, "pip install -r requirements.txt", {}, (p) => (p.commands.installOutside = ["pip"]))).toEqual([]);
  });
});
