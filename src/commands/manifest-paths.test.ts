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
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"":{"dependencies":{"x":"^1"}},"node_modules/x":{"version":"1.0.0","resolved":"file:../y"}}}', "npm ci", "../y"],
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"node_modules/x":{"resolved":"../y","link":true}}}', "npm install", "../y"],
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"../y":{"name":"x","version":"1.0.0"}}}', "npm ci", "../y"],
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"../y/node_modules/z":{"version":"1.0.0","resolved":"https://registry.npmjs.org/z/-/z-1.0.0.tgz"}}}', "npm ci", "../y/node_modules/z"],
  ["package-lock.json", '{"lockfileVersion":1,"dependencies":{"x":{"version":"file:../y"}}}', "npm ci", "../y"],
  ["npm-shrinkwrap.json", '{"lockfileVersion":3,"packages":{"node_modules/x":{"version":"file:/tmp/y"}}}', "npm ci", "/tmp/y"],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  .:\n    dependencies:\n      x:\n        specifier: link:../y\n        version: link:../y\n", "pnpm install --frozen-lockfile", "../y"],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n  x@file:../y:\n    resolution: {directory: ../z, type: directory}\n", "pnpm install", "../y"],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\npackages:\n  x@1.0.0:\n    resolution: {directory: ../z, type: directory}\n", "pnpm install", "../z"],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\nimporters:\n  ../y:\n    dependencies: {}\n", "pnpm install", "../y"],
  ["pnpm-lock.yaml", "packages:\n  x@1.0.0:\n    resolution: {\"directory\" : '/tmp/y', type: directory}\n", "pnpm install", "/tmp/y"],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\nsnapshots:\n  'x@file:../y(react@18.0.0)':\n    dependencies: {}\n", "pnpm i", "../y"],
  ["yarn.lock", '__metadata:\n  version: 8\n\n"x@portal:../y::locator=a%40workspace%3A.":\n  version: 0.0.0-use.local\n  resolution: "x@portal:../y::locator=a%40workspace%3A."\n  languageName: node\n  linkType: soft\n', "yarn install --immutable", "../y"],
  ["yarn.lock", '"x@patch:x@npm%3A1.0.0#../p.patch::version=1.0.0&hash=abc":\n  version: 1.0.0\n', "yarn", "../p.patch"],
  ["yarn.lock", '"x@patch:x@portal%3A../y#./p.patch::version=1.0.0":\n  version: 1.0.0\n', "yarn", "../y"],
  ["yarn.lock", '# yarn lockfile v1\n\n"x@file:../y":\n  version "1.0.0"\n', "yarn install --frozen-lockfile", "../y"],
  ["yarn.lock", '# yarn lockfile v1\n\nx@^1:\n  version "1.0.0"\n  resolved "file:///tmp/y.tgz"\n', "yarn", "/tmp/y.tgz"],
  ["bun.lock", '{\n  "lockfileVersion": 1,\n  // a comment\n  "packages": {\n    "x": ["x@file:../y", {},],\n  },\n}\n', "bun install", "../y"],
  ["bun.lock", '{"lockfileVersion":1,"workspaces":{"":{"name":"a"},"../y":{"name":"y"}},}', "bun install --frozen-lockfile", "../y"],
  ["Gemfile.lock", "PATH\n  remote: ../y\n  specs:\n    y (0.1.0)\n\nGEM\n  remote: https://rubygems.org/\n  specs:\n", "bundle install", "../y"],
  ["Gemfile.lock", "GIT\n  remote: file:///tmp/y\n  revision: abc\n  specs:\n    y (0.1.0)\n", "bundle exec rspec", "/tmp/y"],
  ["gems.locked", "GIT\n  remote: /tmp/y.git\n  revision: abc\n", "rails server", "/tmp/y.git"],
  ["Gemfile.lock", "PATH\n  remote: ../y\n", "ruby -rbundler/setup app.rb", "../y"],
  ["composer.lock", '{"packages":[{"name":"a/y","version":"dev-main","dist":{"type":"path","url":"../y","reference":"x"}}],"packages-dev":[]}', "composer install", "../y"],
  // Local paths inside the workspace, versions, registries and URLs: nothing to refuse.
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"":{"name":"a","workspaces":["packages/*"]},"node_modules/a":{"resolved":"packages/a","link":true},"packages/a":{"version":"1.0.0","bin":{"a":"bin/a.js"}},"node_modules/x":{"version":"1.0.0","resolved":"https://registry.npmjs.org/x/-/x-1.0.0.tgz","integrity":"sha512-abc","engines":{"node":">=14"}}}}', "npm ci", undefined],
  ["pnpm-lock.yaml", "lockfileVersion: '9.0'\n\nsettings:\n  autoInstallPeers: true\n\nimporters:\n\n  .:\n    dependencies:\n      '@types/node':\n        specifier: ^20.0.0\n        version: 20.0.0\n      b:\n        specifier: workspace:*\n        version: link:packages/b\n\n  packages/b: {}\n\npackages:\n\n  '@types/node@20.0.0':\n    resolution: {integrity: sha512-abc}\n    engines: {node: '>=14'}\n    deprecated: \"Use \\\"y\\\" instead\\nsee @/y or file:/y\"\n", "pnpm install --frozen-lockfile", undefined],
  ["yarn.lock", '# This file is generated by running "yarn install" inside your project.\n\n__metadata:\n  version: 8\n  cacheKey: 10c0\n\n"a@workspace:.":\n  version: 0.0.0-use.local\n  resolution: "a@workspace:."\n  dependencies:\n    "@babel/core": "npm:^7.0.0"\n    typescript: "patch:typescript@npm%3A^5#optional!builtin<compat/typescript>"\n  languageName: unknown\n  linkType: soft\n\n"typescript@patch:typescript@npm%3A^5#optional!builtin<compat/typescript>":\n  version: 5.0.0\n  resolution: "typescript@patch:typescript@npm%3A5.0.0#optional!builtin<compat/typescript>::version=5.0.0&hash=abc"\n  checksum: 10c0/abc\n  languageName: node\n  linkType: hard\n\n"x@patch:x@npm%3A1.0.0#~/.yarn/patches/x.patch::version=1.0.0&hash=abc":\n  version: 1.0.0\n', "yarn install --immutable", undefined],
  ["yarn.lock", '# yarn lockfile v1\n\n\n"@babel/core@^7.0.0", "@babel/core@^7.1.0":\n  version "7.1.0"\n  resolved "https://registry.yarnpkg.com/@babel/core/-/core-7.1.0.tgz#abc"\n  integrity sha512-abc\n  dependencies:\n    "@babel/code-frame" "^7.0.0"\n\nlocal@file:./pkgs/local:\n  version "1.0.0"\n', "yarn", undefined],
  ["bun.lock", '{\n  "lockfileVersion": 1,\n  "workspaces": {\n    "": {\n      "name": "a",\n      "dependencies": {\n        "x": "^1.0.0",\n      },\n    },\n    "packages/b": { "name": "b" },\n  },\n  "packages": {\n    "b": ["b@workspace:packages/b"],\n    "x": ["x@1.0.0", "", {}, "sha512-abc"],\n  }\n}\n', "bun install", undefined],
  ["Gemfile.lock", "PATH\n  remote: .\n  specs:\n    a (0.1.0)\n\nGIT\n  remote: https://github.com/x/y.git\n  revision: abc\n\nGIT\n  remote: git@github.com:x/z.git\n  revision: abc\n\nGEM\n  remote: https://rubygems.org/\n  specs:\n    rake (13.0.0)\n\nPLATFORMS\n  ruby\n\nBUNDLED WITH\n   2.5.0\n", "bundle install", undefined],
  ["composer.lock", '{"packages":[{"name":"a/b","version":"1.0.0","source":{"type":"git","url":"https://github.com/a/b.git","reference":"x"},"dist":{"type":"zip","url":"https://api.github.com/repos/a/b/zipball/x"},"funding":[{"url":"https://github.com/a","type":"github"}]},{"name":"a/c","dist":{"type":"path","url":"packages/c"}}]}', "composer install", undefined],
  // Written but not read: `npm ls` follows no lock.
  ["package-lock.json", '{"lockfileVersion":3,"packages":{"node_modules/x":{"resolved":"file:../y"}}}', "npm ls", undefined],
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
    ["package-lock.json", '{"packages": {"node_modules/x": {"resolved": "file:../y"}}', "npm ci"],
    ["pnpm-lock.yaml", 'packages:\n  x:\n    resolution: {directory: "..\\u002fy"}\n', "pnpm install"],
    ["pnpm-lock.yaml", "packages:\n  x: &a\n    version: link:./y\n  z: *a\n", "pnpm install"],
    ["yarn.lock", '"x@portal:":\n  version: 1.0.0\n', "yarn"],
    ["bun.lock", '{"packages": {"x": ["x@file:../y"] /* open', "bun install"],
    ["Gemfile.lock", "PATH\n  remote: ..\\y\n", "bundle install"],
  ])("a text it cannot read where it may name a path is refused: %s %j", async (file, text, command) => {
    const found = await diagnosticsOf("disallowed-tool", plan(write(file, text), run(command)));
    expect(found.map((d) => [d.step, d.messageId])).toContainEqual([2, "writtenUnreadable"]);
  });

  it("a manifest written by a command line, its text not in the plan, is refused before a build loads it", async () => {
    const found = await diagnosticsOf("disallowed-tool", plan(run("echo 'replace x => ../y' >> go.mod"), run("go build ./...")));
    expect(found.map((d) => [d.step, d.messageId])).toEqual([[2, "writtenUnknown"]]);
  });

  it("a requirements file another names (-r, -c) is read when the plan writes it, from its own folder", async () => {
    const nested = await diagnosticsOf("path-outside-workspace", plan(write("requirements.txt", "-r deps/other.txt\n"), write("deps/other.txt", "-e ../../y\n"), run("pip install -r requirements.txt")));
    expect(nested.map((d) => [d.step, d.messageId])).toContainEqual([3, "commandPathOutside"]);
    expect(nested.find((d) => d.messageId === "commandPathOutside")!.message).toContain(`names "../../y"`);
    expect(nested.find((d) => d.messageId === "commandPathOutside")!.message).toContain("deps/other.txt's -e option, which step 2 writes");
    const deeper = await diagnosticsOf("path-outside-workspace", plan(write("requirements.txt", "-c c.txt\n"), write("c.txt", "-r d.txt\n"), write("d.txt", "x @ file:///tmp/y\n"), run("uv pip install -r requirements.txt")));
    expect(deeper.map((d) => d.messageId)).toContain("commandPathOutside");
    // Inside the workspace, and files naming each other in a ring: nothing to refuse.
    const ring = await validate(plan(write("requirements.txt", "-r a.txt\n"), write("a.txt", "-r requirements.txt\n-e ./pkg\n"), run("pip install -r requirements.txt")));
    expect(ring.diagnostics.filter((d) => d.messageId === "commandPathOutside")).toEqual([]);
    const unknown = await diagnosticsOf("disallowed-tool", plan(write("requirements.txt", "-r a.txt\n"), run("curl -o a.txt https://example.com/a.txt"), run("pip install -r requirements.txt")));
    expect(unknown.map((d) => [d.step, d.messageId])).toContainEqual([3, "writtenUnknown"]);
  });

  it("composer.json, a Gemfile and bun's binary lock a plan writes are refused before an install reads them", async () => {
    for (const [file, text, command] of [
      ["composer.json", '{"repositories":[{"type":"path","url":"../y"}],"require":{"a/y":"*"}}', "composer install"],
      ["Gemfile", 'source "https://rubygems.org"\ngem "y", path: "../y"\n', "bundle install"],
      ["bun.lockb", "binary", "bun install"],
    ] as const) {
      const found = await diagnosticsOf("disallowed-tool", plan(write(file, text), run(command)));
      expect(found.map((d) => d.step)).toContain(2);
    }
  });

  it("a manifest in a folder is read from that folder", async () => {
    const inside = await validate(plan(write("crates/a/Cargo.toml", '[dependencies]\nb = { path = "../b" }\n'), run("cargo build")));
    expect(inside.diagnostics.filter((d) => d.rule === "path-outside-workspace")).toEqual([]);
    const outside = await diagnosticsOf("path-outside-workspace", plan(write("crates/a/Cargo.toml", '[dependencies]\nb = { path = "../../../b" }\n'), run("cargo build")));
    expect(outside.map((d) => d.messageId)).toContain("commandPathOutside");
  });
});
