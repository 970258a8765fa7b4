import fc from "fast-check";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NOW, run } from "../../test/helpers.js";
import { defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { loadShellReader, type ShellReader } from "../syntax/shell/parse.js";
import { analyseCommand } from "./analyse.js";
import { allowed, deniedBy, installAllowed } from "./match.js";
import { mayWriteOutside } from "./installs.js";
import { isRunner, isWrapper, mayRunOthers } from "./wrappers.js";
import { isInterpreter } from "./inline-code.js";
import { cpuBound } from "../../test/cpu-time.js";

let reader: ShellReader;
beforeAll(async () => {
  reader = await loadShellReader();
});

const tmp = mkdtempSync(join(tmpdir(), "plangate-commands-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function policyWith(commands: Partial<Policy["commands"]>, ws = "/workspace"): Policy {
  const p = defaultPolicy(ws);
  p.commands = { ...p.commands, ...commands };
  return p;
}

const intake = (args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "run_command", arguments: args, intent: "run it" }] }, null, 2);
const teddy = (command: string) => `# Run\n\n## Rationale\nWhy.\n\n## Action Plan\n\n### EXECUTE\n- **Description:** run\n\n\`\`\`shell\n${command}\n\`\`\`\n`;

describe("policy entries", () => {
  const policy = { allow: ["git status", "ls", "npm run *"], deny: ["rm", "git push", "curl*"], allowCompound: false };
  it.each([
    [["rm", "-rf", "x"], "rm"],
    [["/usr/bin/rm", "x"], "rm"],
    [["RM", "x"], "rm"],
    [["git", "push"], "git push"],
    [["git", "-C", "x", "push", "--force"], "git push"],
    [["git", undefined, "origin"], "git push"],
    [["curlie", "x"], "curl*"],
  ])("deny matches %j", (words, entry) => {
    expect(deniedBy(policy, words)).toBe(entry);
  });
  it.each([[["git", "pull"]], [["ls"]], [["rmdir", "x"]], [["git"]]])("deny passes %j", (words) => {
    expect(deniedBy(policy, words)).toBeUndefined();
  });
  it.each([
    [["git", "status"], true],
    [["git", "status", "--short"], true],
    [["git", "-c", "x", "status"], false],
    [["git", undefined], false],
    [["git"], false],
    [["ls", "-la"], true],
    [["/bin/ls"], true],
    [["npm", "run", "build"], true],
    [["npm", "install"], false],
    [["LS"], false],
  ])("allow judges %j as %s", (words, ok) => {
    expect(allowed(policy, words)).toBe(ok);
  });
  it("allows everything with an empty allow list", () => {
    expect(allowed({ allow: [], deny: [], allowCompound: false }, ["anything"])).toBe(true);
  });
});

