import { mkdirSync, mkdtempSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { run } from "../../test/helpers.js";
import { defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { globReachesProtected } from "./constraint-check.js";
import { cpuBound } from "../../test/cpu-time.js";

/** CPU time since a process.cpuUsage() reading, in ms: the clock counts whatever else the machine runs. */
const cpuMs = (t: NodeJS.CpuUsage) => {
  const { user, system } = process.cpuUsage(t);
  return (user + system) / 1000;
};

// Worst-case validation: each rule that judges arguments judges a constraint by the worst value it admits.
const WS = "/workspace";
const policy = (over: Partial<Policy["plan"]> = {}, commands: string[] = ["pytest", "ls", "git"]): Policy => {
  const p = defaultPolicy(WS);
  p.plan = { ...p.plan, constraints: "allow", ...over };
  p.commands = { ...p.commands, allow: commands, allowCompound: false };
  return p;
};
const intake = (tool: string, args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });

async function found(rule: string, text: string, p: Policy = policy(), workspace = WS): Promise<(string | undefined)[]> {
  const r = await run(text, { policy: { ...p, workspace }, workspace });
  return r.diagnostics.filter((d) => d.rule === rule).map((d) => d.pointer);
}

describe("worst-case validation of argument constraints", () => {
  it.each([
    // unresolved-argument: placeholders inside operands and members
    ["unresolved-argument", intake("read_file", { path: { $glob: "<dir>/**" } }), ["/steps/0/arguments/path/$glob"]],
    ["unresolved-argument", intake("read_file", { path: { $enum: ["a.txt", "{{file}}"] } }), ["/steps/0/arguments/path/$enum/1"]],
    ["unresolved-argument", intake("read_file", { path: { $literal: "TODO" } }), ["/steps/0/arguments/path/$literal"]],
    ["unresolved-argument", intake("search", { query: { $regex: "TODO" } }), ["/steps/0/arguments/query/$regex"]],
    ["unresolved-argument", intake("search", { query: { $regex: "(?<year>[0-9]{4})-{{month}}" } }), ["/steps/0/arguments/query/$regex"]],
    ["unresolved-argument", intake("run", { command: { $enum: ["ls", "ls $HOME"] } }), ["/steps/0/arguments/command/$enum/1"]],
    // path-outside-workspace: globs by their text, regexes refused on paths, enum members as paths
    ["path-outside-workspace", intake("read_file", { path: { $glob: "../**" } }), ["/steps/0/arguments/path/$glob"]],
    ["path-outside-workspace", intake("read_file", { path: { $glob: "/etc/*" } }), ["/steps/0/arguments/path/$glob"]],
    ["path-outside-workspace", intake("read_file", { path: { $glob: "~/.ssh/*" } }), ["/steps/0/arguments/path/$glob"]],
    ["path-outside-workspace", intake("read_file", { path: { $glob: "src/../../x*" } }), ["/steps/0/arguments/path/$glob"]],
    ["path-outside-workspace", intake("read_file", { path: { $regex: "src/.*" } }), ["/steps/0/arguments/path/$regex"]],
    ["path-outside-workspace", intake("read_file", { path: { $regex: ".*" } }), ["/steps/0/arguments/path/$regex"]],
    ["path-outside-workspace", intake("read_file", { path: { $enum: ["a.txt", "../b.txt"] } }), ["/steps/0/arguments/path/$enum/1"]],
    ["path-outside-workspace", intake("read_file", { path: { $literal: "/etc/passwd" } }), ["/steps/0/arguments/path/$literal"]],
    ["path-outside-workspace", intake("fetch", { url: { $glob: "*" } }), ["/steps/0/arguments/url/$glob"]],
    ["path-outside-workspace", intake("fetch", { url: { $regex: "[a-zA-Z]+:.*" } }), ["/steps/0/arguments/url/$regex"]],
    // protected-path-write: a writer's glob that can name a protected path
    ["protected-path-write", intake("write_file", { path: { $glob: "**/*" }, content: "x" }), ["/steps/0/arguments/path/$glob"]],
    ["protected-path-write", intake("write_file", { path: { $glob: "src/**" }, content: "x" }), ["/steps/0/arguments/path/$glob"]],
    ["protected-path-write", intake("write_file", { path: { $glob: "src/*.py" }, content: "x" }), ["/steps/0/arguments/path/$glob"]],
    ["protected-path-write", intake("write_file", { path: { $glob: ".git/hooks/*" }, content: "x" }), ["/steps/0/arguments/path/$glob"]],
    ["protected-path-write", intake("write_file", { path: { $glob: "*" }, content: "x" }), ["/steps/0/arguments/path/$glob"]],
    ["protected-path-write", intake("write_file", { path: { $enum: ["a.txt", ".git/config"] }, content: "x" }), ["/steps/0/arguments/path/$enum/1"]],
    // commands: patterns must fix an allowed program; enum members are commands
    ["disallowed-tool", intake("run", { command: { $glob: "* x" } }), ["/steps/0/arguments/command/$glob"]],
    ["disallowed-tool", intake("run", { command: { $glob: "py* x" } }), ["/steps/0/arguments/command/$glob"]],
    ["disallowed-tool", intake("run", { command: { $glob: "curl *" } }), ["/steps/0/arguments/command/$glob"]],
    ["disallowed-tool", intake("run", { command: { $glob: "sh -c *" } }), ["/steps/0/arguments/command/$glob"]],
    ["disallowed-tool", intake("run", { command: { $regex: "pytest .*|curl .*" } }), ["/steps/0/arguments/command/$regex"]],
    ["disallowed-tool", intake("run", { command: { $regex: ".*" } }), ["/steps/0/arguments/command/$regex"]],
    ["disallowed-tool", intake("run", { command: { $enum: ["ls", "curl x"] } }), ["/steps/0/arguments/command/$enum/1"]],
    ["disallowed-tool", intake("run", { program: { $glob: "pytest" } }), ["/steps/0/arguments/program/$glob"]],
  ] as const)("%s: %s", async (rule, text, expected) => {
    expect(await found(rule, text)).toEqual(expected);
  });

  it.each([
    intake("read_file", { path: { $glob: "src/**/*.py" } }),
    intake("write_file", { path: { $glob: "src/[a-z]*.py" }, content: "x" }),
    intake("write_file", { path: { $enum: ["out/a.txt", "out/b.txt"] }, content: "x" }),
    intake("run", { command: { $glob: "pytest *" } }),
    intake("fetch", { url: { $glob: "https://example.org/*" } }),
    intake("search", { query: { $regex: "(?<year>[0-9]{4})-[0-9]{2}" } }),
    intake("run", { command: { $regex: "pytest [a-z/_.]+" } }),
    intake("run", { command: { $enum: ["ls", "git status"] } }),
  ])("accepts %s", async (text) => {
    const r = await run(text, { policy: policy(), workspace: WS });
    expect(r.diagnostics.filter((d) => d.severity === "error")).toEqual([]);
  });

  it("judges a command glob's literal words against commands.allow and commands.deny", async () => {
    const p = policy({}, ["git status", "pytest"]);
    p.commands.deny = ["rm"];
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "git status *" } }), p)).toEqual([]);
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "git *" } }), p)).toEqual(["/steps/0/arguments/command/$glob"]);
    const q = policy({}, []);
    q.commands.deny = ["git push"];
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "git * origin" } }), q)).toEqual(["/steps/0/arguments/command/$glob"]);
    expect(await found("disallowed-tool", intake("run", { command: { $regex: "git .*" } }), q)).toEqual(["/steps/0/arguments/command/$regex"]);
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "git status" } }), q)).toEqual([]);
    // `git status *` admits `git status push`, which the deny entry's wide reading (`git … push`) forbids.
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "git status *" } }), q)).toEqual(["/steps/0/arguments/command/$glob"]);
  });

  it("refuses a command pattern whose program looks like another, even when any program is allowed", async () => {
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "rм *" } }), policy({}, []))).toEqual(["/steps/0/arguments/command/$glob"]);
    expect(await found("disallowed-tool", intake("run", { command: { $glob: "rm *" } }), policy({}, []))).toEqual([]);
  });

  it("counts nested steps against limits.maxSteps", async () => {
    const p = policy();
    p.limits = { ...p.limits, maxSteps: 3 };
    const text = JSON.stringify({ steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "d", steps: [1, 2, 3].map(() => ({ tool: "Read", arguments: { file_path: "a" }, intent: "r" })) }] });
    // At the nested list that takes the plan past the limit (it is not read).
    expect(await found("limit-exceeded", text, p)).toEqual(["/steps/0/steps"]);
  });

  it("follows a symlinked folder before a glob's first wildcard", async () => {
    const ws = mkdtempSync(join(tmpdir(), "plangate-constraint-"));
    mkdirSync(join(ws, "src"));
    symlinkSync(tmpdir(), join(ws, "out"));
    expect(await found("path-outside-workspace", intake("read_file", { path: { $glob: "out/**" } }), policy(), ws)).toEqual(["/steps/0/arguments/path/$glob"]);
    expect(await found("path-outside-workspace", intake("read_file", { path: { $glob: "src/**" } }), policy(), ws)).toEqual([]);
  });

  it("judges a Task step's nested steps by the same rules", async () => {
    const text = JSON.stringify({
      steps: [{ tool: "Task", arguments: { prompt: "p" }, intent: "delegate", steps: [{ tool: "write_file", arguments: { path: "../x", content: "y" }, intent: "write" }] }],
    });
    expect(await found("path-outside-workspace", text)).toEqual(["/steps/0/steps/0/arguments/path"]);
  });

  it("finds witnesses of a glob reaching a protected glob both ways", () => {
    const prot = ["**/.git/**", "**/.env*", "**/*.pem"];
    const is = (p: string) => prot.some((g) => new RegExp(`^${g.replace(/\./g, "\\.").replace(/\*\*\//g, "(?:.*/)?").replace(/\/\*\*/g, "/.*").replace(/\*/g, "[^/]*")}$`).test(p));
    expect(globReachesProtected("**/*", prot, is)).toBeDefined();
    expect(globReachesProtected("keys/*", prot, is)).toBeDefined();
    expect(globReachesProtected("src/{a,.git}/x", prot, is)).toBeDefined();
    expect(globReachesProtected("src/[a-z]*.py", prot, is)).toBeUndefined();
    expect(globReachesProtected("docs/index.md", prot, is)).toBeUndefined();
  });
});

describe("globReachesProtected on hostile globs", () => {
  it("stays fast on a glob with many brace groups", () => {
    const g = "{a,b,c,d,e,f,g,h}/".repeat(40) + "*.py";
    const t = process.cpuUsage();
    globReachesProtected(g, ["**/.git/**", "**/.env*"], () => false);
    expect(cpuMs(t)).toBeLessThan(cpuBound(2000));
  });

  it("asks whether a witness is protected before matching it against a long glob", () => {
    // A glob of the longest length allowed, every witness of it long: matching each against the glob
    // (a linear-time engine building states for a 1024-character pattern) took about 25 ms a glob.
    const protectedGlobs = ["**/.git/**", "**/.env*", "**/*.pem", "**/*.key", "**/.ssh/**"];
    const t = process.cpuUsage();
    for (let i = 0; i < 100; i++) expect(globReachesProtected("[a-z]*".repeat(165) + i, protectedGlobs, () => false)).toBeUndefined();
    expect(cpuMs(t)).toBeLessThan(cpuBound(1200));
  });
});
