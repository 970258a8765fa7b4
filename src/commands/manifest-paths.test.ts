import { describe, expect, it } from "vitest";
import { diagnosticsOf, run as validate } from "../../test/helpers.js";

const write = (path: string, content: string) => ({ tool: "write_file", arguments: { path, content }, intent: "write" });
const run = (command: string) => ({ tool: "run_command", arguments: { command }, intent: "run" });
const plan = (...steps: unknown[]) => JSON.stringify({ steps });

/** [manifest, its text, the command that loads it, the path refused (undefined: none)]. */
const OUTSIDE: readonly (readonly [string, string, string, string | undefined])[] = [
  ["go.mod", "module a\nreplace x => ../y\n", "go build ./...", "../y"],
  ["go.mod", "module a\nreplace (\n\tx v1.0.0 => ../y\n\tz => example.com/z v1.2.0\n)\n", "go test ./...", "../y"],
  ["go.mod", "module a\nreplace x=>/tmp/y\n", "go run .", "/tmp/y"],
  ["go.work", "go 1.22\nuse (\n\t.\n\t../y\n)\n", "go build", "../y"],
  ["go.work", "use ../y\n", "go vet ./...", "../y"],
  ["Cargo.toml", '[dependencies]\nserde = "1"\nx = { path = "../y" }\n', "cargo build", "../y"],
  ["Cargo.toml", '[patch.crates-io]\nx = { path = "/tmp/y" }\n', "cargo test", "/tmp/y"],
  ["Cargo.toml", '[workspace]\nmembers = [\n  "a",\n  "../y",\n]\n', "cargo run", "../y"],
  ["Cargo.toml", '[dependencies.x]\npath = "../y"\n', "cargo build", "../y"],
  ["Cargo.toml", '[dependencies]\nx = { "path" = "\\u002e\\u002e/y" }\n', "cargo build", "../y"],
  ["package.json", '{"dependencies":{"x":"file:../y"}}', "npm install", "../y"],
  ["package.json", '{"devDependencies":{"x":"link:../y"}}', "pnpm install", "../y"],
  ["package.json", '{"dependencies":{"x":"portal:../y"}}', "yarn", "../y"],
  ["package.json", '{"dependencies":{"x":"../y"}}', "npm ci", "../y"],
  ["package.json", '{"workspaces":["packages/*","../y/*"]}', "npm install", "../y/"],
  ["package.json", '{"dependencies":{"x":"exec:../gen.js"}}', "yarn install", "../gen.js"],
  ["package.json", '{"resolutions":{"x":"patch:x@npm%3A1.0.0#../p.patch"}}', "yarn install", "../p.patch"],
  ["package.json", '{"resolutions":{"x":"patch:x@file%3A../y#./p.patch::locator=a"}}', "yarn install", "../y"],
  ["package.json", '{"dependencies":{"x":"git+FILE:///y"}}', "npm install", "/y"],
  ["package.json", '{"pnpm":{"patchedDependencies":{"x@1.0.0":"../p.patch"}}}', "pnpm install", "../p.patch"],
  ["requirements.txt", "-e ../y\nrequests==2.0\n", "pip install -r requirements.txt", "../y"],
  ["requirements.txt", "x @ file:///abs/y\n", "uv pip install -r requirements.txt", "/abs/y"],
  ["requirements.txt", "-r ../other.txt\n", "pip install -r requirements.txt", "../other.txt"],
  ["dev.txt", "--find-links ../w\nx\n", "pip install -r dev.txt", "../w"],
  ["requirements.txt", "../y\n", "uv pip sync requirements.txt", "../y"],
  ["pyproject.toml", '[project]\nname = "a"\ndependencies = ["x"]\n[tool.uv.sources]\nx = { path = "../y" }\n', "uv sync", "../y"],
  ["pyproject.toml", '[tool.poetry.dependencies]\npython = "^3.11"\nx = { path = "../y", develop = true }\n', "poetry install", "../y"],
  ["pyproject.toml", '[project]\nname = "a"\ndependencies = ["x @ file:///tmp/y"]\n', "pip install .", "/tmp/y"],
  // Local paths inside the workspace, versions, registries and URLs: nothing to refuse.
  ["go.mod", "module a\nreplace x => ./vendor/x\nreplace z => example.com/z v1.2.0\n", "go build ./...", undefined],
  ["Cargo.toml", '[package]\nname = "a"\nrepository = "https://x/y"\n[dependencies]\nserde = { version = "1", features = ["derive"] }\nlocal = { path = "crates/local" }\n', "cargo build", undefined],
  ["package.json", '{"dependencies":{"a":"^1.0.0","b":"file:./b","c":"github:x/y"}}', "npm install", undefined],
  ["package.json", '{"resolutions":{"x":"patch:x@npm%3A1.0.0#./.yarn/patches/x.patch::version=1.0.0&hash=abc"},"pnpm":{"patchedDependencies":{"y@1":"patches/y.patch"}}}', "yarn install", undefined],
  ["requirements.txt", "requests>=2\nflask[async]==3.0 ; python_version >= '3.9'\nx @ https://example.com/x.whl\n-e ./pkg\n", "pip install -r requirements.txt", undefined],
  // Written but not loaded: `go version` reads no module.
  ["go.mod", "module a\nreplace x => ../y\n", "go version", undefined],
];

describe("dependency manifests a plan writes: local paths outside the workspace", () => {
  it.each(OUTSIDE)("%s %j then %s", async (file, text, command, path) => {
    const found = await diagnosticsOf("path-outside-workspace", plan(write(file, text), run(command)));
    const named = found.filter((d) => d.messageId === "commandPathOutside");
    if (path === undefined) expect(named).toEqual([]);
    else {
      expect(named.length).toBeGreaterThan(0);
      expect(named.every((d) => d.step === 2)).toBe(true);
      expect(named[0]!.message).toContain(`names "${path}"`);
      expect(named[0]!.message).toContain(`(in ${file}'s `);
      expect(named[0]!.message).toContain("which step 1 writes");
    }
  });

  it.each([
    ["go.mod", 'module a\nreplace x => "..\\u002fy"\n', "go build"],
    ["Cargo.toml", '[dependencies]\nx = { path = """\n../y""" }\n', "cargo build"],
    ["requirements.txt", "-e ${HOME}/y\n", "pip install -r requirements.txt"],
    ["package.json", '{"dependencies": {"x": "file:../y"}', "npm install"],
  ])("a text it cannot read where it may name a path is refused: %s %j", async (file, text, command) => {
    const found = await diagnosticsOf("disallowed-tool", plan(write(file, text), run(command)));
    expect(found.map((d) => [d.step, d.messageId])).toContainEqual([2, "writtenUnreadable"]);
  });

  it("a manifest written by a command line, its text not in the plan, is refused before a build loads it", async () => {
    const found = await diagnosticsOf("disallowed-tool", plan(run("echo 'replace x => ../y' >> go.mod"), run("go build ./...")));
    expect(found.map((d) => [d.step, d.messageId])).toEqual([[2, "writtenUnknown"]]);
  });

  it("a manifest in a folder is read from that folder", async () => {
    const inside = await validate(plan(write("crates/a/Cargo.toml", '[dependencies]\nb = { path = "../b" }\n'), run("cargo build")));
    expect(inside.diagnostics.filter((d) => d.rule === "path-outside-workspace")).toEqual([]);
    const outside = await diagnosticsOf("path-outside-workspace", plan(write("crates/a/Cargo.toml", '[dependencies]\nb = { path = "../../../b" }\n'), run("cargo build")));
    expect(outside.map((d) => d.messageId)).toContain("commandPathOutside");
  });
});