describe("analysis", () => {
  const rules = (text: string, mode: "single" | "chain", commands: Partial<Policy["commands"]> = {}) =>
    analyseCommand(reader, text, mode, { allow: [], deny: [], allowCompound: false, ...commands }).findings.map((f) => f.rule);

  it("follows a line of pushd and cd to the end in bounded time", () => {
    // Each folder the shell may be in keeps its own stack: 2,000 pushd took 7.6 s before the stack was bounded.
    for (const line of ["pushd a;".repeat(2000), "pushd aaaaaaaaaaaaaaaa;".repeat(690), "pushd a;pushd a;popd;".repeat(760), "cd a;".repeat(3200)]) {
      // CPU time, not wall time: a loaded machine's other work does not count against the bound.
      const t0 = process.cpuUsage();
      expect(rules(line, "chain")).toContain("unresolved-argument");
      const used = process.cpuUsage(t0);
      expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(4000));
    }
  });

  it("follows programs that run programs, in both modes", () => {
    const r = analyseCommand(reader, "sudo -u root env -i A=1 timeout 5 xargs -n1 sh -c 'find . -exec nice -n 5 rm {} +'", "chain", { allow: [], deny: [], allowCompound: false });
    expect(r.programs).toEqual(["sudo", "env", "timeout", "xargs", "sh", "find", "nice", "rm"]);
    // xargs gives sh the words it reads: decided at run time.
    expect(r.findings.map((f) => f.messageId)).toEqual(["inputWords"]);
    expect(rules("xargs", "chain")).toEqual([]);
    expect(rules("xargs echo", "chain")).toEqual([]);
  });
  it("chains freely in chain mode and checks each program", () => {
    expect(rules("make && make test | tee log; ls || true", "chain")).toEqual([]);
    expect(rules("make && rm -rf build", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    expect(rules("make && make test", "single")).toEqual(["multiple-tools"]);
    expect(rules("make && make test", "single", { allowCompound: true })).toEqual([]);
  });
  it("resolves later relative words from the folder cd moved to", () => {
    const r = analyseCommand(reader, "cd sub && cat ../../x > out", "chain", { allow: [], deny: [], allowCompound: false });
    expect(r.paths).toEqual([
      { text: "sub", cwd: "", span: { start: 3, end: 6 }, program: "cd" },
      { text: "out", cwd: "sub", span: { start: 24, end: 27 } },
      { text: "../../x", cwd: "sub", span: { start: 14, end: 21 }, read: true, program: "cat" },
    ]);
  });
  it("reads what follows a cd from every folder the shell may be in", () => {
    const folders = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === ".").map((p) => p.cwd).sort();
    // A cd that fails (a missing folder, a file) leaves the shell where it was: `cd x; find . -delete` may delete the workspace.
    expect(folders("cd nonexistent; find . -delete")).toEqual(["", "nonexistent"]);
    expect(folders("cd sub\nfind . -delete")).toEqual(["", "sub"]);
    expect(folders("cd sub || true; find . -delete")).toEqual(["", "sub"]);
    // What runs only if the cd succeeded is read from its folder alone.
    expect(folders("cd sub && find . -delete")).toEqual(["sub"]);
    expect(folders("cd sub 2>/dev/null && make && find . -delete")).toEqual(["sub"]);
    expect(folders("cd sub || exit 1; find . -delete")).toEqual(["sub"]);
    expect(folders("cd sub || { echo no; exit 1; }; find . -delete")).toEqual(["sub"]);
    expect(folders("if cd sub; then find . -delete; fi")).toEqual(["sub"]);
    expect(folders("while cd /w; do find . -delete; done")).toEqual(["/w"]);
    // A subshell's cd does not outlive it: ( ... ), $(...), a part of a pipeline, a command run with &.
    expect(folders("(cd sub); find . -delete")).toEqual([""]);
    expect(folders("x=$(cd sub); find . -delete")).toEqual([""]);
    expect(folders("cd sub | true; find . -delete")).toEqual([""]);
    expect(folders("cd sub & find . -delete")).toEqual([""]);
    expect(folders("cd sub && (cd .. && find . -delete)")).toEqual(["sub/.."]);
    // builtin, command and time run cd in the shell itself; eval and trap are not followed.
    expect(folders("builtin cd sub && find . -delete")).toEqual(["sub"]);
    expect(folders("command cd sub; find . -delete")).toEqual(["", "sub"]);
    expect(folders("time cd sub; find . -delete")).toEqual(["", "sub"]);
    expect(rules("eval cd sub; find . -delete", "chain")).toContain("unresolved-argument");
    expect(rules("trap 'cd sub' DEBUG; ls", "chain")).toContain("unresolved-argument");
    // pushd keeps the folder it left, popd goes back to it.
    expect(folders("cd a && pushd b && popd && find . -delete")).toEqual(["a"]);
    expect(folders("pushd a && pushd && find . -delete")).toEqual([""]);
    expect(rules("pushd a && pushd +1 && ls", "chain")).toContain("unresolved-argument");
    // Under set -e a cd that fails ends the shell, unless its failure is tested (a condition, a list's part but the last, `!`).
    expect(folders("set -e; cd sub; find . -delete")).toEqual(["sub"]);
    expect(folders("set -euo pipefail\ncd sub\nfind . -delete")).toEqual(["sub"]);
    expect(folders("set -o errexit; true && cd sub; find . -delete")).toEqual(["sub"]);
    expect(folders("set -e; set +e; cd sub; find . -delete")).toEqual(["", "sub"]);
    expect(folders("set -e; cd sub || true; find . -delete")).toEqual(["", "sub"]);
    expect(folders("set -e; cd sub && true; find . -delete")).toEqual(["", "sub"]);
    expect(folders("set -e; ! cd sub; find . -delete")).toEqual(["", "sub"]);
    expect(folders("(set -e); cd sub; find . -delete")).toEqual(["", "sub"]);
    // bash clears set -e in a command substitution.
    expect(folders("set -e; x=$(cd sub; find . -delete)")).toEqual(["", "sub"]);
    // In a loop a relative cd moves again each time round; one in a subshell of the loop, or to an absolute folder, does not add up.
    expect(rules("cd a/b && for i in 1 2; do cd ..; done && find x -delete", "chain")).toContain("unresolved-argument");
    expect(rules("while cd ..; do ls; done", "chain")).toContain("unresolved-argument");
    expect(rules("for i in 1 2; do (cd sub && make); done", "chain")).toEqual([]);
    expect(rules("for i in 1 2; do cd /w; done", "chain")).toEqual([]);
    // The redirection tree-sitter-bash gives a list belongs to its last command.
    expect(analyseCommand(reader, "cd sub && echo k > out", "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "out").map((p) => p.cwd)).toEqual(["sub"]);
  });
  it("reads the paths after an option that moves a program to another folder from there", () => {
    const paths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.map((p) => [p.text, p.cwd, p.tree ?? false]);
    expect(paths("git -C vendor clean -fdx lib")).toEqual([["vendor", "", false], ["clean", "vendor", false], ["lib", "vendor", true]]);
    expect(paths("git -C vendor clean -fd")).toEqual([[".", "vendor", true], ["vendor", "", false], ["clean", "vendor", false]]);
    // git and make read each -C from the folder before it; the others keep the last one.
    expect(paths("git -C a -C b add x")).toEqual([["a", "", false], ["b", "a", false], ["add", "a/b", false], ["x", "a/b", false]]);
    expect(paths("git -C a -C .. status")).toEqual([["a", "", false], ["..", "a", false], ["status", "a/..", false]]);
    expect(paths("git -Ca -C.. status")).toEqual([["..", "a", false], ["status", "a/..", false]]);
    expect(paths("make -C a --directory=.. all")).toEqual([["a", "", false], ["..", "a", false], ["all", "a/..", false]]);
    expect(paths("env -C a -C b rm -rf x")).toEqual([["x", "b", true], ["a", "", false], ["b", "", false]]);
    expect(paths("pkgx -C vendor rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false]]);
    expect(paths("bwrap --chdir vendor rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false]]);
    expect(paths("flatpak-spawn --host --directory=vendor rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false]]);
    expect(paths("env -C vendor rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false]]);
    expect(paths("sudo --chdir=vendor rm -r lib")).toEqual([["lib", "vendor", true], ["vendor", "", false]]);
    expect(paths("pnpm -C vendor exec rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false], ["exec", "vendor", false]]);
    expect(paths("uv --directory vendor run rm -rf lib")).toEqual([["lib", "vendor", true], ["vendor", "", false], ["run", "vendor", false]]);
    expect(paths("cd src && yarn --cwd ../vendor exec 'rm -rf lib'")).toEqual([["src", "", false], ["lib", "src/../vendor", true], ["../vendor", "src", false], ["exec", "src/../vendor", false]]);
    expect(paths("make -C vendor clean")).toEqual([["vendor", "", false], ["clean", "vendor", false]]);
    // chroot runs the program in its new root's "/": relative paths are read from that folder.
    expect(paths("chroot vendor/lib/.git rm -rf objects")).toEqual([["objects", "vendor/lib/.git", true], ["vendor/lib/.git", "", false]]);
    expect(paths("chroot --userspec=1:1 jail cat notes")).toEqual([["notes", "jail", false], ["1:1", "", false], ["jail", "", false]]);
    expect(paths("chroot --skip-chdir / rm -rf lib")).toEqual([["lib", "", true], ["/", "", false]]);
    // An inner program's own -C is its own, a program word the runner renames too.
    expect(paths("env tar -C out -xf a.tar")).toEqual([["out", "", true], ["a.tar", "", false]]);
    expect(paths("pnpm dlx cowsay@1 -C sub ../x")).toEqual([["sub", "", false], ["../x", "", false], ["dlx", "", false]]);
    expect(paths("pkgx node@20 -C sub ../x")).toEqual([["sub", "", false], ["../x", "", false]]);
  });
  it("says where in the line each finding and path is: the word, or the top-level command or syntax", () => {
    const line = "make && curl $URL > out; sh -c 'rm -rf x'";
    const r = analyseCommand(reader, line, "single", { allow: [], deny: ["rm"], allowCompound: false });
    const at = (s: { start: number; end: number } | undefined) => (s === undefined ? undefined : line.slice(s.start, s.end));
    expect(r.findings.map((f) => [f.messageId, at(f.span)])).toEqual([
      ["compoundCommand", "&&"],
      ["valueAtRunTime", "$URL"],
      ["handsCommandLine", "sh -c 'rm -rf x'"],
      ["commandDenied", "sh -c 'rm -rf x'"],
    ]);
    expect(r.paths.map((p) => [p.text, at(p.span)])).toEqual([["out", "out"], ["x", "sh -c 'rm -rf x'"]]);
  });
  it("treats echo's arguments as text, but not its redirections", () => {
    const r = analyseCommand(reader, "echo /etc/passwd > /etc/motd", "chain", { allow: [], deny: [], allowCompound: false });
    expect(r.paths.map((p) => p.text)).toEqual(["/etc/motd"]);
  });
  it("reads a value glued to a short option, and a name=value operand, as a path", () => {
    const paths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.map((p) => p.text);
    expect(paths("sort -o/tmp/x data")).toEqual(["/tmp/x", "data"]);
    expect(paths("install -Dt/etc x")).toContain("/etc");
    expect(paths("gcc -o.git/hooks/pre-commit -O2 x.c")).toEqual([".git/hooks/pre-commit", "x.c"]);
    expect(paths("dd if=in of=/dev/sda")).toEqual(["if=in", "in", "of=/dev/sda", "/dev/sda"]);
    expect(paths("ls -la --color=auto")).toEqual(["auto"]);
  });
  it("reads option values by the program's grammar: setfacl's ACLs are no paths, a folder glued to -t is one", () => {
    const paths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.map((p) => [p.text, p.tree ?? false]);
    expect(paths("setfacl -m u:x:rwx notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("setfacl -x g:staff -M acl.txt notes.txt")).toEqual([["acl.txt", false], ["notes.txt", false]]);
    expect(paths("setfacl --modify=u:x:rwx --set d:u::rw notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("setfacl -R -m u:x:rwx .")).toEqual([[".", true]]);
    expect(paths("setfacl -Rmu:x:rwx .")).toEqual([[".", true]]);
    expect(paths("setfacl -m u:x:rwx -- -m")).toEqual([["-m", false]]);
    expect(paths("setfacl --restore=acl.bak")).toEqual([[".", true], ["acl.bak", false]]);
    // Elsewhere a drive-relative word is still a path.
    expect(paths("cat u:x:rwx")).toEqual([["u:x:rwx", false]]);
    expect(paths("cp -r -tconf src")).toEqual([["conf", true], ["src", true]]);
    expect(paths("cp -rtconf src")).toEqual([["conf", true], ["src", true]]);
    expect(paths("mv -tconf src")).toEqual([["conf", true], ["src", true]]);
    expect(paths("install -m644 -tconf src")).toEqual([["conf", false], ["src", false]]);
    expect(paths("ln -stconf src")).toEqual([["conf", false], ["src", false]]);
    // -S takes the rest of its cluster: no target there; the suffix names the backup of the file replaced.
    expect(paths("cp -Stx a b")).toEqual([["a", false], ["b", false], ["btx", false], ["b/atx", false]]);
    expect(paths("cp -bSx -t dir a")).toEqual([["dir", false], ["dir/ax", false], ["a", false]]);
    // chown's and chgrp's first operand is an owner or a group (`u:g` is no drive path), unless --reference names the file to copy them from.
    expect(paths("chown u:g notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("chown -R u:g build")).toEqual([["build", true]]);
    expect(paths("chown --from=a:b u:g notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("chown --from a:b u:g notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("chown notes.txt -R u:g")).toEqual([["u:g", true]]);
    expect(paths("chgrp -- s:taff notes.txt")).toEqual([["notes.txt", false]]);
    expect(paths("chown --reference=ref.txt c:x notes.txt")).toEqual([["ref.txt", false], ["c:x", false], ["notes.txt", false]]);
    expect(paths("chown -R u:g .")).toEqual([[".", true]]);
  });
  it("finds a glued path after any one to four option letters (property)", () => {
    const letters = fc.string({ minLength: 1, maxLength: 4, unit: fc.constantFrom(..."abcdoCDtOT0123") });
    const target = fc.constantFrom("/etc/passwd", "../x", "~/.bashrc", ".env", "a/../../x");
    fc.assert(
      fc.property(letters, target, (l, t) => {
        const r = analyseCommand(reader, `prog -${l}${t} y`, "chain", { allow: [], deny: [], allowCompound: false });
        expect(r.paths.map((p) => p.text)).toContain(t);
      }),
      { numRuns: 200 },
    );
  });
  it("refuses array subscripts with expansions given to builtins that evaluate them", () => {
    expect(rules("let 'a[$(id)]'", "chain")).toContain("disallowed-tool");
    expect(rules("printf -v 'a[`id`]' x", "chain")).toEqual(["disallowed-tool"]);
    expect(rules("printf '%s' 'a[$(id)]'", "chain")).toEqual([]);
    expect(rules("awk '{a[$1]++}' f", "chain")).toEqual([]);
    expect(rules("x=$(cat n); let x+1", "chain")).toEqual(["unresolved-argument"]);
    expect(rules("x=$(cat n); [[ x -gt 1 ]]", "chain")).toEqual(["unresolved-argument"]);
    expect(rules("[[ 2 -gt 1 ]]", "chain")).toEqual([]);
  });
  it("follows package and environment runners to the program they run", () => {
    const programs = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).programs;
    expect(programs("npx -y rimraf@5 dist")).toEqual(["npx", "rimraf"]);
    expect(programs("npx @scope/tool@1.2 x")).toEqual(["npx", "tool"]);
    expect(programs("npm --prefix web exec -- eslint .")).toEqual(["npm", "eslint"]);
    expect(programs("uv run --with requests -m pytest -x")).toEqual(["uv", "python"]);
    expect(programs("uvx ruff==0.4 check")).toEqual(["uvx", "ruff"]);
    expect(programs("uvx --from black[d] blackd")).toEqual(["uvx", "blackd"]);
    expect(programs("poetry -C svc run pytest")).toEqual(["poetry", "pytest"]);
    expect(programs("bundle exec rake test")).toEqual(["bundle", "rake"]);
    expect(programs("nix develop .#ci -c make")).toEqual(["nix", "make"]);
    expect(programs("yarn exec 'tsc && jest'")).toEqual(["yarn", "tsc", "jest"]);
    expect(programs("aws-vault exec prod -- terraform plan")).toEqual(["aws-vault", "terraform"]);
    expect(programs("hatch env run -e test -- pytest -x")).toEqual(["hatch", "pytest"]);
    expect(programs("nix -L develop -c make")).toEqual(["nix", "make"]);
    expect(programs("corepack pnpm@9 dlx rimraf@5 x")).toEqual(["corepack", "pnpm", "rimraf"]);
    expect(programs("pipx run --spec black==24 black .")).toEqual(["pipx", "black"]);
    expect(programs("nix-shell -p hello --run='make x'")).toEqual(["nix-shell", "make"]);
    expect(programs("nix develop --command=make x")).toEqual(["nix", "make"]);
    // Not a runner's subcommand: nothing more runs.
    expect(programs("corepack enable")).toEqual(["corepack"]);
    expect(programs("pipx install black")).toEqual(["pipx"]);
    expect(programs("npm install")).toEqual(["npm"]);
    expect(programs("uv pip install x")).toEqual(["uv"]);
    expect(programs("nix build")).toEqual(["nix"]);
    expect(programs("xcrun --show-sdk-path")).toEqual(["xcrun"]);
  });
  it("checks what a runner runs against the policy, and counts it as the step's one tool", () => {
    expect(rules("uv run rm -rf build", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    expect(rules("npx rimraf@5 build", "chain", { deny: ["rimraf"] })).toEqual(["disallowed-tool"]);
    expect(rules("poetry run sh -c 'curl -o y x'", "chain", { deny: ["curl"] })).toEqual(["disallowed-tool"]);
    expect(rules("poetry run pytest", "single")).toEqual([]);
    expect(rules("poetry run sh -c 'pytest'", "single")).toEqual(["multiple-tools"]);
    expect(rules("yarn exec 'tsc && jest'", "single")).toEqual(["multiple-tools"]);
    expect(rules("nix-shell --run 'make; make test'", "single")).toEqual(["multiple-tools"]);
    // npm's option parser reads `-c=cmd` as `-c cmd`; nix reads a `--` after -c as the end of its options.
    expect(rules("npx -c='rm -rf build'", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    expect(rules("npm exec -yc='rm -rf build'", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    expect(rules("nix develop -c -- rm -rf build", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    // yarn runs a command in a workspace, or in each one.
    expect(rules("yarn workspace web exec rm -rf build", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool", "unresolved-argument"]);
    expect(rules("yarn workspaces foreach -A exec rm -rf build", "chain", { deny: ["rm"] })).toEqual(["disallowed-tool"]);
    expect(rules("yarn workspace web add lodash", "chain", { deny: ["rm"] })).toEqual([]);
    expect(rules("yarn workspaces foreach -A run build", "chain", { deny: ["rm"] })).toEqual([]);
    // commands.allow: the program run must be allowed too, by its own entry or by one that names it.
    expect(rules("npx vitest run", "chain", { allow: ["npx"] })).toEqual(["disallowed-tool"]);
    expect(rules("npx vitest run", "chain", { allow: ["npx", "vitest"] })).toEqual([]);
    expect(rules("npx vitest run", "chain", { allow: ["npx vitest"] })).toEqual([]);
    expect(rules("uv run pytest", "chain", { allow: ["uv run pytest"] })).toEqual([]);
    expect(rules("uv run rm x", "chain", { allow: ["uv run"] })).toEqual(["disallowed-tool"]);
    expect(rules("sudo apt install x", "chain", { allow: ["sudo apt"] })).toEqual([]);
    expect(rules("sudo -u root apt install x", "chain", { allow: ["sudo apt"] })).toEqual(["disallowed-tool", "disallowed-tool"]);
  });
  it("refuses a runner whose program it cannot make out", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? "")}`);
    expect(ids("npm --frob exec rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("uv run --frob rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("npm $SUB rm x")).toContain("wrapperUnknown:argumentAtRunTime");
    expect(ids("nix-shell -p hello")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("uv run -m")).toEqual(["wrapperUnknown:optionWithoutValue"]);
    expect(ids("npm --frob install")).toEqual([]);
    // A global option whose value stands where the subcommand would.
    expect(ids("nix --option sandbox false develop -c rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("nix --extra-experimental-features flakes shell nixpkgs#hello -c rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("mise -C sub exec -- rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("mise --cd sub x node -- rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("nix --impure build")).toEqual([]);
    expect(ids("mise -q install")).toEqual([]);
  });
  it("follows version managers, environment runners and containers to the program they run", () => {
    const programs = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).programs;
    const denied = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => f.messageId);
    expect(programs("fnm exec --using=18 node -v")).toEqual(["fnm", "node"]);
    expect(programs("fnm --log-level quiet exec --using 18 -- node -v")).toEqual(["fnm", "node"]);
    // nvm: a version or built-in alias first; a word that may be a user's alias is read both ways.
    expect(programs("nvm exec 18 node app.js")).toEqual(["nvm", "node"]);
    expect(programs("nvm exec --lts -- npm test")).toEqual(["nvm", "npm"]);
    expect(programs("nvm exec node app.js")).toEqual(["nvm", "app.js"]);
    expect(programs("nvm exec myalias rm x")).toEqual(["nvm", "myalias", "rm"]);
    expect(programs("nvm run 18 app.js")).toEqual(["nvm", "node"]);
    expect(programs("nvm run iojs-v3 app.js")).toEqual(["nvm", "iojs"]);
    expect(programs("pkgx +node@20 -- npm test")).toEqual(["pkgx", "npm"]);
    expect(programs("pkgx node@20 app.js")).toEqual(["pkgx", "node"]);
    expect(programs("pkgx --quiet -v deno^1 run x.ts")).toEqual(["pkgx", "deno"]);
    expect(programs("scl enable gcc-toolset-13 'make && make test'")).toEqual(["scl", "make", "make"]);
    expect(programs("scl enable gcc-toolset-13 -- make -j4")).toEqual(["scl", "make"]);
    expect(programs("scl 'enable gcc-toolset-13' 'make'")).toEqual(["scl", "make"]);
    expect(programs("distrobox enter -n dev -- make test")).toEqual(["distrobox", "make"]);
    expect(programs("distrobox-enter --name dev -e make")).toEqual(["distrobox-enter", "make"]);
    expect(programs("toolbox run -c dev make")).toEqual(["toolbox", "make"]);
    expect(programs("toolbox -y run --distro fedora --release 40 make")).toEqual(["toolbox", "make"]);
    expect(programs("flatpak-spawn --host --watch-bus make")).toEqual(["flatpak-spawn", "make"]);
    expect(programs("bwrap --unshare-net --die-with-parent --setenv A 1 --dir /tmp -- make")).toEqual(["bwrap", "make"]);
    expect(programs("entr -rc make")).toEqual(["entr", "make"]);
    expect(programs("entr -s 'make && make test'")).toEqual(["entr", "make", "make"]);
    expect(programs("runuser -u ci -- make")).toEqual(["runuser", "make"]);
    expect(programs("runuser -u ci make -- -j4")).toEqual(["runuser", "make"]);
    // No run: other subcommands, help, nothing to run.
    for (const text of ["fnm install 18", "nvm install 18", "nvm exec --frob rm", "pkgx --help rm", "pkgx +node", "devbox add rm", "devbox run --list", "scl list-collections", "distrobox create rm", "toolbox enter", "bwrap --version rm", "runuser -u ci -c rm"])
      expect(programs(text), text).toEqual([text.split(" ")[0]]);
    // Each denies what it runs.
    for (const text of [
      "fnm exec --using=18 rm -rf x",
      "fnm exec rm -rf x",
      "nvm exec 18 rm -rf x",
      "nvm exec rm -rf x",
      "nvm exec myalias rm -rf x",
      "nvm exec 18 -c rm -rf x",
      "pkgx rm -rf x",
      "pkgx +coreutils -- rm -rf x",
      "pkgx rm@9 -rf x",
      "devbox run rm -rf x",
      "devbox run --pure -- rm -rf x",
      "devbox run 'ls; rm -rf x'",
      "devbox run echo '$(rm -rf x)'",
      "devbox global run -- rm -rf x",
      "devbox -q run rm x",
      "scl enable gcc 'rm -rf x'",
      "scl enable gcc -- rm -rf x",
      "scl run gcc -- echo 'a\" ; rm -rf x ; \"'",
      "scl enable gcc -x 'rm -rf x'",
      "scl 'enable gcc' 'rm -rf x'",
      "distrobox enter box -- rm -rf x",
      "distrobox enter -e rm -rf x",
      "distrobox enter box rm -rf x",
      "distrobox enter -- rm -rf x",
      "toolbox run rm -rf x",
      "toolbox run -c box -- rm -rf x",
      "flatpak-spawn --host rm -rf x",
      "flatpak-spawn -- -v rm -rf x",
      "bwrap --ro-bind /usr /usr rm -rf x",
      "entr rm -rf x",
      "entr -s 'rm -rf x'",
      "runuser -u bob -- rm -rf x",
      "runuser -u bob rm x",
      "runuser --us=bob rm x",
      "su -lc 'rm -rf x' bob",
      "runuser -s /bin/bash -c 'rm -rf x' bob",
      "su -s /bin/rm -c x",
      // A shell plangate does not know: the line is read as a shell's too.
      "su -s /usr/bin/fish -c 'rm -rf x'",
    ])
      expect(denied(text), text).toContain("commandDenied");
  });
  it("lets a command turn a pager or an editor off, and nothing else through those variables", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.name ?? "")}`);
    for (const text of ["GIT_PAGER=cat git log", "PAGER= git log", "GIT_EDITOR=true git rebase --continue", "GIT_SEQUENCE_EDITOR=: git rebase -i HEAD~2", "export PAGER=cat; git log", "env MANPAGER='less -R' man ls", "EDITOR='less -FRX' git log"])
      expect(ids(text), text).toEqual([]);
    for (const text of ["GIT_PAGER=./pager git log", "PAGER='cat;id' git log", "GIT_EDITOR=vim git commit", "VISUAL=$X git commit", "SHELL=cat sudo -s ls", "BROWSER=true x"])
      expect(ids(text), text).toEqual([`rewiringVariable:${text.split("=")[0]!.replace(/^export /, "")}`]);
    // less (or more, which may be less) reads a lesskey file with -k, whose settings may name an input filter it runs, and writes a log with -o or -O.
    for (const text of ["GIT_EDITOR='less -kkeys' git commit", "PAGER='less -ologfile' man ls", "GIT_PAGER='more -Okeys' git log", "PAGER='less -R -kx' git log"])
      expect(ids(text), text).toEqual([`rewiringVariable:${text.split("=")[0]!}`]);
    // less's own variables: options without -k, -o or -O, and no file naming settings.
    for (const text of ["LESS=-R git log", "LESS=FRX git log", "LESS='-R -x4' less f", "MORE=-d more f"]) expect(ids(text), text).toEqual([]);
    for (const text of ["LESS=--lesskey-src=k git log", "LESS=-kkeys git log", "LESSKEYIN=k git log", "LESSKEY=k git log", "LESSKEY_CONTENT=x less f", "MANOPT=-Px man ls"])
      expect(ids(text), text).toEqual([`rewiringVariable:${text.split("=")[0]!}`]);
  });
  it("refuses settings that name a file of code, a folder code is loaded from or an interpreter, but not a version or a lint", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.name ?? "")}`);
    for (const text of [
      "YARN_YARN_PATH=./x.js yarn install",
      "yarn_yarn_path=./x.js yarn",
      "YARN_RC_FILENAME=.ci.yml yarn",
      "YARN_PLUGINS=./p.js yarn",
      "YARN_INJECT_ENVIRONMENT_FILES=build.env yarn test",
      "BUNDLE_GEMFILE=/tmp/G bundle exec rake",
      "BUNDLE_BIN_PATH=./x bundle exec rake",
      "BUNDLE_APP_CONFIG=conf bundle exec rake",
      "GEM_PATH=vendor/gems ruby app.rb",
      "PYTHONUSERBASE=u python app.py",
      "PYTHONPYCACHEPREFIX=c python app.py",
      "PYTHONBREAKPOINT=os.system python app.py",
      "PYTHONWARNINGS=error::evil.Warning python app.py",
      "NODE_REPL_EXTERNAL_MODULE=./x.js node app.js",
      "VIRTUAL_ENV=/tmp/venv poetry run pytest",
      "UV_PYTHON=./x uv run pytest",
      "UV_PROJECT_ENVIRONMENT=/tmp/venv uv run pytest",
      "UV_CONFIG_FILE=/tmp/uv.toml uv run pytest",
      "PDM_PYTHON=/tmp/python pdm run pytest",
      "MAVEN_OPTS=-javaagent:x.jar mvn test",
      "GRADLE_OPTS=-Dorg.gradle.jvmargs=x ./gradlew build",
      "RUSTFLAGS='-C linker=./x' cargo build",
      "RUSTFLAGS='-D warnings -Clink-arg=-fuse-ld=./x' cargo build",
      "CARGO_ENCODED_RUSTFLAGS=-Dwarnings cargo build",
      "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS='-C linker=x' cargo build",
      "CARGO_HOME=. cargo build",
      "CARGO_ALIAS_B=run cargo b",
      "CARGO_REGISTRY_CREDENTIAL_PROVIDER=./x cargo publish",
      "RUSTUP_TOOLCHAIN=./toolchain cargo build",
      "GOENV=./go.env go build",
      "LUA_INIT=@x.lua lua app.lua",
      "PHPRC=. php app.php",
      "R_PROFILE_USER=x.R Rscript a.R",
      "ERL_AFLAGS='-eval x' erl -noshell -s app start",
      "HGRCPATH=/tmp/rc hg status",
      "HGEDITOR=./x hg commit",
      "SVN_EDITOR=./x svn commit",
      "SVN_SSH=./x svn up",
      "WGETRC=./rc wget -O f https://x",
      "CURL_HOME=/tmp curl -o f https://x",
      "ANSIBLE_CONFIG=/tmp/a.cfg ansible all -m ping",
      "DOTNET_STARTUP_HOOKS=./x.dll dotnet run",
      "OPENSSL_CONF=./x.cnf openssl version",
      "MISE_TRUSTED_CONFIG_PATHS=/ mise run test",
      "MAKEFLAGS='--eval=x:=1' make",
      "MAKEFLAGS='-j2 SHELL=./x' make",
      "MAKEFLAGS=-fci.mk make",
      "DOCKER_CONFIG=./ci docker pull img",
      "DOCKER_CONFIG=./.docker docker login",
      "DOCKER_HOST=ssh://build docker ps",
      "CONTAINERS_CONF=./c.conf podman ps",
      "CONTAINERS_CONF_OVERRIDE=./c.conf podman ps",
      "CONTAINERS_STORAGE_CONF=./s.conf podman images",
      "CONTAINERS_REGISTRIES_CONF=./r.conf podman pull img",
      "REGISTRY_AUTH_FILE=./auth.json podman pull img",
      "NERDCTL_TOML=./n.toml nerdctl ps",
      "CNI_PATH=./bin nerdctl ps",
      "NETCONFPATH=./net nerdctl ps",
    ])
      expect(ids(text), text).toEqual([`rewiringVariable:${text.split("=")[0]!}`]);
    for (const text of [
      "UV_PYTHON=3.12 uv run pytest",
      "UV_PYTHON=cpython@3.11 uv sync",
      "PIPENV_PYTHON='>=3.10,<3.13' pipenv install",
      "RUSTFLAGS='-D warnings' cargo build",
      "RUSTFLAGS='-Dwarnings -C target-cpu=native --cfg tokio_unstable' cargo build",
      "RUSTDOCFLAGS='--cap-lints warn' cargo doc",
      "RUSTUP_TOOLCHAIN=nightly cargo build",
      "PYTHONWARNINGS=ignore python app.py",
      "PYTHONWARNINGS=error::DeprecationWarning pytest",
      "MAVEN_OPTS='-Xmx2g -XX:+UseG1GC' mvn test",
      "YARN_ENABLE_IMMUTABLE_INSTALLS=false yarn install",
      "MAKEFLAGS=-j8 make",
      "DOCKER_HOST=unix:///run/user/1000/docker.sock docker ps",
      "DOCKER_HOST=tcp://127.0.0.1:2375 docker images",
      "MAKEFLAGS='-j4 --no-print-directory -k' make test",
    ])
      expect(ids(text), text).toEqual([]);
  });
  it("checks the variables builtins and the syntax set by name, to values decided at run time", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.filter((f) => f.messageId === "rewiringVariable").map((f) => String(f.data.name));
    for (const [text, name] of [
      ["printf -v PATH %s bin; ls", "PATH"],
      ["printf -vPATH %s bin", "PATH"],
      ["read PATH < f", "PATH"],
      ["read -r -a LD_PRELOAD < f", "LD_PRELOAD"],
      ["read -ra IFS < f", "IFS"],
      ["read -p x -- PATH < f", "PATH"],
      ["mapfile -t PATH < f", "PATH"],
      ["readarray BASH_ENV < f", "BASH_ENV"],
      ["getopts a PATH", "PATH"],
      ["wait -p PATH", "PATH"],
      ["compgen -V PATH -W x", "PATH"],
      ["declare -n r=PATH; r=bin", "PATH"],
      ["local -n r=IFS", "IFS"],
      ["typeset -gn r=LD_PRELOAD", "LD_PRELOAD"],
      ["declare -n r", "r (a name reference to any variable)"],
      ["for PATH in bin; do ls; done", "PATH"],
      ["select PAGER in cat; do git log; done", "PAGER"],
      // A `{NAME}>file` redirection stores the descriptor's number (10, a folder name PATH would search) in NAME.
      ["exec {PATH}>/dev/null; ls", "PATH"],
      ["ls {IFS}>out", "IFS"],
    ] as const)
      expect(ids(text), text).toContain(name);
    for (const text of ["read -r line < f", "printf -v out %s x", "mapfile -t lines < f", "getopts ab opt", "for f in a b; do ls; done", "exec {fd}>log", "declare -n ref=out"]) expect(ids(text), text).toEqual([]);
  });
  it("reads env's, sudo's, time's and coproc's settings, and env -S's string as env splits it", () => {
    const denied = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.name ?? f.data.why ?? f.data.entry ?? "")}`);
    // The program after the settings is checked, wherever they stand.
    for (const text of [
      "env -- FOO=1 rm -rf x",
      "env ./x=1 rm -rf x",
      "env a-b=1 rm -rf x",
      "env -i -- A=1 rm x",
      "sudo FOO=1 rm -rf x",
      "sudo -u root FOO=1 rm x",
      "sudo FOO=1 -u root rm x",
      "sudo ./x=1 rm x",
      "time FOO=1 rm x",
      "coproc FOO=1 rm x",
      // GNU env splits -S's string into arguments that take its place: options, settings, the program.
      "env -S 'rm\\_-rf\\_x'",
      "env -S -v rm -rf x",
      "env -S '-u X' rm -rf x",
      "env -S'FOO=1' rm x",
      "env -S 'FOO=1 rm -rf' x",
      "env --split-string='-i A=1 rm' x",
      "env -S \"-S 'rm x'\"",
      "env -S '#comment' rm x",
    ])
      expect(denied(text), text).toContain("commandDenied:rm");
    for (const [text, name] of [
      ["env -- PATH=bin ls", "PATH"],
      ["env -S'PATH=bin' ls", "PATH"],
      ["env -S 'LD_PRELOAD=./x.so ls'", "LD_PRELOAD"],
      ["sudo LD_PRELOAD=./x.so ls", "LD_PRELOAD"],
      ["sudo -u root PATH=bin ls", "PATH"],
      ["time PATH=bin ls", "PATH"],
      ["env PATH=bin", "PATH"],
      ["systemd-run --scope -E PATH=bin ls", "PATH"],
      ["systemd-run --scope --setenv=LD_PRELOAD=x.so ls", "LD_PRELOAD"],
    ] as const)
      expect(denied(text), text).toContain(`rewiringVariable:${name}`);
    // What env refuses to split, or a -C in the string (plangate would not read the folder it moves to), is refused.
    for (const text of ["env -S 'ls \\q'", "env -S 'ls $HOME'", "env -S \"'ls\"", "env -S '-C vendor' find lib -delete", "env -S '-iC vendor ls'"])
      expect(denied(text), text).toContain("wrapperUnknown:splitString");
    expect(denied("env -S 'ls ${HOME}'")).toEqual(["valueAtRunTime:"]);
    // sudo -s and -i hand the words to the shell as one line, escaped but for `$`: `$IFS` splits it.
    expect(denied("sudo -s 'rm$IFS-rf$IFS.'")).toEqual(["unreadableCommand:"]);
    expect(denied("sudo -s rm x")).toContain("commandDenied:rm");
    expect(denied("sudo -s ls 'a b'")).toEqual([]);
    expect(denied("sudo -- A=1 ls")).toEqual([]);
    for (const text of ["env LANG=C ls", "env -i LANG=C ls", "sudo -u ci make", "sudo -E make install", "time make", "env -S 'make -j2' all", "env -uX ls"]) expect(denied(text), text).toEqual([]);
  });
  it("reads a program's paths from the folder it runs in: a login shell's home, a service's root, a new root", () => {
    const paths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    // sudo -i, su -l (or -), runuser -l and pkexec start in the target user's home.
    expect(paths("sudo -i touch x")).toEqual(["~"]);
    expect(paths("sudo -iu root touch x")).toEqual(["~"]);
    expect(paths("sudo -i -D sub touch x")).toEqual(["sub"]);
    expect(paths("su - -c 'touch x'")).toEqual(["~"]);
    expect(paths("su -l root -c 'touch x'")).toEqual(["~"]);
    expect(paths("runuser -l root -c 'touch x'")).toEqual(["~"]);
    expect(paths("pkexec touch x")).toEqual(["~"]);
    expect(paths("pkexec --keep-cwd touch x")).toEqual([""]);
    expect(paths("su -c 'touch x' ci")).toEqual([""]);
    // A service systemd-run starts runs in "/" (with --user, in the home folder); a scope where it is started.
    expect(paths("systemd-run touch x")).toEqual(["/"]);
    expect(paths("systemd-run --user --wait touch x")).toEqual(["~"]);
    expect(paths("systemd-run --user --scope touch x")).toEqual([""]);
    expect(paths("systemd-run -d touch x")).toEqual([""]);
    expect(paths("systemd-run --working-directory=sub touch x")).toEqual(["sub"]);
    // hatch runs in its project's root: the folder of the nearest pyproject.toml, this one or one above.
    expect(paths("cd a/b && hatch run 'touch x'")).toEqual(["a/b", "a", ""]);
    expect(analyseCommand(reader, "hatch -p other run make", "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => f.data.why)).toEqual(["projectElsewhere"]);
    // unshare -R runs the program in the new root's "/"; nsenter -r keeps the folder.
    expect(paths("unshare -r -R vendor touch x")).toEqual(["vendor"]);
    expect(paths("nsenter -t 1 -m -rvendor touch x")).toEqual([""]);
  });
  it("refuses options through which a wrapper runs a program elsewhere than plangate reads", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? "")}`);
    // nsenter's -r and -w take a folder only joined to them: alone, -r is the target's root and the next word the program.
    expect(ids("nsenter -t 1 -m -r rm x")).toContain("commandDenied:rm");
    expect(ids("nsenter -t 1 -m -w ls")).toEqual(["wrapperUnknown:unknownFolder"]);
    expect(ids("nsenter -t 1 -m --wd ls")).toEqual(["wrapperUnknown:unknownFolder"]);
    expect(ids("nsenter -t 1 -m --wd=sub ls")).toEqual([]);
    expect(ids("unshare -r -R vendor -w sub ls")).toEqual(["wrapperUnknown:remapsPaths"]);
    // A unit property that may run a program, or set its environment or folder.
    for (const text of ["systemd-run -p ExecStartPre=./x --scope ls", "systemd-run --property=Environment=PATH=bin --scope ls", "systemd-run -pRootDirectory=vendor --scope ls", "systemd-run -p EnvironmentFile=x ls"])
      expect(ids(text), text).toEqual(["wrapperUnknown:unitProperty"]);
    expect(ids("systemd-run -p MemoryMax=1G -p CPUQuota=50% --scope make")).toEqual([]);
  });
  it("reads a flag's true or false as npm's and pnpm's parser does, and xargs's optional values as xargs does", () => {
    const denied = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => f.messageId);
    // nopt takes `true` or `false` after a flag as its value: the program (or -c's line) is the word after.
    for (const text of ["npx --yes true -c 'rm -rf x'", "npx -y false rm x", "npm exec --yes true --call 'rm -rf x'", "npm --silent true exec rm x", "pnpm exec --recursive true -c 'rm x'", "pnpm exec -c true 'rm x'", "pnpm dlx -s true rm x", "pnpm -r false exec rm x"])
      expect(denied(text), text).toContain("commandDenied");
    // xargs's --eof, --replace and --max-lines take a value only after `=`.
    for (const text of ["xargs --eof rm echo", "xargs --replace rm echo", "xargs --max-lines rm echo", "xargs --replace={} rm {}"]) expect(denied(text), text).toContain("commandDenied");
    expect(denied("npx --yes vitest run")).toEqual([]);
    expect(denied("xargs --eof=END echo")).toEqual([]);
  });
  it("marks the patterns that shopt makes match hidden names or any number of folders", () => {
    const globs = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.glob).map((p) => [p.written ?? p.text, p.dotglob ?? false, p.globstar ?? false]);
    expect(globs("sed -i s/a/b/ lib/?git/config")).toEqual([["lib/?git/config", false, false]]);
    expect(globs("shopt -s dotglob; sed -i s/a/b/ lib/?git/config")).toEqual([["lib/?git/config", true, false]]);
    expect(globs("shopt -s globstar dotglob; sed -i s/a/b/ lib/**/config")).toEqual([["lib/**/config", true, true]]);
    expect(globs("shopt -s dotglob; shopt -u dotglob; cat lib/?git")).toEqual([["lib/?git", false, false]]);
    // A shell given a line starts with its own options; a subshell keeps its parent's.
    expect(globs("shopt -s dotglob; sh -c 'cat lib/?git'")).toEqual([["lib/?git", false, false]]);
    expect(globs("shopt -s dotglob; (cat lib/?git)")).toEqual([["lib/?git", true, false]]);
    expect(globs("(shopt -s dotglob); cat lib/?git")).toEqual([["lib/?git", false, false]]);
    expect(globs("shopt -s $OPT; cat lib/?git")).toEqual([["lib/?git", true, false]]);
  });
  it("follows run0, and refuses at and batch, which run later the commands they read", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? "")}`);
    expect(ids("run0 rm -rf x")).toEqual(["commandDenied:rm"]);
    expect(ids("run0 --setenv=PATH=bin ls")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("run0")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("at now <<< 'rm x'")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("echo 'rm x' | batch")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("at -q b -f job.sh now")).toEqual(["hiddenCommands:scriptFile"]);
    for (const text of ["at -l", "at -c 3", "at -r 3", "run0 make"]) expect(ids(text), text).toEqual([]);
  });
  it("refuses a relative path given to a program a runner runs in package folders its configuration names", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.how ?? "")}`);
    for (const [text, how] of [
      ["npx -w vendor find lib -delete", "npx -w"],
      ["npm exec --workspace=vendor -- find lib -delete", "npm exec --workspace"],
      ["npm -ws exec -- rm -rf dist", "npm exec -ws"],
      ["npx -w vendor -c 'find lib -delete'", "npx -w"],
      ["pnpm -r exec rm -rf dist", "pnpm exec -r"],
      ["pnpm --filter ./vendor exec find lib -delete", "pnpm exec --filter"],
      ["pnpm exec --recursive rm -rf dist", "pnpm exec --recursive"],
      ["yarn workspace app exec rm -rf dist", "yarn workspace"],
    ] as const)
      expect(ids(text), text).toEqual([`packageFolders:${how}`]);
    // A program given no relative path runs the same in any folder.
    for (const text of ["pnpm -r exec tsc --noEmit", "npx -w app vitest", "yarn workspace app run build", "pnpm exec rm -rf dist"]) expect(ids(text), text).toEqual([]);
  });
  it("checks the settings sudo, genv and systemd-run give the program, and refuses a unit property other than a resource limit", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.name ?? "")}`);
    const denied = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => f.messageId);
    // sudo VAR=value cmd: the program is cmd, and the settings are checked.
    expect(denied("sudo FOO=1 rm -rf build")).toContain("commandDenied");
    expect(denied("sudo -u root FOO=1 BAR=2 rm x")).toContain("commandDenied");
    expect(ids("sudo PATH=/tmp ls")).toEqual(["rewiringVariable:PATH"]);
    expect(ids("genv LD_PRELOAD=x.so ls")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    expect(ids("sudo MODE=1 make")).toEqual([]);
    // bash's time keyword and coproc run the simple command after them, its settings included.
    expect(denied("time FOO=1 rm -rf build")).toContain("commandDenied");
    expect(denied("time -p FOO=1 rm -rf build")).toContain("commandDenied");
    expect(denied("coproc FOO=1 rm -rf build")).toContain("commandDenied");
    expect(ids("time PATH=/tmp ls")).toEqual(["rewiringVariable:PATH"]);
    // Behind any other wrapper a setting-like program word is read both ways: as the program, and as settings of the program after it.
    expect(denied("doas FOO=1 rm -rf build")).toContain("commandDenied");
    expect(denied("nice -n 5 FOO=1 rm -rf build")).toContain("commandDenied");
    expect(ids("nohup LD_PRELOAD=x.so ls")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    expect(ids("nohup A=1")).toEqual([]);
    expect(ids("systemd-run --setenv=LD_PRELOAD=x.so ls")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    expect(ids("systemd-run -E PAGER=./x git log")).toEqual(["rewiringVariable:PAGER"]);
    expect(ids("systemd-run -E MODE=1 --user make")).toEqual([]);
    expect(denied("systemd-run -E A=1 rm x")).toContain("commandDenied");
    expect(ids("systemd-run -p MemoryMax=1G --scope make")).toEqual([]);
    expect(ids("systemd-run --property=CPUQuota=50% make")).toEqual([]);
    expect(ids("systemd-run -p ExecStartPre=/bin/rm make")).toEqual(["wrapperUnknown:unitProperty"]);
    expect(ids("systemd-run --property=Environment=PATH=/tmp make")).toEqual(["wrapperUnknown:unitProperty"]);
    expect(ids("systemd-run -pBindPaths=/etc make")).toEqual(["wrapperUnknown:unitProperty"]);
  });
  it("refuses a runner given a file of environment settings, and checks the settings it is given one by one", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.name ?? "")}`);
    // A PATH or LD_PRELOAD in a file plangate does not read would change what runs.
    for (const text of ["uv run --env-file build.env ls", "uv run --env-file=build.env ls", "dotenvx run -f build.env -- ls", "dotenvx run -fbuild.env -- ls", "dotenvx run --env-file=build.env -- ls", "op run --env-file build.env -- ls"])
      expect(ids(text), text).toEqual(["wrapperUnknown:environmentFile"]);
    // dotenvx's default .env is a protected name (a plan cannot write it); its -e settings are checked as env's are.
    expect(ids("dotenvx run -- ls")).toEqual([]);
    expect(ids("uv run --no-env-file pytest")).toEqual([]);
    expect(ids("dotenvx run -e MODE=test -- ls")).toEqual([]);
    expect(ids("env PATH=/tmp ls")).toEqual(ids("dotenvx run -e PATH=/tmp -- ls"));
    expect(ids("dotenvx run -e PATH=/tmp -- ls")).not.toEqual([]);
    expect(ids("dotenvx run --env=LD_PRELOAD=x.so -- ls")).toEqual(ids("env LD_PRELOAD=x.so ls"));
    expect(ids("dotenvx run -e")).toEqual(["wrapperUnknown:optionWithoutValue"]);
    const denied = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => f.messageId);
    expect(denied("dotenvx run -e A=1 -- rm -rf x")).toContain("commandDenied");
    expect(denied("dotenvx run -eA=1 rm -rf x")).toContain("commandDenied");
  });
  it("refuses a runner that loads an environment from files of the workspace before the program", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.name ?? "")}`);
    // .envrc is bash code (PATH_add, layout); mise's [env] sets PATH or sources scripts; a .tool-versions `path:` version names a folder of programs.
    for (const text of ["direnv exec . make", "direnv exec sub ls", "direnv exec ./build.sh", "mise exec -- node app.js", "mise x node@20 -- node app.js", "mise exec --command='make x'", "mise exec node@20", "rtx x -- node app.js", "asdf exec node app.js", "asdf env node make"])
      expect(ids(text), text).toEqual(["wrapperUnknown:loadsEnvironment"]);
    expect(analyseCommand(reader, "direnv exec . ls", "chain", { allow: [], deny: [], allowCompound: false }).findings[0]?.data.files).toContain(".envrc");
    // The environment direnv prints, evaluated by the shell: a command line decided at run time.
    expect(ids('eval "$(direnv export bash)"')).toContain("commandLineAtRunTime:");
    // The project's tasks, installs and reports load no environment before a program the plan names.
    for (const text of ["mise run test", "mise install", "mise use node@20", "direnv status", "direnv reload", "asdf install", "asdf current", "rbenv exec rake", "pixi run test"]) expect(ids(text), text).toEqual([]);
  });
  it("refuses settings on the line through which npm, Yarn and cargo run what they name, code given to make, tox and just, and a build file from standard input", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.option ?? f.data.why ?? "")}`);
    for (const [text, option] of [
      // The project's .npmrc is read as package.json's scripts are; a setting on the line is the plan's.
      ["npm test --script-shell=./x", "--script-shell"],
      ["npm run build --script-shell ./x", "--script-shell"],
      ["npm test --script-sh=./x", "--script-shell"],
      ["npm run build --node-options=--require=./x.js", "--node-options"],
      ["npm --git=./x install", "--git"],
      ["npm init --init-module=./x.js", "--init-module"],
      ["pnpm --config.script-shell=./x test", "--script-shell"],
      ["npm config set script-shell ./x", "config set script-shell"],
      ["npm set scriptShell=./x", "set scriptShell"],
      ["yarn config set yarnPath ./x.js", "config set yarnPath"],
      ["cargo --config build.rustc-wrapper=./x build", "--config build.rustc-wrapper"],
      ['cargo build --config "target.x86_64-unknown-linux-gnu.runner=\'rm\'"', "--config target.x86_64-unknown-linux-gnu.runner"],
      ["cargo --config 'target={x={runner=\"rm\"}}' run", "--config target"],
      ["cargo test --config 'env.PATH=\"bin\"'", "--config env.PATH"],
      ["make --eval='x: ; rm -rf y' x", "--eval"],
      ["tox -x testenv.commands=rm", "-x"],
      ["just --shell ./x build", "--shell"],
      ["just --command rm -rf x", "--command"],
      ["just --shell-arg=-c --shell-arg='rm x;' build", "--shell-arg"],
      ["just --dotenv-command './x' build", "--dotenv-command"],
      ["just --chooser=./x --choose", "--chooser"],
      ["just --cygpath ./x build", "--cygpath"],
    ] as const)
      expect(ids(text), text).toEqual([`optionRunsCommand:${option}`]);
    // just's environment file, loaded for the recipes as dotenv loads one: refused as dotenv's is.
    for (const [text, option] of [
      ["just -E .env.x build", "-E"],
      ["just --dotenv-path ../x build", "--dotenv-path"],
      ["just --dotenv-path=.env build", "--dotenv-path"],
      ["just --dotenv-filename .x build", "--dotenv-filename"],
      ["just -qE.env build", "-E"],
      ["just -F .x build", "-F"],
    ] as const)
      expect(
        analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why)}:${String(f.data.option)}`),
        text,
      ).toEqual([`wrapperUnknown:environmentFile:${option}`]);
    expect(ids("JUST_DOTENV_PATH=x just build")).toEqual(["rewiringVariable:"]);
    for (const text of ["make -f - all", "make --file=/dev/stdin", "just --justfile /dev/stdin build", "tox -c -", "nox -f /dev/fd/0", "pre-commit run -c /dev/stdin"]) expect(ids(text), text).toEqual(["hiddenCommands:standardInput"]);
    // Settings that run nothing of the line's choosing, a file of settings or rules (a path, checked as one), what follows `--`.
    for (const text of [
      "npm test",
      "npm install --save-dev vitest",
      "npm ci --ignore-scripts",
      "npm --ca=cert.pem install",
      "npm run build -- --shell=x",
      "npm config set registry https://registry.example.com",
      "yarn config set enableTelemetry 0",
      "cargo --config build.jobs=4 build",
      "cargo --config profile.release.lto=true build",
      "cargo --config ci.toml build",
      "cargo run -- --config target.x=1",
      "make -f ci.mk all",
      "just --justfile ci.just build",
      "tox -e py312",
      // just and watchexec read long options only as spelt (clap without infer_long_args: neither sets it),
      // so an abbreviation is an error that runs nothing; watchexec refuses an option plangate does not know.
      "just --sh=./x build",
      "just --shell-c --shell-command build",
      "just --com rm",
      // An override is a value the justfile's recipes use, as make's variables on the line are.
      "just --set version 1.2 build",
      "just version=1.2 build",
      "just -f ci.just -d . build",
      "just build -- -E",
    ])
      expect(ids(text), text).toEqual([]);
    expect(ids("watchexec --sh ./x -- ls")).toEqual(["wrapperUnknown:--sh"]);
  });
  it("refuses having direnv or mise trust a file of the workspace, whose code they then run by themselves", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.program ?? "")}`);
    for (const text of ["direnv allow", "direnv allow .", "direnv permit sub", "direnv grant", "direnv edit .", "mise trust", "mise trust -a", "mise -C sub trust", "rtx trust", "mise settings set trusted_config_paths /", "mise settings add trusted-config-paths ~/src"])
      expect(ids(text), text).toEqual([`trustsCode:${text.split(" ")[0]!}`]);
    for (const text of ["direnv reload", "direnv status", "direnv deny .", "direnv export json", "mise trust --untrust", "mise trust --show", "mise trust --ignore", "mise settings get trusted_config_paths", "mise run trust", "mise install"]) expect(ids(text), text).toEqual([]);
  });
  it("checks an interpreter a tool is given by path or name as a program, and lets a version through", () => {
    const run = (text: string, commands: { allow?: string[]; deny?: string[] } = {}) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false, ...commands });
    const ids = (text: string, commands: { allow?: string[]; deny?: string[] } = {}) => run(text, commands).findings.map((f) => `${f.messageId}:${String(f.data.program ?? f.data.entry ?? "")}`);
    for (const [text, program] of [
      ["uv run -p ./py pytest", "py"],
      ["uv run --python=./py pytest", "py"],
      ["uv run --python ./py pytest", "py"],
      ["uv run -qp ./py pytest", "py"],
      ["uv run -p./py pytest", "py"],
      ["uv --directory sub run -p ./py pytest", "py"],
      ["uv venv -p ./py", "py"],
      ["uv pip install --python ./py requests", "py"],
      ["uv python find ./py", "py"],
      ["uvx -p ./py ruff check", "py"],
      ["uv tool run --python ./py ruff", "py"],
      ["pipx run --python ./py black .", "py"],
      ["pipx install --python ./py black", "py"],
      ["pipenv --python ./py run pytest", "py"],
      ["virtualenv -p ./py venv", "py"],
      ["poetry env use ./py", "py"],
      ["poetry -C sub env use ./py", "py"],
      ["pdm use ./py", "py"],
      ["pdm venv create ./py", "py"],
    ] as const) {
      expect(run(text).programs, text).toContain(program);
      expect(ids(text, { allow: ["uv", "uvx", "pipx", "pipenv", "virtualenv", "poetry", "pdm", "pytest", "ruff", "black"] }), text).toEqual([`notAllowed:${program}`]);
    }
    // Named by a program's name: checked by it.
    expect(ids("uv run --python rm pytest", { deny: ["rm"] })).toEqual(["commandDenied:rm"]);
    expect(ids("poetry env use rm", { deny: ["rm"] })).toEqual(["commandDenied:rm"]);
    expect(ids("uv run -p $PY pytest")).toContain("programAtRunTime:");
    // A version picks an installed Python; an option of the program a runner runs is the program's.
    for (const text of ["uv run -p 3.12 pytest", "uv run --python=cpython@3.11 pytest", "uvx --python 3.12 ruff", "uv sync -p '>=3.10'", "poetry env use 3.12", "poetry env use python3.12", "pdm use 3.11", "pipx run --python 3.12 black", "uv run pytest -p no:cacheprovider", "uv run -m pytest -p x", "uv run -- pytest -p x", "pdm run use x", "uv pip install -r requirements.txt"])
      expect(ids(text, { allow: ["uv", "uvx", "poetry", "pdm", "pipx", "pytest", "ruff", "black", "python", "use"] }), text).toEqual([]);
  });
  it("refuses what those runners run when it cannot be made out", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.name ?? "")}`);
    expect(ids("fnm exec --frob rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("fnm exec --resolve-engines true rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("pkgx -qC sub rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("pkgx --chdir=sub rm x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("pkgx $P x")).toEqual(["wrapperUnknown:argumentAtRunTime", "valueAtRunTime:"]);
    // devbox: options that may set PATH, or run in every project below; a pattern it would expand before evaluating.
    expect(ids("devbox run -e PATH=/tmp ls")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("devbox run --env-file .env ls")).toEqual(["wrapperUnknown:environmentFile"]);
    expect(ids("devbox run --all-projects build")).toEqual(["wrapperUnknown:unknownOption"]);
    // devbox global run reads its options anywhere: an option of the command is one of devbox's.
    expect(ids("devbox global run rm -rf x")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("devbox run -- grep 'a*' notes")).toEqual(["wrapperUnknown:patternInCommandLine"]);
    expect(ids("devbox run ls $DIR")).toEqual(["commandLineAtRunTime:"]);
    expect(ids("scl enable gcc -")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("scl enable gcc --")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("scl enable $C make")).toEqual(["wrapperUnknown:argumentAtRunTime", "valueAtRunTime:"]);
    expect(ids("distrobox enter -a '--workdir /' box -- make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("distrobox enter -nw box -- make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("distrobox enter -n box")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("toolbox run --frob make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("flatpak-spawn --env-fd=3 make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("flatpak-spawn --env=PATH=/tmp make")).toEqual(["rewiringVariable:PATH"]);
    // bwrap: a bind mount shown at another path, an overlay, arguments from a file descriptor.
    expect(ids("bwrap --bind vendor /work make")).toEqual(["wrapperUnknown:remapsPaths"]);
    expect(ids("bwrap --bind src src make")).toEqual(["wrapperUnknown:remapsPaths"]);
    expect(ids("bwrap --overlay-src a --tmp-overlay /w make")).toEqual(["wrapperUnknown:remapsPaths"]);
    expect(ids("bwrap --args 3 make")).toEqual(["wrapperUnknown:argumentsElsewhere"]);
    expect(ids("bwrap --frob make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("bwrap --setenv LD_PRELOAD x.so make")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    expect(ids("bwrap --bind /w/ws /w/ws make")).toEqual([]);
    expect(ids("entr -q make")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("su -Z bob")).toEqual(["wrapperUnknown:unknownOption"]);
    expect(ids("su -u bob make")).toEqual(["wrapperUnknown:unknownOption"]);
  });
  it("reads devbox's command from the folder of the devbox.json it may find, and each folder above", () => {
    const paths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    expect(paths("devbox run cat x")).toEqual([""]);
    expect(paths("cd a/b && devbox run cat x")).toEqual(["a/b", "a", ""]);
    expect(paths("devbox run -c sub/devbox.json cat x")).toEqual(["sub/devbox.json", "sub", ""]);
    expect(paths("cd a && devbox run --config=../b cat x")).toEqual(["a/../b", ""]);
    expect(paths("devbox global run cat x")).toEqual(["~/.local/share/devbox/global/default"]);
  });
  it("names the runner in its findings", () => {
    const r = analyseCommand(reader, "uv run --frob rm x", "chain", { allow: [], deny: [], allowCompound: false });
    expect(r.findings[0]?.data.wrapper).toBe("uv run");
  });
  it("judges a command pattern by whether its words may make a runner run anything", () => {
    expect(mayRunOthers("npx", ["vitest"])).toBe(true);
    expect(mayRunOthers("uv", ["run", undefined])).toBe(true);
    expect(mayRunOthers("uv", [undefined])).toBe(true);
    expect(mayRunOthers("uv", ["pip", undefined])).toBe(false);
    expect(mayRunOthers("npm", ["--prefix", "x", "exec"])).toBe(true);
    expect(mayRunOthers("npm", ["ci"])).toBe(false);
    expect(mayRunOthers("yarn", ["workspace", undefined, "exec"])).toBe(true);
    expect(mayRunOthers("make", [undefined])).toBe(false);
    for (const [program, words, runs] of [
      ["fnm", ["exec", undefined], true],
      ["fnm", ["install"], false],
      ["nvm", ["run", undefined], true],
      ["nvm", ["ls"], false],
      ["pkgx", ["node"], true],
      ["devbox", ["global", "run"], true],
      ["devbox", ["add", undefined], false],
      ["scl", ["enable gcc", undefined], true],
      ["scl", ["list-collections"], false],
      ["distrobox", ["enter", undefined], true],
      ["distrobox", ["list"], false],
      ["distrobox-enter", [undefined], true],
      ["toolbox", ["run", undefined], true],
      ["nix-shell", ["--run", undefined], true],
      ["nix-shell", ["-p", "hello", "--run", "make"], true],
      ["corepack", ["pnpm", undefined], true],
      ["corepack", ["enable"], false],
      ["bwrap", [], true],
      ["flatpak-spawn", [], true],
      ["entr", [], true],
    ] as const)
      expect(mayRunOthers(program, words), `${program} ${words.join(" ")}`).toBe(runs);
  });
  it("follows the commands tmux and screen start, and refuses those it cannot see", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? f.data.name ?? "")}`);
    const folders = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    // One argument is a line for the shell, more are the program and its arguments; commands after `;` too.
    for (const text of [
      "tmux new 'rm -rf x'",
      "tmux new-session -d -s build 'rm -rf x'",
      "tmux new -d rm -rf x",
      "tmux neww 'rm x'",
      "tmux new-w -n w 'rm x'",
      "tmux split-window -h -l 30% 'rm x'",
      "tmux splitp 'rm x'",
      "tmux new-pane 'rm x'",
      "tmux respawn-pane -k -c . 'rm x'",
      "tmux run-shell 'rm x'",
      "tmux run -b -c sub 'rm x'",
      "tmux -c 'rm x'",
      "tmux -L sock new -d \\; neww 'rm x'",
      "tmux new -d 'ls;' neww 'rm x'",
      "tmux -- new 'rm x'",
      "screen -dm rm -rf x",
      "screen -dmS build rm x",
      "screen -d -m -S build -- rm x",
      "screen -h 1000 -L -Logfile log -dmS build rm x",
      "screen -fa -e^Tt -U -dmS build rm x",
      "screen -d -m -s /bin/rm",
    ])
      expect(ids(text), text).toContain("commandDenied:rm");
    // A folder tmux cannot enter leaves the program in the home folder.
    expect(folders("tmux new -d -c sub 'touch x'")).toEqual(["sub", "~"]);
    expect(folders("tmux new -d 'touch x'")).toEqual([""]);
    // Settings for the program, and for the panes to come.
    expect(ids("tmux new -d -e PATH=bin make")).toEqual(["rewiringVariable:PATH"]);
    expect(ids("tmux setenv -g LD_PRELOAD x.so")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    for (const [text, why] of [
      // Keys typed into a pane, tmux commands given as text, hooks and default commands, a file of commands.
      ["tmux send-keys -t build 'rm x' Enter", "typesKeys"],
      ["tmux send -l 'rm x'", "typesKeys"],
      ["tmux paste-buffer -t build", "typesKeys"],
      ["tmux if-shell true 'run-shell \"rm x\"'", "commandText"],
      ["tmux bind-key r run-shell 'rm x'", "commandText"],
      ["tmux confirm-before 'kill-server'", "commandText"],
      ["tmux run -C 'new-window'", "commandText"],
      ["tmux set -g default-command 'rm x'", "laterSettings"],
      ["tmux set-hook -g after-new-window 'run rm'", "laterSettings"],
      ["tmux set -g status-right x", "laterSettings"],
      ["tmux -f tmux.conf new", "configurationFile"],
      ["tmux source-file tmux.conf", "scriptFile"],
      ["tmux -C attach", "standardInput"],
      // A format that runs a command or builds one; run-shell's line is a format.
      ["tmux display -p '#(rm x)'", "formatCommand"],
      ["tmux display -p '#{E:pane_title}'", "formatCommand"],
      ["tmux rename-window '#(rm x)'", "formatCommand"],
      ["tmux neww -n '#(rm x)' make", "formatCommand"],
      ["tmux run 'rm #{1}' x", "formatCommand"],
      // The folder a pane's or a session's program runs in, or the server's, is not known.
      ["tmux respawn-pane -k 'rm x'", "folderUnknown"],
      ["tmux display-popup -E 'make'", "folderUnknown"],
      ["tmux pipe-pane -o 'cat >> log'", "folderUnknown"],
      ["tmux detach -E 'make'", "folderUnknown"],
      ["tmux neww -c '#{pane_current_path}' make", "folderUnknown"],
      ["tmux res 'rm x'", "unknownSubcommand"],
      ["tmux frob", "unknownSubcommand"],
      ["tmux neww -Q make", "unknownOption"],
      ["tmux -Z new make", "unknownOption"],
      ["screen -S build -X stuff 'rm x\\n'", "typesKeys"],
      ["screen -S build -X exec rm x", "commandText"],
      ["screen -S build -X screen rm x", "commandText"],
      ["screen -c screenrc -dm make", "configurationFile"],
      ["screen -cscreenrc", "configurationFile"],
      ["screen -k make", "unknownOption"],
    ] as const)
      expect(ids(text), text).toContain(`${text.startsWith("tmux source") || text.startsWith("tmux -C") ? "hiddenCommands" : "wrapperUnknown"}:${why}`);
    // What runs nothing, or an allowed program.
    for (const text of [
      "tmux ls",
      "tmux kill-server",
      "tmux kill-session -t build",
      "tmux has-session -t build",
      "tmux list-windows -F '#{window_name} #{window_index}'",
      "tmux capture-pane -p -t build",
      "tmux new -d -s build",
      "tmux new -d -s build 'npm test'",
      "tmux neww -d make test",
      "tmux set -g mouse on",
      "tmux setw -g automatic-rename off",
      "tmux attach -t build",
      "screen -ls",
      "screen -list",
      "screen -wipe",
      "screen -r build",
      "screen -dmS build npm start",
      "screen -S build -X quit",
      "screen -v",
    ])
      expect(ids(text), text).toEqual([]);
  });
  it("follows the commands watchers and benchmarks run: watchexec, nodemon, hyperfine", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? f.data.name ?? "")}`);
    for (const text of [
      "watchexec 'rm -rf x'",
      "watchexec -e ts -- rm -rf x",
      "watchexec -r rm -rf x",
      "watchexec -w src -e ts,js rm x",
      "watchexec -n -- rm x",
      "watchexec --shell=bash -- rm x",
      "watchexec --shell 'zsh -o shwordsplit' rm x",
      "watchexec --shell=python3 -- rm x",
      "watchexec -c reset rm x",
      "watchexec --clear=reset rm x",
      "watchexec -Q true rm x",
      "watchexec --workdir sub -- rm x",
      "nodemon --exec 'rm -rf x'",
      "nodemon -x 'rm x' app.js",
      "nodemon app.js --exec 'rm x'",
      "nodemon --watch src --ext ts --exec 'rm x'",
      // Each argument joins the line as is, or in double quotes when it holds a space.
      "nodemon app.js ';rm' x",
      "nodemon app.js 'a $(rm x)'",
      "nodemon -- app.js '`rm x`'",
      "hyperfine 'rm -rf x'",
      "hyperfine make 'rm x'",
      "hyperfine -p 'rm x' make",
      "hyperfine -prm make",
      "hyperfine --prepare='rm x' make",
      "hyperfine -s 'rm x' make",
      "hyperfine --setup 'rm x' make",
      "hyperfine -c 'rm x' make",
      "hyperfine --cleanup='rm x' make",
      "hyperfine -C 'rm x' make",
      "hyperfine --conclude 'rm x' make",
      "hyperfine --reference 'rm x' make",
      "hyperfine -N 'rm x'",
      "hyperfine --shell=none 'rm x'",
      "hyperfine -S bash 'rm x'",
      "hyperfine -S 'bash -c \"rm x\"' make",
      "watchexec --shell='sh -e -c \"rm x\"' make",
      "hyperfine -iNw3 'rm x'",
      "hyperfine make --runs 3 'rm x'",
      // A parameter's values take the place of {name} in every command.
      "hyperfine -L tool rm,ls '{tool} x'",
      "hyperfine -L x 'a;rm y,b' 'echo {x}'",
      "hyperfine -L a 1,2 -L b 'x,y;rm z' 'echo {a}{b}'",
      "hyperfine -L c 'rm,ls' --prepare '{c} x' make",
    ])
      expect(ids(text), text).toContain("commandDenied:rm");
    for (const [text, why] of [
      ["watchexec npm install @types/node", "argumentFile"],
      ["watchexec @args make", "argumentFile"],
      ["watchexec --frob make", "unknownOption"],
      ["nodemon --config dev.json app.js", "configurationFile"],
      ["nodemon --exec 'rm {{pwd}}/x'", "placeholder"],
      ["nodemon --exec 'cat {{filename}}'", "placeholder"],
      ["hyperfine --frob make", "unknownOption"],
      ["hyperfine -L a 1,2,3,4,5,6 -L b 1,2,3,4,5,6 'echo {a}{b}'", "placeholder"],
    ] as const)
      expect(ids(text), text).toEqual([`wrapperUnknown:${why}`]);
    expect(ids("watchexec -E PATH=bin make")).toEqual(["rewiringVariable:PATH"]);
    const folders = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    expect(folders("watchexec --workdir sub -- touch x")).toEqual(["sub"]);
    expect(folders("nodemon --cwd sub --exec 'touch x'")).toEqual(["sub"]);
    const programs = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).programs;
    // Without --exec nodemon runs the script with node, or by its extension.
    expect(programs("nodemon app.js")).toEqual(["nodemon", "node"]);
    expect(programs("nodemon tool.py --port 8000")).toEqual(["nodemon", "python"]);
    expect(programs("hyperfine -P n 1 8 'make -j {n}'")).toEqual(["hyperfine", "make", "make"]);
    expect(programs("hyperfine -S 'python3 -I' 'pass'")).toEqual(["hyperfine", "python3", "pass"]);
    for (const text of [
      "watchexec -e ts -- npm test",
      "watchexec -r -w src npm run dev",
      "watchexec -- npm i @types/node",
      "watchexec --version",
      "nodemon --exec 'node app.js'",
      "nodemon -w src -e ts -x 'ts-node src/index.ts'",
      "nodemon",
      "nodemon --help",
      "hyperfine 'npm test'",
      "hyperfine --warmup 3 -L n 1,2 'sleep 0.{n}'",
      "hyperfine -i=1 --export-json out.json 'make test'",
      "hyperfine --version",
    ])
      expect(ids(text), text).toEqual([]);
  });
  it("follows capsh, machinectl shell, ssh's remote command, cross-env and lerna exec, and refuses socat's, expect's and other shells' commands", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? f.data.name ?? f.data.option ?? "")}`);
    for (const text of [
      "capsh -- -c 'rm -rf x'",
      "capsh --drop=cap_net_raw --uid=1000 -- -c 'rm x'",
      "capsh --shell=/bin/rm -- -rf x",
      "capsh '==' -- -c 'rm x'",
      "capsh -+ -c 'rm x'",
      "machinectl shell root@ /bin/rm -rf x",
      "machinectl -q shell --uid=ci .host /usr/bin/rm x",
      "ssh localhost rm -rf x",
      "ssh host 'make; rm x'",
      "ssh -p 2222 -i key host -t rm x",
      "ssh host -- rm x",
      "cross-env A=1 rm -rf x",
      "cross-env NODE_ENV=test 'B=a b' rm x",
      "cross-env-shell 'make && rm x'",
      "lerna exec -- rm -rf x",
      "lerna exec --scope pkg --stream -- rm x",
      "lerna exec rm x",
      "lerna run --npm-client rm build",
    ])
      expect(ids(text), text).toContain("commandDenied:rm");
    // capsh's new root, machinectl's and ssh's home folder.
    const folders = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    expect(folders("capsh --chroot=jail -- -c 'touch x'")).toEqual(["jail"]);
    expect(folders("machinectl shell .host /usr/bin/touch x")).toEqual(["~"]);
    expect(folders("ssh localhost touch x")).toEqual(["~"]);
    // The settings they give the program; cross-env takes any word holding NAME= (./PATH=x sets PATH).
    expect(ids("machinectl -E PATH=bin shell .host /bin/ls")).toEqual(["rewiringVariable:PATH"]);
    expect(ids("cross-env ./PATH=bin ls")).toEqual(["rewiringVariable:PATH"]);
    expect(ids("cross-env LD_PRELOAD=x.so ls")).toEqual(["rewiringVariable:LD_PRELOAD"]);
    // The files of ssh's file settings are paths, however the setting is written.
    const sshPaths = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.map((p) => p.text);
    expect(sshPaths("ssh -oUserKnownHostsFile=../x host")).toContain("../x");
    expect(sshPaths("ssh -o 'ControlPath \".git/x y\"' host")).toContain(".git/x y");
    expect(sshPaths("ssh -o 'IdentityFile = ../k' host")).toContain("../k");
    for (const [text, id] of [
      ["socat - EXEC:'rm -rf x'", "optionRunsCommand:EXEC:"],
      ["socat TCP-LISTEN:8080,fork SYSTEM:'rm x'", "optionRunsCommand:SYSTEM:"],
      ["socat - exec:ls!!stdout", "optionRunsCommand:EXEC:"],
      ["ssh -o RemoteCommand='rm x' host", "optionRunsCommand:-o RemoteCommand"],
      ["ssh -I ./pkcs11.so host", "optionRunsCommand:-I"],
      ["expect -c 'spawn rm -rf x'", "wrapperUnknown:codeAsText"],
      ["expect -d -c 'spawn make'", "wrapperUnknown:codeAsText"],
      ["expect deploy.exp", "hiddenCommands:scriptFile"],
      ["expect -f deploy.exp", "hiddenCommands:scriptFile"],
      ["expect", "hiddenCommands:standardInput"],
      ["fish -c 'rm -rf x'", "wrapperUnknown:shellLanguage"],
      ["csh -c 'rm x'", "wrapperUnknown:shellLanguage"],
      ["pwsh -Command 'Remove-Item x'", "wrapperUnknown:shellLanguage"],
      ["fish", "hiddenCommands:standardInput"],
      ["capsh --frob -- -c ls", "wrapperUnknown:unknownOption"],
      ["capsh -- setup.sh", "hiddenCommands:scriptFile"],
      ["capsh --", "hiddenCommands:standardInput"],
      ["machinectl shell", "hiddenCommands:standardInput"],
      ["lerna --frob exec ls", "wrapperUnknown:unknownOption"],
    ] as const)
      expect(ids(text), text).toContain(id);
    expect(ids("lerna exec -- rm -rf dist")).toContain("packageFolders:");
    for (const text of [
      "capsh --print",
      "capsh --drop=cap_net_raw -- -c make",
      "machinectl list",
      "machinectl shell .host /usr/bin/make",
      "ssh host uptime",
      "ssh -N -L 8080:localhost:80 host",
      "ssh -o StrictHostKeyChecking=no host",
      "socat - TCP:example.com:80",
      "expect -v",
      "fish --version",
      "cross-env NODE_ENV=test jest",
      "lerna run test",
      "lerna exec --parallel -- tsc --noEmit",
      "lerna bootstrap",
    ])
      expect(ids(text), text).toEqual([]);
  });
  it("reads script's command after --, sudo's new root, entr's /_ and a shell without a command", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.why ?? f.data.entry ?? f.data.source ?? "")}`);
    // script joins the words after `--` into a line for the shell; -t takes a file only joined to it.
    for (const text of ["script -q -- rm -rf x", "script -q log -- rm x", "script -t -c 'rm x'", "script -ttiming -q -c 'rm x' log"]) expect(ids(text), text).toContain("commandDenied:rm");
    expect(ids("script -q -- echo '$(rm x)'")).toContain("commandDenied:rm");
    // sudo -R runs the program in its new root: its relative paths are read from there.
    const folders = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).paths.filter((p) => p.text === "x").map((p) => p.cwd);
    expect(folders("sudo -R jail touch x")).toEqual(["jail"]);
    expect(folders("sudo --chroot=jail touch x")).toEqual(["jail"]);
    expect(folders("sudo -Rjail touch x")).toEqual(["jail"]);
    expect(ids("sudo -R jail -D sub make")).toEqual(["wrapperUnknown:remapsPaths"]);
    expect(ids("sudo -R jail -i make")).toEqual(["wrapperUnknown:remapsPaths"]);
    expect(ids("sudo -uadmin -R jail make")).toEqual([]);
    // su -m and -p, sudo -s and -i without a command: the shell reads standard input.
    for (const text of ["su -m", "su -p", "sudo -s", "sudo -i", "sudo -R jail -s"]) expect(ids(text), text).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("su -m -c 'rm x'")).toContain("commandDenied:rm");
    // entr puts the changed file's name in place of its first /_ argument: decided at run time.
    expect(ids("entr rm /_")).toEqual(["commandDenied:rm", "valueAtRunTime:/_"]);
    expect(ids("entr -p cat /_")).toEqual(["valueAtRunTime:/_"]);
    expect(ids("entr /_")).toEqual(["programAtRunTime:/_"]);
    expect(ids("entr -x make")).toEqual([]);
  });
  it("reads launchers' and tools' options as the programs do: option clusters, abbreviations, quoted keys, operands after --", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm", "evil"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.entry ?? f.data.name ?? f.data.option ?? f.data.why ?? "")}`);
    for (const [text, id] of [
      // capsh prints an explanation and goes on to the next option.
      ["capsh --explain=cap_chown -- -c 'rm x'", "commandDenied:rm"],
      ["capsh --suggest=net -- -c 'rm x'", "commandDenied:rm"],
      // cross-env drops the quotes of the command's words.
      ["cross-env A=1 \"r'm\" x", "commandDenied:rm"],
      ["cross-env \"e'v'il\"", "commandDenied:evil"],
      // watchexec 1.x reads -c and -N as flags: the next word starts the command there.
      ["watchexec -c rm x", "commandDenied:rm"],
      ["watchexec -N rm x", "commandDenied:rm"],
      // ssh's, scp's and sftp's -o inside a cluster, and a keyword as ssh reads it.
      ["ssh -vo ProxyCommand='rm x' host", "optionRunsCommand:-o ProxyCommand"],
      ["ssh -4oProxyCommand=rm host", "optionRunsCommand:-o ProxyCommand"],
      ["scp -qo ProxyCommand=rm a host:b", "optionRunsCommand:-o ProxyCommand"],
      ["sftp -Co LocalCommand=rm host", "optionRunsCommand:-o LocalCommand"],
      ["ssh -o='ProxyCommand rm' host", "optionRunsCommand:-o ProxyCommand"],
      ["ssh -o '\"ProxyCommand\"=rm' host", "optionRunsCommand:-o ProxyCommand"],
      ["ssh -o ' proxycommand=rm' host", "optionRunsCommand:-o proxycommand"],
      // ssh runs the xauth program XAuthLocation names; SetEnv and SendEnv give the remote command its environment.
      ["ssh -X -o XAuthLocation=./x host", "optionRunsCommand:-o XAuthLocation"],
      ["ssh -i key -l user -F cfg host", "optionRunsCommand:-F"],
      ["ssh -vi key -F cfg host", "optionRunsCommand:-F"],
      ["ssh -o SetEnv=PATH=/tmp/bin host make", "rewiringVariable:PATH"],
      ["ssh -o 'SetEnv A=1 LD_PRELOAD=/tmp/x.so' host make", "rewiringVariable:LD_PRELOAD"],
      ["ssh -oSetEnv='BASH_ENV=\"x y\"' host make", "rewiringVariable:BASH_ENV"],
      ["ssh -o 'setenv=\"PATH=a b\"' host ls", "rewiringVariable:PATH"],
      ["scp -o SetEnv=LD_PRELOAD=x a host:b", "rewiringVariable:LD_PRELOAD"],
      ["ssh -o SendEnv=PATH host make", "rewiringVariable:PATH"],
      ["ssh -o 'SendEnv LANG LD_*' host make", "rewiringVariable:LD_* (SendEnv sends every local variable it matches)"],
      ["ssh -o SendEnv=* host make", "rewiringVariable:* (SendEnv sends every local variable it matches)"],
      ["ssh -o UserKnownHostsFile=%d/.bashrc host", "valueAtRunTime:"],
      ["ssh -o 'IdentityFile ${HOME}/k' host", "valueAtRunTime:"],
      // -XX: options that run a command or read more options.
      ["MAVEN_OPTS='-Xmx1g -XX:OnOutOfMemoryError=evil' mvn test", "rewiringVariable:MAVEN_OPTS"],
      ["JAVA_OPTS=-XX:VMOptionsFile=opts.txt java -jar a.jar", "rewiringVariable:JAVA_OPTS"],
      ["MAVEN_OPTS=-XX:Flags=.hotspotrc mvn test", "rewiringVariable:MAVEN_OPTS"],
      // An interpreter's operand after --.
      ["poetry env use -- evil", "commandDenied:evil"],
      ["pdm use -- evil", "commandDenied:evil"],
      ["uv python pin -- evil", "commandDenied:evil"],
      // npm's alias of config.
      ["npm c set script-shell=./x", "optionRunsCommand:c set script-shell"],
      ["npm conf set script-shell ./x", "optionRunsCommand:conf set script-shell"],
      // cargo's keys in single quotes, or with an escape.
      ["cargo --config \"build.'rustc-wrapper'='evil'\" build", "optionRunsCommand:--config build.'rustc-wrapper'"],
      ["cargo --config 'build.\"rustc\\u002dwrapper\"=\"x\"' build", "optionRunsCommand:--config build.\"rustc\\u002dwrapper\""],
      ["CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER=./x cargo build", "rewiringVariable:CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER"],
      ["CARGO_HOST_LINKER=./x cargo build", "rewiringVariable:CARGO_HOST_LINKER"],
      // make: an abbreviation of --eval, and variables on its line that run code or choose the shell.
      ["make --ev='x: ; rm y' x", "optionRunsCommand:--ev"],
      ["make --eva x", "optionRunsCommand:--eva"],
      ["make SHELL=./x", "optionRunsCommand:SHELL="],
      ["make '.SHELLFLAGS=-c rm x;'", "optionRunsCommand:.SHELLFLAGS="],
      ["make 'x!=rm y'", "optionRunsCommand:x!="],
      ["make 'x:=$(shell rm y)'", "optionRunsCommand:x:="],
      ["make -j8 -- MAKEFILES=x.mk", "optionRunsCommand:MAKEFILES="],
    ] as const)
      expect(ids(text), text).toContain(id);
    for (const text of [
      "capsh --print -- -c 'ls x'",
      "cross-env A=1 \"l's\" x",
      "watchexec -c clear -- ls",
      "ssh -vo User=ci host ls",
      "ssh -o SetEnv=TERM=xterm host ls",
      "ssh -oUser=Fred host grep -F x f",
      "scp -oIdentitiesOnly=yes a host:b",
      "ssh -o 'SendEnv LANG LC_*' -o SendEnv=-PATH host ls",
      "ssh -o UserKnownHostsFile=/dev/null -o IdentityFile=keys/ci host ls",
      "ssh host grep -o ProxyCommand x",
      "MAVEN_OPTS='-Xmx2g -XX:+UseG1GC -XX:MaxRAMPercentage=75.0' mvn test",
      "poetry env use -- 3.12",
      "npm c set color=false",
      "cargo --config profile.release.lto=true build",
      "make CFLAGS=-O2 'LDFLAGS=-L$(PWD)/lib' all",
    ])
      expect(ids(text).filter((x) => !x.startsWith("pathOutside")), text).toEqual([]);
  });
  it("refuses settings and arguments that hand a program code to run, and files of options it does not read", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.option ?? f.data.why ?? "")}`);
    for (const [text, id] of [
      // Mercurial's settings: anything but those that run nothing, by any prefix of --config.
      ["hg --config hooks.pre-commit='rm -rf ~' commit", "optionRunsCommand:--config hooks.pre-commit=rm -rf ~"],
      ["hg --conf=ui.editor=rm commit", "optionRunsCommand:--config ui.editor=rm"],
      ["chg --config extensions.x=/tmp/x.py status", "optionRunsCommand:--config extensions.x=/tmp/x.py"],
      ["svn --config-option config:helpers:editor-cmd=rm commit", "optionRunsCommand:--config-option config:helpers:editor-cmd=rm"],
      ["svn --config-option=servers:tunnels:x=rm up", "optionRunsCommand:--config-option servers:tunnels:x=rm"],
      ["svn commit --editor-cmd rm", "optionRunsCommand:--editor-cmd"],
      ["svn diff --diff-cmd=./x", "optionRunsCommand:--diff-cmd"],
      ["svn --config-dir ./cfg up", "wrapperUnknown:--config-dir"],
      ["curl -K cfg https://x", "wrapperUnknown:-K"],
      ["curl -sSK cfg https://x", "wrapperUnknown:-K"],
      ["curl --conf cfg https://x", "wrapperUnknown:--config"],
      ["aria2c --conf-path=x https://x", "wrapperUnknown:--conf-path"],
      ["aria2c --on-download-complete rm https://x", "optionRunsCommand:--on-download-complete"],
      ["aria2c --on-bt-download-complete=./x https://x", "optionRunsCommand:--on-bt-download-complete"],
      ["wget --use-askpass=./x https://x", "optionRunsCommand:--use-askpass"],
      ["ansible all -a 'rm -rf x'", "optionRunsCommand:-a"],
      ["ansible-pull -U https://host/repo.git", "optionRunsCommand:a playbook it fetches (-U)"],
      ["ansible localhost -m shell -a'rm x'", "optionRunsCommand:-a"],
      ["ansible all --arg='rm x'", "optionRunsCommand:-a"],
      ["salt-call cmd.run 'rm x'", "optionRunsCommand:cmd.run"],
      ["salt '*' file.remove /", "optionRunsCommand:file.remove"],
      // npm's scripts are command lines npm runs later.
      ["npm pkg set scripts.test='rm -rf ~'", "wrapperUnknown:laterSettings"],
      ["npm pkg set 'scripts[test]=x'", "wrapperUnknown:laterSettings"],
      ["npm set-script test x", "wrapperUnknown:laterSettings"],
      // getopt_long's abbreviations, option values before a subcommand, clusters, compound functions, the other clients.
      ["wget -O out.html --use-ask=./x https://x", "optionRunsCommand:--use-askpass"],
      ["aria2c -d . --on-download-comp=./x https://x", "optionRunsCommand:--on-download-complete"],
      ["aria2c --conf=./x.conf https://x", "wrapperUnknown:--conf-path"],
      ["svnmucc --config-option config:helpers:editor-cmd=rm mkdir u", "optionRunsCommand:--config-option config:helpers:editor-cmd=rm"],
      ["svnsync --config-dir ./cfg sync u", "wrapperUnknown:--config-dir"],
      ["ansible all -ba 'rm -rf x'", "optionRunsCommand:-a"],
      ["ansible all -kKa'rm -rf x'", "optionRunsCommand:-a"],
      ["salt '*' test.ping,cmd.run ,'rm -rf x'", "optionRunsCommand:cmd.run"],
      ["salt-call --log-level debug cmd.run x", "optionRunsCommand:cmd.run"],
      ["salt cmd.run cmd.run x", "optionRunsCommand:cmd.run"],
      ["npm --prefix . pkg set scripts.test=x", "wrapperUnknown:laterSettings"],
      ["npm pkg --prefix . set scripts.test=x", "wrapperUnknown:laterSettings"],
      ["pnpm pkg set scripts.test=x", "wrapperUnknown:laterSettings"],
      ["bun pm pkg set scripts.test=x", "wrapperUnknown:laterSettings"],
      ["npm pkg set lint-staged.x='rm -rf x'", "wrapperUnknown:laterSettings"],
      ["npm pkg set husky.hooks.pre-commit=x", "wrapperUnknown:laterSettings"],
    ] as const)
      expect(ids(text), text).toContain(id);
    for (const text of [
      "hg status",
      "hg --config ui.username=me commit -m x",
      "hg --config=diff.git=1 diff",
      "svn --config-option servers:global:http-timeout=60 up",
      "curl -sSL -o out.json https://x/y",
      "curl -d K=1 https://x",
      "curl -sH 'X-K: 1' https://x",
      "aria2c -x4 https://x/f.iso",
      "ansible all -m ping",
      "salt-call test.ping",
      "salt '*' grains.items",
      "npm pkg set version=1.2.3",
      "npm --prefix . pkg set version=1.2.3",
      "npm pkg get scripts",
      "wget -O out.html --user=me --tries=3 https://x",
      "aria2c -d . --conditional-get=true https://x",
      "ansible all -bm ping",
      "ansible all -vvv -i hosts -m ping",
      "salt web1.example.com test.ping",
      "salt -L a,b grains.items",
      "salt-run jobs.list_jobs",
      "npm test",
    ])
      expect(ids(text).filter((x) => !x.startsWith("pathOutside")), text).toEqual([]);
  });

  it("reads the user's settings that command-line tools change as writes outside the workspace, and the hooks that installers write", () => {
    const run = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false });
    for (const [text, manager] of [
      ["gh config set editor 'rm -rf ~'", "gh"],
      ["gh alias set x '!rm'", "gh"],
      ["gh auth login", "gh"],
      ["glab config set editor rm", "glab"],
      ["gcloud config set project x", "gcloud"],
      ["aws configure set region x", "aws"],
      ["aws sso login", "aws"],
      ["kubectl config set-context x", "kubectl"],
      ["kubectl config use-context prod", "kubectl"],
      ["docker login", "docker"],
      ["docker context use x", "docker"],
      ["docker plugin install vieux/sshfs", "docker"],
      ["az login", "az"],
      ["az extension add -n x", "az"],
    ] as const)
      expect(run(text).outside?.map((o) => o.manager), text).toEqual([manager]);
    for (const text of ["gh pr list", "gh config get editor", "gh alias list", "gh auth status", "gcloud config list", "aws s3 ls", "aws configure get region", "kubectl config view", "kubectl config current-context", "kubectl get pods", "docker context ls", "docker plugin ls", "docker ps", "az config get", "kubectl --kubeconfig ./kc config set-context x", "DOCKER_CONFIG=./.docker docker login"])
      expect(run(text).outside ?? [], text).toEqual([]);
    const paths = (text: string) => run(text).paths.map((p) => p.text);
    expect(paths("pre-commit install")).toContain(".git/hooks/pre-commit");
    expect(paths("lefthook install")).toContain(".git/hooks/pre-commit");
    expect(paths("python3 -m pre_commit install")).toContain(".git/hooks/pre-commit");
    expect(paths("python3 -m pre_commit run")).not.toContain(".git/hooks/pre-commit");
    expect(paths("npx husky install")).toContain(".git/config");
    expect(paths("husky")).toContain(".git/config");
    expect(paths("git lfs install")).toEqual(expect.arrayContaining([".git/hooks/pre-push", "~/.gitconfig"]));
    expect(paths("git lfs install --local")).toContain(".git/hooks/pre-push");
    expect(paths("git lfs install --local")).not.toContain("~/.gitconfig");
    expect(paths("git-lfs install")).toEqual(expect.arrayContaining([".git/hooks/pre-push", "~/.gitconfig"]));
    expect(paths("git-lfs install --local")).not.toContain("~/.gitconfig");
    expect(paths("git-lfs pull").filter((p) => p.startsWith(".git") || p.startsWith("~"))).toEqual([]);
    for (const text of ["pre-commit run --all-files", "lefthook run pre-commit", "git lfs pull", "git lfs track '*.psd'", "husky --version"])
      expect(paths(text).filter((p) => p.startsWith(".git") || p.startsWith("~")), text).toEqual([]);
  });

  it("follows ip netns exec, perf, lockf, setlock and tsp, and refuses programs that run a command elsewhere, later or by their own grammar", () => {
    const ids = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.messageId}:${String(f.data.entry ?? f.data.why ?? f.data.option ?? "")}`);
    for (const [text, id] of [
      ["ip netns exec ns rm x", "commandDenied:rm"],
      ["ip -n a netns exec b rm x", "commandDenied:rm"],
      ["perf stat -e cycles -r 3 rm x", "commandDenied:rm"],
      ["perf record -g -- rm x", "commandDenied:rm"],
      ["perf stat --frob rm x", "wrapperUnknown:unknownOption"],
      ["lockf -t 5 f rm x", "commandDenied:rm"],
      ["setlock -n f rm x", "commandDenied:rm"],
      ["tsp rm x", "commandDenied:rm"],
      ["docker run img rm x", "wrapperUnknown:container"],
      ["podman exec c rm x", "wrapperUnknown:container"],
      ["systemd-nspawn -D root rm x", "wrapperUnknown:container"],
      ["schroot -c x -- rm x", "wrapperUnknown:container"],
      ["fakechroot rm x", "wrapperUnknown:container"],
      ["docker-compose up", "wrapperUnknown:container"],
      ["docker-compose run --rm app rm -rf /", "wrapperUnknown:container"],
      ["docker-compose exec web sh -c id", "wrapperUnknown:container"],
      ["podman-compose up -d", "wrapperUnknown:container"],
      ["docker-compose --file=x.yml restart web", "wrapperUnknown:container"],
      ["docker-compose -fx.yml create", "wrapperUnknown:container"],
      ["docker-compose $SUB", "wrapperUnknown:container"],
      ["docker-compose compose up", "wrapperUnknown:container"],
      ["docker compose up", "wrapperUnknown:container"],
      ["docker compose --dry-run up", "wrapperUnknown:container"],
      ["podman compose exec web sh", "wrapperUnknown:container"],
      ["nerdctl compose run web sh", "wrapperUnknown:container"],
      ["docker -H unix:///run/x.sock run img", "wrapperUnknown:container"],
      ["docker -Hunix:///run/x.sock run img", "wrapperUnknown:container"],
      ["docker --context ci compose up", "wrapperUnknown:container"],
      ["docker --context=ci exec c sh", "wrapperUnknown:container"],
      ["docker --frob x run img", "wrapperUnknown:container"],
      ["docker --frob x image build .", "wrapperUnknown:container"],
      ["docker image build .", "wrapperUnknown:container"],
      ["docker builder build .", "wrapperUnknown:container"],
      ["podman image build .", "wrapperUnknown:container"],
      ["podman farm build .", "wrapperUnknown:container"],
      ["nerdctl build .", "wrapperUnknown:container"],
      ["docker stack deploy -c compose.yml app", "wrapperUnknown:container"],
      ["docker service create alpine rm x", "wrapperUnknown:container"],
      ["docker service update --args 'rm x' app", "wrapperUnknown:container"],
      ["podman machine ssh rm x", "wrapperUnknown:container"],
      ["docker start web", "wrapperUnknown:container"],
      ["docker restart -t 1 web", "wrapperUnknown:container"],
      ["docker unpause web", "wrapperUnknown:container"],
      ["docker --context ci start web", "wrapperUnknown:container"],
      ["docker container start web", "wrapperUnknown:container"],
      ["docker attach web", "wrapperUnknown:container"],
      ["docker debug web", "wrapperUnknown:container"],
      ["docker scout cves img", "wrapperUnknown:container"],
      ["docker frob", "wrapperUnknown:container"],
      ["docker plugin install vieux/sshfs", "wrapperUnknown:container"],
      ["docker plugin enable x", "wrapperUnknown:container"],
      ["podman start web", "wrapperUnknown:container"],
      ["podman restart web", "wrapperUnknown:container"],
      ["podman unpause web", "wrapperUnknown:container"],
      ["podman unshare rm x", "wrapperUnknown:container"],
      ["podman auto-update", "wrapperUnknown:container"],
      ["podman runlabel INSTALL img", "wrapperUnknown:container"],
      ["podman buildx build .", "wrapperUnknown:container"],
      ["podman pod create --infra-command /bin/x", "wrapperUnknown:container"],
      ["podman pod start p", "wrapperUnknown:container"],
      ["podman pod restart p", "wrapperUnknown:container"],
      ["podman pod clone --start p", "wrapperUnknown:container"],
      ["podman healthcheck run web", "wrapperUnknown:container"],
      ["podman play kube x.yml", "wrapperUnknown:container"],
      ["podman kube play x.yml", "wrapperUnknown:container"],
      ["nerdctl start web", "wrapperUnknown:container"],
      ["nerdctl restart web", "wrapperUnknown:container"],
      ["nerdctl unpause web", "wrapperUnknown:container"],
      ["nerdctl internal oci-hook", "wrapperUnknown:container"],
      ["docker --config ./ci pull img", "wrapperUnknown:configurationFile"],
      ["docker --config=./ci ps", "wrapperUnknown:configurationFile"],
      ["docker --config ./ci --frob x ps", "wrapperUnknown:configurationFile"],
      ["docker -H ssh://build ps", "wrapperUnknown:namesProgram"],
      ["docker --host=ssh://build images", "wrapperUnknown:namesProgram"],
      ["docker -Hssh://build ps", "wrapperUnknown:namesProgram"],
      ["docker -H $HOST ps", "wrapperUnknown:namesProgram"],
      ["podman --runtime ./x ps", "wrapperUnknown:namesProgram"],
      ["podman --runtime=crun images", "wrapperUnknown:namesProgram"],
      ["podman ps --runtime ./x", "wrapperUnknown:namesProgram"],
      ["podman --runtime-flag debug ps", "wrapperUnknown:namesProgram"],
      ["podman --conmon ./x ps", "wrapperUnknown:namesProgram"],
      ["podman --network-cmd-path ./x ps", "wrapperUnknown:namesProgram"],
      ["podman --ssh native --url ssh://h ps", "wrapperUnknown:namesProgram"],
      ["podman --ssh=native ps", "wrapperUnknown:namesProgram"],
      ["podman --storage-opt overlay.mount_program=./x ps", "wrapperUnknown:namesProgram"],
      ["podman --hooks-dir ./h ps", "wrapperUnknown:configurationFile"],
      ["podman --module ./m.conf ps", "wrapperUnknown:configurationFile"],
      ["podman --cdi-spec-dir ./c ps", "wrapperUnknown:configurationFile"],
      ["podman --network-config-dir ./n ps", "wrapperUnknown:configurationFile"],
      ["podman pull --authfile auth.json img", "wrapperUnknown:configurationFile"],
      ["podman login --authfile=auth.json r", "wrapperUnknown:configurationFile"],
      ["podman --registries-conf ./r.conf pull img", "wrapperUnknown:configurationFile"],
      ["nerdctl --cni-path ./bin ps", "wrapperUnknown:namesProgram"],
      ["nerdctl ps --cni-path=./bin", "wrapperUnknown:namesProgram"],
      ["nerdctl --cni-netconfpath ./n ps", "wrapperUnknown:configurationFile"],
      ["podman-compose --podman-path ./x ps", "wrapperUnknown:unknownOption"],
      ["docker-compose --frob ps", "wrapperUnknown:unknownOption"],
      ["pueue add rm x", "wrapperUnknown:later"],
      ["pm2 start app.js", "wrapperUnknown:later"],
      ["crontab jobs.txt", "wrapperUnknown:later"],
      ["daemonize /bin/rm x", "wrapperUnknown:later"],
      ["start-stop-daemon --start --exec ./x", "wrapperUnknown:later"],
      ["concurrently 'npm:watch' 'rm x'", "wrapperUnknown:commandList"],
      ["chokidar src -c 'rm x'", "wrapperUnknown:commandList"],
      ["onchange src -- rm x", "wrapperUnknown:commandList"],
      ["xterm -e rm x", "wrapperUnknown:commandList"],
      ["gnome-terminal -- rm x", "wrapperUnknown:commandList"],
      ["dotenv -- rm x", "wrapperUnknown:loadsEnvFile"],
      ["env-cmd -f .env.ci rm x", "wrapperUnknown:loadsEnvFile"],
      ["gdb --args ./a.out x", "optionRunsCommand:--args"],
      ["gdb -batch -ex 'shell rm x' ./a.out", "optionRunsCommand:-ex"],
      ["fd -e js -x rm", "optionRunsCommand:-x"],
      ["fd --exec-batch rm", "optionRunsCommand:--exec-batch"],
      ["rg --pre ./x pattern", "optionRunsCommand:--pre"],
      ["vim -c '!rm x' f", "optionRunsCommand:-c"],
      ["vim +'!rm x' f", "optionRunsCommand:+!rm x"],
      ["less +'!rm x' f", "optionRunsCommand:+!rm x"],
    ] as const)
      expect(ids(text), text).toContain(id);
    for (const text of ["ip addr show", "ip netns list", "perf report", "perf stat -p 1", "docker ps", "docker images", "podman pull img", "docker-compose ps", "docker-compose -f x.yml logs -f web", "podman-compose --env-file app.env config", "docker-compose --version", "docker compose", "docker compose --help", "docker compose ps", "docker compose down", "nerdctl compose pull", "docker --context ci compose ls", "docker --context ci ps", "docker -H tcp://h:2375 images", "docker image ls", "docker builder prune", "docker --frob x ps", "docker stack ls", "docker service ls", "podman machine list", "docker stop web", "docker rm -f web", "docker logs -f web", "docker inspect web", "docker pull img", "docker push img", "docker tag a b", "docker rmi img", "docker version", "docker info", "docker network ls", "docker volume prune", "docker system df", "docker plugin ls", "docker -H tcp://h:2375 ps", "docker -H unix:///run/x.sock ps", "docker --tls ps", "podman --url ssh://h ps", "podman --ssh golang ps", "podman --storage-opt overlay.mountopt=nodev ps", "podman pod ps", "podman pod stop p", "podman pod rm p", "podman healthcheck --help", "podman generate systemd --new web", "podman stop web", "podman init web", "nerdctl ps", "nerdctl --namespace k8s.io images", "nerdctl stop web", "pm2 ls", "pueue status", "crontab -l", "gdb ./a.out", "fd -e js", "rg -e x src", "vim +10 f", "less +G f", "less -R f", "concurrently --version"])
      expect(ids(text), text).toEqual([]);
  });
  it("reads sed's scripts as GNU sed compiles them: e runs a command line, w, W, r and R name files", () => {
    const report = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: [], allowCompound: false });
    const ids = (text: string) => report(text).findings.map((f) => `${f.messageId}:${String(f.data.how ?? f.data.why ?? f.data.source ?? "")}`);
    const paths = (text: string) => report(text).paths.map((p) => p.text);
    // The e command (with a command line, or the pattern space) and the e flag of s run a command line.
    for (const [text, how] of [
      ["sed 'e rm -rf x' f", "e rm -rf x"],
      ["sed '1e rm x' f", "e rm x"],
      ["sed -n '/re/e touch y' f", "e touch y"],
      ["sed '$!{e\n}' f", "e without a command (the pattern space)"],
      ["sed 's/.*/rm x/e' f", "the e flag of s"],
      ["sed -E 's/(a)/\\1/ge' f", "the e flag of s"],
      ["sed -e p -e 'e ls' f", "e ls"],
      ["sed --expression='1,5e ls' f", "e ls"],
      ["sed --exp 'e ls' f", "e ls"],
      ["sed -ne 'p;e ls' f", "e ls"],
      ["sed -nes/x/y/e f", "the e flag of s"],
      ["sed -s -z -i.bak 'y/ab/cd/;e ls' f", "e ls"],
      ["sed 's/[/]/x/;e ls' f", "e ls"],
      ["sed 's|a|b|w out\ne ls' f", "e ls"],
      ["sed ':a;N;ba;e ls' f", "e ls"],
      ["sed 'a\\\ntext\ne ls' f", "e ls"],
      ["sed '0~3 e ls' f", "e ls"],
      ["sed '/x/I,+2 e ls' f", "e ls"],
      ["gsed 'e ls' f", "e ls"],
      ["sudo sed 'e ls' f", "e ls"],
      // Read another way: BSD sed's -i SUFFIX, GNU sed with POSIXLY_CORRECT (options end at the first operand).
      ["sed -i '' 's/a/b/e' f", "the e flag of s"],
      ["sed 'e ls' -e p f", "e ls"],
    ] as const)
      expect(ids(text), text).toContain(`scriptRunsCommand:${how}`);
    // The files a script writes and reads are paths, checked as the line's words are (the name is the rest of the line).
    expect(paths("sed -n 'w .git/config' f")).toContain(".git/config");
    expect(paths("sed 's/a/b/w ../out.txt' f")).toContain("../out.txt");
    expect(paths("sed 's/a/b/gw ../x;p' f")).toContain("../x;p");
    expect(paths("sed '1,5W ../x' f")).toContain("../x");
    expect(paths("sed '/re/r /etc/shadow' f")).toContain("/etc/shadow");
    expect(paths("sed '$R ~/.ssh/id_rsa' f")).toContain("~/.ssh/id_rsa");
    expect(paths("sed -e '1{' -e 'w ../x' -e '}' f")).toContain("../x");
    expect(paths("sed -n -f edit.sed -e 'w ../x' f")).toEqual(expect.arrayContaining(["edit.sed", "../x", "f"]));
    expect(paths("sed -i '' 's/a/b/w ../x' f")).toContain("../x");
    // A script sed would read but plangate cannot follow is refused; so is a script file read from standard input.
    expect(ids("sed 'k' f")).toEqual(['unreadableScript:the command "k"']);
    expect(ids("sed 's/a/b/q' f")).toEqual(['unreadableScript:the flag "q" of s']);
    expect(ids("sed -f - f")).toEqual(["hiddenCommands:standardInput"]);
    expect(ids("sed --file=/dev/stdin f")).toEqual(["hiddenCommands:standardInput"]);
    // Scripts that only edit text, a script file of the project's (read as awk's or python's is), and the sandbox.
    for (const text of [
      "sed -i s/a/b/ src/app.ts",
      "sed -n '1,5p' f",
      "sed -E 's/(foo|bar)+/x/g; /^#/d' f",
      "sed -e 's/a/b/' -e '/x/,/y/{s/c/d/;p}' f",
      "sed '/start/,/end/!d;y/abc/xyz/' f",
      "sed 's/e/E/g' f",
      "sed 's/[[:space:]]*$//;s/x/e/2' f",
      "sed 'a\\\nappended text; e ls' f",
      "sed '1i # e ls' f",
      "sed -n '$=' f",
      "sed 'q5' f",
      "sed ':e;be' f",
      "sed '# e ls\np' f",
      "sed -f edit.sed f",
      "sed --debug -s -- 's/a/b/' e",
      "sed -n 'w out.txt' f",
      "sed 'r header.txt' f",
      "sed 'w /dev/stdout' f",
    ])
      expect(ids(text), text).toEqual([]);
  });
  it("reads a program as a file system that ignores case, or Windows, finds it: SH, Sed, sed.exe", () => {
    const report = (text: string, deny: string[] = []) => analyseCommand(reader, text, "chain", { allow: [], deny, allowCompound: true });
    const ids = (text: string, deny: string[] = []) => report(text, deny).findings.map((f) => f.messageId);
    for (const [text, id] of [
      ["Sed 'e ls' f", "scriptRunsCommand"],
      ["sed.exe 'e ls' f", "scriptRunsCommand"],
      ["GSED.EXE 'e ls' f", "scriptRunsCommand"],
      ["SH -c 'sed \"e ls\" f'", "scriptRunsCommand"],
      ["'C:\\Git\\bin\\bash.exe' -c 'sed \"e ls\" f'", "scriptRunsCommand"],
      ["SUDO sed 'e ls' f", "scriptRunsCommand"],
      ["GIT -c core.pager=x log", "gitRunsCode"],
      ["SSH -o ProxyCommand=x h", "optionRunsCommand"],
      ["ENV PATH=/x ls", "rewiringVariable"],
      ["Just --shell x", "optionRunsCommand"],
    ] as const)
      expect(ids(text), text).toContain(id);
    expect(report("SED -n 'w .git/config' f").paths.map((p) => p.text)).toContain(".git/config");
    expect(ids("rm.exe x", ["rm"])).toContain("commandDenied");
    for (const spelt of ["rm.com", "RM.CMD", "rm.bat", "rm.", "rm.exe.", "'C:\\bin\\rm.Exe'"]) expect(ids(`${spelt} x`, ["rm"]), spelt).toContain("commandDenied");
    expect(ids("sed.com 'e ls' f")).toContain("scriptRunsCommand");
    // Names that only end like one: read as written.
    expect(ids("rm.cmdx x", ["rm"])).not.toContain("commandDenied");
    expect(ids(".exe x", ["rm"])).not.toContain("commandDenied");
    expect(ids("SH -c 'rm x'", ["rm"])).toContain("commandDenied");
    // A builtin is the shell's only as spelt: `CD` and `TIME cd` move no shell.
    const cwdOf = (text: string) => report(text).paths.find((p) => p.text === "x")?.cwd;
    expect(cwdOf("CD sub; cat x")).toBe("");
    expect(cwdOf("TIME cd sub; cat x")).toBe("");
    expect(cwdOf("cd sub; cat x")).toBe("sub");
    expect(report("ls -la; Makefile").programs).toEqual(["ls", "Makefile"]);
  });
  it("refuses options of wrappers it does not know rather than guess the program", () => {
    expect(rules("sudo --frobnicate rm x", "chain")).toEqual(["disallowed-tool"]);
    expect(rules("timeout --weird 5 ls", "chain")).toEqual(["disallowed-tool"]);
  });
});

