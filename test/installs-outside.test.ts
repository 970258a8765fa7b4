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

describe("a Python project manager's environment", () => {
  const venv = (ws: string, folder = ".venv") => mkdirSync(join(ws, folder, "bin"), { recursive: true });

  it("refuses poetry install unless the project keeps its environment inside: poetry.toml, a .venv folder, or the line", async () => {
    const bare = workspace({ "pyproject.toml": "[tool.poetry]\nname = 'x'\n" });
    expect(await refusals(bare, "poetry install")).toEqual([
      `commandInstallsOutside: Step 1: the command in "command" writes outside the workspace ${bare} without naming it: "poetry install" writes to Poetry's virtual environments folder (~/.cache/pypoetry/virtualenvs), as the project keeps no environment of its own (.venv).`,
    ]);
    // `poetry run` is no install; the line's setting and the policy's way out pass.
    for (const line of ["poetry run pytest", "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install", "POETRY_VIRTUALENVS_IN_PROJECT=1 poetry add x"]) expect(await refusals(bare, line), line).toEqual([]);
    expect(await refusals(bare, "poetry install", {}, (p) => (p.commands.installOutside = ["poetry"]))).toEqual([]);
    expect(await refusals(workspace({ "pyproject.toml": "", "poetry.toml": "[virtualenvs]\nin-project = true\n" }), "poetry install")).toEqual([]);
    expect(await refusals(workspace({ "pyproject.toml": "", "poetry.toml": "virtualenvs = { in-project = true }\n" }), "poetry sync")).toEqual([]);
    const withVenv = workspace({ "pyproject.toml": "" });
    venv(withVenv);
    expect(await refusals(withVenv, "poetry install")).toEqual([]);
  });

  it("refuses what the project's poetry.toml says takes the environment out, whatever the line or the .venv", async () => {
    const noVenv = workspace({ "pyproject.toml": "", "poetry.toml": "[virtualenvs]\nin-project = true\ncreate = false\n" });
    venv(noVenv);
    for (const line of ["poetry install", "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install"])
      expect((await refusals(noVenv, line))[0], line).toContain(`"create = false" in poetry.toml (line 3) takes it out of the project`);
    const notIn = workspace({ "pyproject.toml": "", "poetry.toml": "[virtualenvs]\nin-project = false\n" });
    venv(notIn);
    expect((await refusals(notIn, "poetry install"))[0]).toContain(`"in-project = false" in poetry.toml (line 2)`);
    // The line's own setting is stronger than the file's in-project; a key written with an escape may say anything.
    expect(await refusals(notIn, "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install")).toEqual([]);
    expect(await refusals(workspace({ "pyproject.toml": "", "poetry.toml": '[virtualenvs]\n"in\\u002dproject" = true\n' }), "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install")).toHaveLength(1);
    expect(await refusals(workspace({ "pyproject.toml": "", "poetry.toml": "x".repeat(70_000) }), "poetry install")).toEqual([expect.stringContaining("plangate does not read it (it is larger than 64 KiB)")]);
  });

  it("refuses a poetry.toml or pdm.toml the plan writes before the manager runs: plangate reads the one on disk", async () => {
    const ws = workspace({ "pyproject.toml": "" });
    venv(ws);
    const policy = defaultPolicy(ws);
    const steps = (file: string, text: string, command: string) =>
      JSON.stringify({ steps: [{ tool: "write_file", arguments: { path: file, content: text }, intent: "configure" }, { tool: "run_command", arguments: { command }, intent: "install" }] });
    const ids = async (file: string, text: string, command: string) => (await validatePlan(steps(file, text, command), { policy, tools: ["run_command", "write_file"] })).diagnostics.filter((d) => d.severity === "error").map((d) => d.messageId);
    expect(await ids("poetry.toml", "[virtualenvs]\ncreate = false\n", "poetry install")).toEqual(["writtenManifest"]);
    expect(await ids("pdm.toml", "[venv]\nin_project = false\n", "pdm install")).toEqual(["writtenManifest"]);
    // Settings of nothing of the kind are data.
    expect(await ids("poetry.toml", "[installer]\nparallel = true\n", "poetry install")).toEqual([]);
  });

  it("finds the project's root as the manager does: the nearest folder up with its project file, or the folder an option names", async () => {
    const ws = workspace({ "app/pyproject.toml": "", "app/src/.keep": "", "lib/.keep": "" });
    venv(ws, "app/.venv");
    for (const [line, extra] of [["poetry install", { cwd: "app/src" }], ["cd app && poetry install", {}], ["poetry -C app install", {}], ["poetry --directory=app add x", {}]] as const)
      expect(await refusals(ws, line, extra), line).toEqual([]);
    // The workspace root has no .venv: a project there, or one an option puts outside, is refused.
    expect(await refusals(ws, "poetry install", { cwd: "lib" })).toHaveLength(1);
    expect(await refusals(ws, "poetry -C ../elsewhere install")).toContainEqual(expect.stringMatching(/^commandInstallsOutside: .*"poetry install" writes to Poetry's/));
    // A .venv that leads outside the workspace is not the project's.
    const linked = workspace({ "pyproject.toml": "" });
    mkdirSync(join(linked, "..", "outside-venv"));
    symlinkSync("../outside-venv", join(linked, ".venv"));
    for (const line of ["poetry install", "POETRY_VIRTUALENVS_IN_PROJECT=true poetry install", "PIPENV_VENV_IN_PROJECT=1 pipenv install"])
      expect(await refusals(linked, line), line).toEqual([expect.stringContaining("writes to the environment .venv leads to, which is no folder of the workspace")]);
  });

  it("refuses pipenv install unless the project keeps its environment in .venv, and a .venv file that names another", async () => {
    const ws = workspace({ Pipfile: "[packages]\n" });
    expect((await refusals(ws, "pipenv install requests"))[0]).toContain(`"pipenv install" writes to pipenv's virtual environments folder`);
    for (const line of ["PIPENV_VENV_IN_PROJECT=1 pipenv install", "pipenv run pytest", "pipenv lock"]) expect(await refusals(ws, line), line).toEqual([]);
    const inside = workspace({ Pipfile: "" });
    venv(inside);
    expect(await refusals(inside, "pipenv sync")).toEqual([]);
    const named = workspace({ Pipfile: "", ".venv": "/home/me/.virtualenvs/x\n" });
    for (const line of ["pipenv install", "PIPENV_VENV_IN_PROJECT=1 pipenv install"]) expect((await refusals(named, line))[0], line).toContain("the environment that the file .venv names");
  });

  it("is decided for a host's shell call as for a plan", async () => {
    const ws = workspace({ "pyproject.toml": "" });
    const policy = { workspace: ws, commands: { allow: [], deny: [], allowCompound: false }, protected: DEFAULT_PROTECTED_PATHS };
    expect((await hostCommandRefusal("Bash", { command: "poetry install" }, policy, createFileProbe))?.messageId).toBe("hostCommandInstallsOutside");
    venv(ws);
    expect(await hostCommandRefusal("Bash", { command: "poetry install" }, policy, createFileProbe)).toBeUndefined();
  });

  it("refuses PDM's installs when the project's pdm.toml takes the environment out of its .venv", async () => {
    expect(await refusals(workspace({ "pyproject.toml": "" }), "pdm install")).toEqual([]);
    const out = workspace({ "pdm.toml": "[venv]\nin_project = false\n" });
    expect((await refusals(out, "pdm install"))[0]).toContain(`"in_project = false" in pdm.toml (line 2) takes it out of the project's .venv`);
    expect(await refusals(out, "PDM_VENV_IN_PROJECT=true pdm install")).toEqual([]);
    expect(await refusals(workspace({ "pdm.toml": "python.use_venv = false\n" }), "pdm sync")).toHaveLength(1);
  });
});