describe("spellings of a program (property)", () => {
  /** One character written one of the ways bash reads as that character. */
  const spell = (c: string, how: number): string =>
    [c, `\\${c}`, `'${c}'`, `"${c}"`, `$'\\x${c.charCodeAt(0).toString(16)}'`, `$'\\${c.charCodeAt(0).toString(8)}'`, `${c}''`, `""${c}`][how % 8]!;
  const name = fc.string({ minLength: 1, maxLength: 8, unit: fc.constantFrom(..."abcdefghijklmnopqrstuvwxyz") });
  const hows = fc.array(fc.nat(7), { minLength: 8, maxLength: 8 });
  const prefix = fc.constantFrom("", "/usr/bin/", "FOO=1 ", "command ", "env -i ", "sudo -u root ", "xargs ", "exec ", "timeout 5 ", "nohup ", "nice -5 ", "unshare -r ", "fakeroot ", "sg staff ", "parallel ", "npx ", "npx -y ", "npm exec -- ", "npm --prefix x exec ", "pnpm exec ", "pnpm dlx ", "yarn exec ", "bunx ", "uvx ", "uv run ", "uv run --with x ", "uv tool run ", "poetry run ", "pipenv run ", "pdm run ", "hatch run ", "conda run -n base ", "bundle exec ", "nix develop -c ", "mise exec -- ", "direnv exec . ", "asdf exec ", "gosu nobody ", "xcrun ", "corepack npx ", "pipx run ", "fnm exec --using=18 ", "nvm exec 18 ", "nvm exec ", "pkgx +node ", "pkgx ", "devbox run ", "devbox run -- ", "scl enable gcc -- ", "distrobox enter -n box -- ", "distrobox enter box -- ", "toolbox run ", "flatpak-spawn --host ", "bwrap --unshare-net ", "entr -r ", "runuser -u bob -- ", "tmux new -d ", "tmux neww -c sub ", "tmux -c ", "screen -dmS build ", "hyperfine ", "hyperfine -p ", "watchexec -- ", "watchexec -n -- ", "nodemon --exec ", "capsh -- -c ", "machinectl shell .host ", "ssh host ", "cross-env A=1 ", "lerna exec -- ", "script -q -- ", "sudo -R root ", "ip netns exec ns ", "perf stat ", "perf record -g -- ", "lockf f ", "setlock f ", "tsp ");

  it("denies a denied program however it is spelt and whatever runs it", () => {
    fc.assert(
      fc.property(name, hows, prefix, (n, h, pre) => {
        const spelled = [...n].map((c, i) => spell(c, h[i]!)).join("");
        const r = analyseCommand(reader, `${pre}${spelled} x`, "chain", { allow: [], deny: [n], allowCompound: false });
        // Refused as denied, or as unreadable where tree-sitter-bash would split the word (`'a'\\a`).
        expect(r.findings.map((f) => f.rule).some((x) => x === "disallowed-tool" || x === "parse-error")).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("allows an allowed program however it is spelt", () => {
    fc.assert(
      // (Programs that run programs, such as sh or env, are judged by what they run; interpreters by the code they are given, ed's on its input.)
      fc.property(name.filter((n) => !isWrapper(n) && !isRunner(n) && !isInterpreter(n) && !["alias", "hash", "enable", "fc", "let"].includes(n)), hows, (n, h) => {
        const spelled = [...n].map((c, i) => spell(c, h[i]!)).join("");
        const r = analyseCommand(reader, `${spelled} x`, "chain", { allow: [n], deny: [], allowCompound: false });
        // Never another program: allowed as itself, or refused as unreadable.
        if (r.findings.length === 0) expect(r.programs).toEqual([n]);
        else expect(r.findings.map((f) => f.rule)).toEqual(["parse-error"]);
      }),
      { numRuns: 300 },
    );
  });
});

describe("command rules in plans: ids and positions", () => {
  it("reports each rule at the command argument of an intake step", async () => {
    const text = intake({ command: "rm -rf $DIR ../x", cwd: "." });
    const report = await run(text, { file: "plan.json", policy: policyWith({ deny: ["rm"] }), now: NOW });
    const at = text.indexOf('"rm -rf');
    const line = text.slice(0, at).split("\n").length;
    const column = at - text.lastIndexOf("\n", at - 1);
    for (const rule of ["disallowed-tool", "unresolved-argument", "path-outside-workspace"]) {
      const d = report.diagnostics.find((x) => x.rule === rule);
      expect(d, rule).toMatchObject({ severity: "error", step: 1, pointer: "/steps/0/arguments/command", line, column });
    }
    expect(report.valid).toBe(false);
  });

  it("reports at the EXECUTE code block of a Markdown plan", async () => {
    const text = teddy("make && \\rm -rf build");
    const policy = policyWith({ deny: ["rm"] });
    policy.markdown.requireSeparators = false;
    const report = await run(text, { file: "plan.md", policy, now: NOW });
    const d = report.diagnostics.filter((x) => x.severity === "error");
    expect(d.map((x) => x.rule)).toEqual(["disallowed-tool"]);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/actions/0/params/command", line: 11 });
  });

  it("reports a command line written in several steps at each of them, in single and chain mode", async () => {
    const steps = [1, 2, 3].map(() => ({ tool: "run_command", arguments: { command: "rm -rf $DIR" }, intent: "run it" }));
    steps.splice(1, 0, { tool: "run_command", arguments: { command: "ls" }, intent: "list" });
    const report = await run(JSON.stringify({ steps }, null, 2), { file: "plan.json", policy: policyWith({ deny: ["rm"] }), now: NOW });
    for (const rule of ["disallowed-tool", "unresolved-argument"]) expect(report.diagnostics.filter((d) => d.rule === rule).map((d) => d.step), rule).toEqual([1, 3, 4]);
    const md = `# Run\n\n## Rationale\nWhy.\n\n## Action Plan\n\n${[1, 2].map(() => "### EXECUTE\n- **Description:** run\n\n```shell\nmake && rm -rf build\n```\n").join("\n---\n\n")}`;
    const chain = await run(md, { file: "plan.md", policy: policyWith({ deny: ["rm"] }), now: NOW });
    expect(chain.diagnostics.filter((d) => d.rule === "disallowed-tool").map((d) => [d.step, d.line])).toEqual([
      [1, 11],
      [2, 20],
    ]);
  });

  it("reads arguments named for a line to run, and those a tool's inputSchema describes as shell command lines, as command lines", async () => {
    const { parseToolsText } = await import("../node/tools-file.js");
    const errors = async (args: Record<string, unknown>, tools?: ReturnType<typeof parseToolsText>) => {
      const text = JSON.stringify({ steps: [{ tool: "ci", arguments: args, intent: "run it" }] }, null, 2);
      const report = await run(text, { file: "plan.json", policy: policyWith({ deny: ["rm"] }), now: NOW, ...(tools ? { tools } : {}) });
      return report.diagnostics.filter((d) => d.severity === "error" && d.rule === "disallowed-tool").map((d) => d.pointer);
    };
    for (const name of ["cmd_to_run", "script_to_run", "shell_line", "bash_snippet", "sh_code", "post_install", "pre_build", "preCommit", "script_body", "scriptText", "subprocess", "popen", "spawn", "oneliner"])
      expect(await errors({ [name]: "rm -rf x" }), name).toEqual([`/steps/0/arguments/${name}`]);
    expect(await errors({ exec_args: ["rm", "-rf", "x"] })).toEqual(["/steps/0/arguments/exec_args"]);
    for (const name of ["description", "javascript_source", "typescript_code", "pre_release", "postal_code", "preview", "prefix", "build", "task"]) expect(await errors({ [name]: "rm -rf x" }), name).toEqual([]);
    // The operator's registry says what a tool's own names hold.
    const registry = parseToolsText(
      JSON.stringify({
        tools: [
          {
            name: "ci",
            inputSchema: {
              type: "object",
              properties: {
                build: { type: "string", description: "Shell command that builds the project" },
                steps: { type: "array", items: { type: "string" }, description: "Commands to run, one per line" },
                task: { type: "string", title: "Command line" },
                note: { type: "string", description: "A note about the command" },
              },
            },
          },
        ],
      }),
      "tools.json",
    );
    expect(await errors({ build: "rm -rf x" }, registry)).toEqual(["/steps/0/arguments/build"]);
    expect(await errors({ steps: ["make", "rm -rf x"] }, registry)).toEqual(["/steps/0/arguments/steps/1"]);
    expect(await errors({ task: "rm x" }, registry)).toEqual(["/steps/0/arguments/task"]);
    expect(await errors({ note: "rm x" }, registry)).toEqual([]);
    // Other wordings, nested properties, items, alternatives and definitions a $ref names; and what is only about a command.
    const described = parseToolsText(
      JSON.stringify({
        tools: [
          {
            name: "ci",
            inputSchema: {
              type: "object",
              properties: {
                a: { type: "string", description: "A bash one-liner" },
                b: { type: "string", description: "Command to be executed in the sandbox" },
                c: { type: "string", description: "Executed in a shell" },
                d: { type: "string", description: "The build command" },
                e: { type: "string", description: "A command the server will execute" },
                options: { type: "object", properties: { f: { type: "string", description: "Shell cmd" } } },
                g: { type: "array", items: { type: "string", description: "A shell command" } },
                h: { anyOf: [{ type: "string", description: "Command which gets executed" }, { type: "null" }] },
                i: { $ref: "#/$defs/Line" },
                cwd: { type: "string", description: "Working directory for the command to run" },
                flags: { type: "string", description: "Command-line flags" },
                out: { type: "string", description: "Output of the shell command" },
              },
              $defs: { Line: { type: "string", description: "Passed to sh -c" } },
            },
          },
        ],
      }),
      "tools.json",
    );
    for (const name of ["a", "b", "c", "d", "e", "i"]) expect(await errors({ [name]: "rm -rf x" }, described), name).toEqual([`/steps/0/arguments/${name}`]);
    expect(await errors({ options: { f: "rm x" } }, described)).toEqual(["/steps/0/arguments/options/f"]);
    expect(await errors({ g: ["make", "rm x"] }, described)).toEqual(["/steps/0/arguments/g/1"]);
    expect(await errors({ h: "rm x" }, described)).toEqual(["/steps/0/arguments/h"]);
    for (const name of ["cwd", "flags", "out"]) expect(await errors({ [name]: "rm -rf x" }, described), name).toEqual([]);
  });

  it("reads an argument vector with no command beside it as the command: a list as exec's, a string both as a shell line and split at blanks", async () => {
    const errors = async (args: Record<string, unknown>, tool = "Bash", commands: Partial<Policy["commands"]> = {}) => {
      const text = JSON.stringify({ steps: [{ tool, arguments: args, intent: "run it" }] }, null, 2);
      const report = await run(text, { file: "plan.json", policy: policyWith(commands), now: NOW });
      return report.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.rule}@${d.pointer}`);
    };
    expect(await errors({ argv: "sed -i s/a/b/ .git/config" })).toContain("protected-path-write@/steps/0/arguments/argv");
    expect(await errors({ argv: ["rm", "-rf", "../x"] })).toContain("path-outside-workspace@/steps/0/arguments/argv");
    expect(await errors({ args: ["rm", "-rf", "../x"] }, "shell")).toContain("path-outside-workspace@/steps/0/arguments/args");
    expect(await errors({ arguments: "rm -rf ../x" }, "exec")).toContain("path-outside-workspace@/steps/0/arguments/arguments");
    expect(await errors({ ARGV: ["rm", "x"] }, "run", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/ARGV");
    expect(await errors({ argv: ["sh", "-c", "rm x"] }, "run", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/argv");
    expect(await errors({ argv: ["sed", "e rm x", "f"] })).toContain("disallowed-tool@/steps/0/arguments/argv");
    // An argument vector beside a key that may name its program (execFile's `file`, `prog`, `binary`, `exe`): read as that program's too.
    expect(await errors({ file: "sh", args: ["-c", "echo x > .env"] }, "spawn")).toContain("protected-path-write@/steps/0/arguments/file");
    expect(await errors({ prog: "bash", argv: ["-c", "rm -rf ../x"] }, "spawn")).toContain("path-outside-workspace@/steps/0/arguments/prog");
    expect(await errors({ binary: "rm", arguments: ["x"] }, "spawn", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/binary");
    expect((await errors({ exe: "python3", args: ["-c", "print(1)"] }, "spawn")).some((e) => e.startsWith("disallowed-tool@/steps/0/arguments/"))).toBe(true);
    for (const args of [{ file: "data.csv", args: ["--header"] }, { file: "npm", args: ["test"] }, { binary: "git", argv: ["status"] }, { file: "report.md", title: "x" }])
      expect(await errors(args, "spawn"), JSON.stringify(args)).toEqual([]);
    // Lists of command lines named by their first or last word.
    for (const key of ["command_list", "commandsToRun", "cmds_to_run", "shell_cmd_list", "commands-list"])
      expect(await errors({ [key]: ["npm ci", "echo x > .env"] }, "ci"), key).toContain(`protected-path-write@/steps/0/arguments/${key}/1`);
    expect(await errors({ commands_to_run: ["npm ci", "npm test"], subcommands: ["install", "build"] }, "ci")).toEqual([]);
    expect(await errors({ argv: { $literal: ["rm", "../x"] } })).toContain("path-outside-workspace@/steps/0/arguments/argv");
    // Split at blanks, as shlex or execa would: `x;../../y` is one word, a path out of the workspace.
    expect(await errors({ argv: "cat x;../../y" }, "run", { allowCompound: true })).toContain("path-outside-workspace@/steps/0/arguments/argv");
    expect(await errors({ argv: ["rm", 1, "../x"] })).toContain("path-outside-workspace@/steps/0/arguments/argv");
    // Deeper in the arguments, an object is read as the step's own: an argument vector alone, a program with its arguments.
    expect(await errors({ options: { argv: ["rm", "x"] } }, "run", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/options/argv");
    expect(await errors({ input: { args: "rm x" } }, "run", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/input/args");
    expect(await errors({ options: { program: "rm", args: ["x"] } }, "run", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/options/program");
    expect(await errors({ options: { cmd: "sed", args: ["1e touch y", "f"] } })).toContain("disallowed-tool@/steps/0/arguments/options/args/0");
    // Command keys in any case and with any separators: shellCommand, cmd-line, CmdLine, Bash.Command.
    for (const key of ["shellCommand", "cmd-line", "CmdLine", "cmdline", "Bash.Command", "COMMAND_LINE"])
      expect(await errors({ [key]: "rm x" }, "run", { deny: ["rm"] }), key).toContain(`disallowed-tool@/steps/0/arguments/${key}`);
    // What runners, CI files and agent tools call the line they run, and names ending in command or cmd.
    for (const key of ["run", "exec", "Execute", "shell", "sh", "bash", "zsh", "shell_script", "commandToRun", "test_command", "buildCmd", "preCommand"])
      expect(await errors({ [key]: "rm x" }, "task", { deny: ["rm"] }), key).toContain(`disallowed-tool@/steps/0/arguments/${key}`);
    expect(await errors({ run: "rm -rf .git" }, "task")).toContain("protected-path-write@/steps/0/arguments/run");
    expect(await errors({ shell: "cat x > .git/config" }, "task")).toContain("protected-path-write@/steps/0/arguments/shell");
    // Lists of lines, each run by itself: a string is a line, a list an argument vector, an object a step's arguments.
    expect(await errors({ commands: ["npm ci", "rm -rf .git"] }, "task")).toContain("protected-path-write@/steps/0/arguments/commands/1");
    expect(await errors({ cmds: "rm -rf ../x" }, "task")).toContain("path-outside-workspace@/steps/0/arguments/cmds");
    expect(await errors({ run_commands: [["rm", "-rf", "../x"]] }, "task")).toContain("path-outside-workspace@/steps/0/arguments/run_commands/0");
    expect(await errors({ commands: [{ run: "rm x" }] }, "task", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/commands/0/run");
    expect(await errors({ commands: { $enum: ["ls", "rm x"] } }, "task", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/commands/$enum/1");
    expect(await errors({ scripts: { build: "make", test: "rm -rf .git" } }, "task")).toContain("protected-path-write@/steps/0/arguments/scripts/test");
    expect(await errors({ commands: { run: "rm x", cwd: "src" } }, "task", { deny: ["rm"] })).toEqual(["disallowed-tool@/steps/0/arguments/commands/run"]);
    // A POSIX shell named beside a command is the program that runs it; another shell is not read.
    expect(await errors({ command: "ls", shell: "bash" }, "task")).toEqual([]);
    expect(await errors({ command: "ls", shell: "/bin/bash" }, "task")).not.toContain("disallowed-tool@/steps/0/arguments/shell");
    expect(await errors({ command: "ls", options: { shell: "bash", cwd: "src" } }, "task")).toEqual([]);
    expect(await errors({ cmd: "ls", sh: "zsh", shell: true }, "task")).toEqual([]);
    expect(await errors({ command: "ls", shell: "pwsh" }, "task")).toContain("disallowed-tool@/steps/0/arguments/shell");
    expect(await errors({ shell: "bash -c 'rm x'" }, "task", { deny: ["rm"] })).toContain("disallowed-tool@/steps/0/arguments/shell");
    expect(await errors({ commands: [1, "x"] }, "task")).toEqual([]);
    expect(await errors({ commands: ["npm ci", "npm test"], run: true }, "task")).toEqual([]);
    // Keys that only contain such a name are not command lines; nor is a git-like subcommand.
    expect(await errors({ postscript: "rm x", command_name: "rm", subcommand: "rm x", commander: "rm x" }, "run", { deny: ["rm"] })).toEqual([]);
    // Entry points, recipes, scripts, hooks and event handlers of real tool and CI schemas.
    expect(await errors({ image: "alpine", entrypoint: "rm -rf ../x" }, "docker_run")).toContain("path-outside-workspace@/steps/0/arguments/entrypoint");
    expect(await errors({ entrypoint: ["rm", "-rf", ".git"] }, "docker_run")).toContain("protected-path-write@/steps/0/arguments/entrypoint");
    expect(await errors({ recipe: "rm -rf .git" }, "make")).toContain("protected-path-write@/steps/0/arguments/recipe");
    expect(await errors({ ExecStart: "rm -rf .git" }, "unit")).toContain("protected-path-write@/steps/0/arguments/ExecStart");
    expect(await errors({ keystrokes: "rm -rf .git\n" }, "terminal")).toContain("protected-path-write@/steps/0/arguments/keystrokes");
    expect(await errors({ before_script: ["npm ci", "rm -rf .git"] }, "ci")).toContain("protected-path-write@/steps/0/arguments/before_script/1");
    expect(await errors({ afterScript: "rm -rf .git" }, "ci")).toContain("protected-path-write@/steps/0/arguments/afterScript");
    expect(await errors({ script: ["rm", "-rf", ".git"] }, "ci")).toContain("protected-path-write@/steps/0/arguments/script");
    expect(await errors({ hooks: { pre: "rm -rf .git" } }, "job")).toContain("protected-path-write@/steps/0/arguments/hooks/pre");
    expect(await errors({ hooks: { post: ["make", "rm -rf .git"] } }, "job")).toContain("protected-path-write@/steps/0/arguments/hooks/post/1");
    expect(await errors({ pre_hook: "rm -rf .git" }, "job")).toContain("protected-path-write@/steps/0/arguments/pre_hook");
    expect(await errors({ scripts: { build: "rm -rf .git" } }, "npm")).toContain("protected-path-write@/steps/0/arguments/scripts/build");
    expect(await errors({ on_success: "rm -rf .git" }, "job")).toContain("protected-path-write@/steps/0/arguments/on_success");
    expect(await errors({ onFailure: "rm -rf .git" }, "job")).toContain("protected-path-write@/steps/0/arguments/onFailure");
    expect(await errors({ healthcheck: { test: ["CMD-SHELL", "rm -rf .git"] } }, "compose")).toContain("protected-path-write@/steps/0/arguments/healthcheck/test");
    expect(await errors({ healthcheck: { test: ["CMD", "rm", "-rf", ".git"] } }, "compose")).toContain("protected-path-write@/steps/0/arguments/healthcheck/test");
    expect(await errors({ language: "bash", code: "rm -rf .git" }, "execute_code")).toContain("protected-path-write@/steps/0/arguments/code");
    expect(await errors({ lang: "Shell", source: "rm -rf ../x" }, "run_cell")).toContain("path-outside-workspace@/steps/0/arguments/source");
    expect(await errors({ language: "powershell", code: "Remove-Item x" }, "execute_code")).toContain("disallowed-tool@/steps/0/arguments/code");
    // A variable that says where the program writes, set on the line, is a path the line writes.
    expect(await errors({ command: "TMPDIR=/etc mktemp" }, "task")).toContain("path-outside-workspace@/steps/0/arguments/command");
    expect(await errors({ command: "TMPDIR=.git mktemp" }, "task")).toContain("protected-path-write@/steps/0/arguments/command");
    expect(await errors({ command: "GOBIN=.git/hooks go install x" }, "task")).toContain("protected-path-write@/steps/0/arguments/command");
    expect(await errors({ command: "PREFIX=/etc npm install -g x" }, "task")).toContain("path-outside-workspace@/steps/0/arguments/command");
    expect(await errors({ command: "PIP_CONFIG_FILE=.env pip config set global.timeout 5" }, "task")).toContain("protected-path-write@/steps/0/arguments/command");
    expect(await errors({ command: "export TMPDIR=.git; mktemp" }, "task", { allowCompound: true })).toContain("protected-path-write@/steps/0/arguments/command");
    expect(await errors({ command: "TMPDIR=tmp GOCACHE=build/cache go test ./..." }, "task")).toEqual([]);
    // Set to a value decided at run time, it names a folder plangate cannot check: as `cp x "$DIR"` is.
    expect(await errors({ command: "TMPDIR=$HOME mktemp" }, "task")).toEqual(["unresolved-argument@/steps/0/arguments/command"]);
    expect(await errors({ command: 'PIP_TARGET="$(mktemp -d)" pip install x' }, "task", { allowCompound: true })).toContain("unresolved-argument@/steps/0/arguments/command");
    expect(await errors({ command: "TMPDIR= mktemp" }, "task")).toEqual([]);
    // Set for the program by a wrapper, as env does, or in a word it reads as a setting: a path all the same.
    for (const command of ["nice TMPDIR=/etc mktemp", "env -S 'TMPDIR=/etc mktemp'", "flatpak-spawn --env=GOBIN=/etc go install x"])
      expect(await errors({ command }, "task", { allowCompound: true }), command).toEqual(["path-outside-workspace@/steps/0/arguments/command"]);
    expect(await errors({ command: "LANG=$LC_ALL sort x" }, "task")).toEqual([]);
    // git's user and system configuration files are outside the workspace: setting them is a write there.
    expect(await errors({ command: "git config --global user.name x" }, "task")).toContain("path-outside-workspace@/steps/0/arguments/command");
    expect(await errors({ command: "git config --system --unset core.x" }, "task")).toContain("path-outside-workspace@/steps/0/arguments/command");
    expect(await errors({ command: "git config --global --get user.name" }, "task")).toEqual([]);
    expect(await errors({ command: "git config user.name x" }, "task")).toEqual([]);
    // What real plans hold there still passes: GitLab-like script lists, a host's hook settings, enum-like handlers, other languages.
    expect(await errors({ before_script: ["npm ci"], script: ["npm run build", "npm test"], after_script: ["echo done"] }, "ci")).toEqual([]);
    expect(await errors({ hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "npm test" }] }] } }, "settings")).toEqual([]);
    expect(await errors({ on_error: "continue", on_success: "echo done", webhook: "https://example.com/hook" }, "job")).toEqual([]);
    expect(await errors({ language: "python", source: "print('hi')", javascript: "f('x)", description: "x" }, "execute_code")).toEqual([]);
    // Code an interpreter runs: read as the interpreter given the code on its line, refused unless the policy names it.
    expect(await errors({ language: "python", code: "print('hi')", javascript: "f('x)", description: "x" }, "execute_code")).toEqual(["disallowed-tool@/steps/0/arguments/code"]);
    expect(await errors({ language: "python", code: "print('hi')" }, "execute_code", { inlineCode: ["python"] })).toEqual([]);
    expect(await errors({ healthcheck: { test: ["CMD", "curl", "-f", "http://localhost/health"] } }, "compose")).toEqual([]);
    expect(await errors({ jobs: [{ argv: ["sed", "1e touch y", "f"] }] })).toContain("disallowed-tool@/steps/0/arguments/jobs/0/argv");
    // Ordinary steps still pass; a list that is no argument vector is left alone.
    expect(await errors({ options: { args: [1, 2] } }, "plot")).toEqual([]);
    expect(await errors({ options: { argv: ["npm", "test"] } })).toEqual([]);
    expect(await errors({ argv: ["sed", "-i", "s/a/b/", "src/app.ts"] })).toEqual([]);
    expect(await errors({ args: "npm test" })).toEqual([]);
    expect(await errors({ args: [1, 2, 3] }, "plot")).toEqual([]);
    expect(await errors({ args: [{ name: "x" }] }, "call")).toEqual([]);
  });

  it("reports a package manager's write outside the workspace that no word names, and where it is decided", () => {
    const outside = (text: string, mode: "single" | "chain" = "chain", commands: Partial<Policy["commands"]> = {}) =>
      analyseCommand(reader, text, mode, { allow: [], deny: [], allowCompound: false, ...commands }).outside;
    expect(outside("npm install -g left-pad")).toEqual([
      {
        manager: "npm",
        how: "npm install -g",
        where: "npm's global prefix (its lib/node_modules, and its bin folder on the user's PATH)",
        fix: "install it in the workspace (npm install without -g, then npx), or give --prefix ./tools",
        span: { start: 12, end: 14 },
      },
    ]);
    // At the subcommand when it decides; at the command when it is nested (its words' offsets are not the line's).
    expect(outside("cargo install ripgrep")?.[0]).toMatchObject({ manager: "cargo", how: "cargo install", span: { start: 6, end: 13 } });
    expect(outside("make && sh -c 'go install x'")?.[0]).toMatchObject({ manager: "go", how: "go install", span: { start: 8, end: 28 } });
    expect(outside("pip3.12 install --user x")?.[0]).toMatchObject({ manager: "pip", how: "pip3.12 install --user" });
    expect(outside("sudo apt-get install -y jq")?.[0]).toMatchObject({ manager: "apt-get", how: "apt-get install" });
    // One finding per command, each command of a chain read.
    expect(outside("npm i -g a; npm i -g a; cargo install b")?.map((o) => o.how)).toEqual(["npm i -g", "npm i -g", "cargo install"]);
    // Each folder the shell may be in is no new finding.
    expect(outside("cd x; npm i -g a")).toHaveLength(1);
    // Nothing for what stays in the workspace, nor for a program that is no package manager.
    for (const line of [".venv/bin/pip install -r requirements.txt", "GOBIN=./bin go install x", "npm run build", "npm i --no-global x", "cargo build", "cat x", "rm -rf build", "make install"]) expect(outside(line), line).toBeUndefined();
    // What the project's configuration or the program's place decides is left to be decided where files are read:
    // one entry a manager and condition, with every folder the line runs it in.
    expect(outside("npm ci")).toEqual([
      { manager: "npm", how: "npm ci", where: "npm's global prefix (its lib/node_modules, and its bin folder on the user's PATH)", fix: "", span: { start: 4, end: 6 }, condition: { config: "npm" }, cwds: [""] },
    ]);
    expect(outside("npm i a; cd x; npm i b; npm ci; pnpm add c; yarn")?.map((o) => [o.manager, o.condition, o.cwds])).toEqual([
      ["npm", { config: "npm" }, ["", "x"]],
      ["pnpm", { config: "npm" }, ["x"]],
      ["yarn", { config: "yarn" }, ["x"]],
    ]);
    expect(outside("/home/me/p/.venv/bin/pip install x")).toMatchObject([{ manager: "pip", how: "pip install", condition: { program: "/home/me/p/.venv/bin/pip" } }]);
    expect(outside("pip install -r requirements.txt")).toMatchObject([{ manager: "pip", how: "pip install" }]);
    expect(outside("pip install -r requirements.txt")?.[0]?.condition).toBeUndefined();
    // The policy's commands.installOutside allows a manager, by its name or as the command spells it.
    expect(outside("cargo install x", "chain", { installOutside: ["cargo"] })).toBeUndefined();
    expect(outside("pip3 install --user x", "chain", { installOutside: ["pip3"] })).toBeUndefined();
    expect(outside("pip3 install --user x", "chain", { installOutside: ["pip"] })).toBeUndefined();
    expect(outside("pip3 install --user x", "chain", { installOutside: ["npm"] })).toHaveLength(1);
  });

  it("reads only the words of a package manager, known by its name first", () => {
    for (const name of ["npm", "pnpm", "yarn", "pip", "pip3", "pip3.12", "python3", "python3.11", "py", "pipx", "uv", "cargo", "go", "go1.22.3", "gem", "brew", "apt-get", "dnf", "pacman", "rustup", "corepack"])
      expect(mayWriteOutside(name), name).toBe(true);
    for (const name of ["cat", "git", "make", "node", "npx", "rm", "sed", "gofmt", "pip-compile", "python-config", "cargo-clippy", "golangci-lint", "ls"]) expect(mayWriteOutside(name), name).toBe(false);
    expect(installAllowed({ allow: [], deny: [], allowCompound: false }, "npm", "npm")).toBe(false);
    expect(installAllowed({ allow: [], deny: [], allowCompound: false, installOutside: [] }, "npm", "npm")).toBe(false);
    expect(installAllowed({ allow: [], deny: [], allowCompound: false, installOutside: ["np?"] }, "npm", "npm.cmd")).toBe(true);
    expect(installAllowed({ allow: [], deny: [], allowCompound: false, installOutside: ["*"] }, "brew", "brew")).toBe(true);
  });

  it("refuses a package manager's write outside the workspace in a plan, at the command", async () => {
    const errors = async (args: Record<string, unknown>, commands: Partial<Policy["commands"]> = {}) => {
      const report = await run(intake(args), { file: "plan.json", policy: policyWith(commands), now: NOW });
      return report.diagnostics.filter((d) => d.severity === "error").map((d) => `${d.rule}@${d.pointer}`);
    };
    expect(await errors({ command: "npm install -g left-pad" })).toEqual(["path-outside-workspace@/steps/0/arguments/command"]);
    expect(await errors({ commands: ["npm ci", "cargo install ripgrep"] })).toEqual(["path-outside-workspace@/steps/0/arguments/commands/1"]);
    expect(await errors({ program: "pip", args: ["install", "--user", "x"] })).toEqual(["path-outside-workspace@/steps/0/arguments/args/1"]);
    expect(await errors({ command: "cargo install ripgrep" }, { installOutside: ["cargo"] })).toEqual([]);
    expect(await errors({ command: "npm ci" })).toEqual([]);
  });

  it("follows a symlink a command names out of the workspace", async () => {
    const ws = join(tmp, "ws");
    mkdirSync(join(ws, "src"), { recursive: true });
    mkdirSync(join(tmp, "outside"), { recursive: true });
    symlinkSync("../outside", join(ws, "out"));
    const policy = policyWith({ allowCompound: true }, ws);
    const bad = await run(intake({ command: "cd out && cat secret.txt" }), { policy, workspace: ws, now: NOW });
    expect(bad.diagnostics.filter((d) => d.rule === "path-outside-workspace")).toHaveLength(2);
    const good = await run(intake({ command: "cd src && cat notes.txt" }), { policy, workspace: ws, now: NOW });
    expect(good.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

});
