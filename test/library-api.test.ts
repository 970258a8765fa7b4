import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultPolicy, loadPolicy, PolicyError, validateFile, validatePlan } from "../src/index.js";
import { cli } from "./cli-io.js";

const PLAN = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "a.txt" }, intent: "Read a." }, { tool: "soupx", arguments: {}, intent: "Soup." }] });

function project(): string {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-api-")));
  mkdirSync(join(dir, ".git"));
  mkdirSync(join(dir, "plans"));
  writeFileSync(join(dir, "plangate.yaml"), "tools:\n  allow: [read_file]\n");
  writeFileSync(join(dir, "plans/p.json"), PLAN);
  return dir;
}

const rules = (r: { diagnostics: { rule: string }[] }) => r.diagnostics.map((d) => d.rule);

describe("loadPolicy", () => {
  it("takes a path, an options object, or nothing", async () => {
    const dir = project();
    const byPath = await loadPolicy(join(dir, "plangate.yaml"));
    const byOptions = await loadPolicy({ cwd: join(dir, "plans") });
    expect(byPath.policy.source).toBe(join(dir, "plangate.yaml"));
    expect(byOptions.hash).toBe(byPath.hash);
    expect((await loadPolicy()).policy.workspace).toBeTypeOf("string");
    expect((await loadPolicy({ file: false, cwd: dir })).policy.source).toBeUndefined();
  });

  it("refuses a wrong argument with a TypeError that names it", async () => {
    await expect(loadPolicy({ cwd: 3 } as never)).rejects.toThrow(TypeError);
    await expect(loadPolicy({ cwd: 3 } as never)).rejects.toThrow(/option "cwd" must be a string, not number 3/);
    await expect(loadPolicy({ files: "x" } as never)).rejects.toThrow(/unknown option "files"; did you mean "file"\?/);
    await expect(loadPolicy(42 as never)).rejects.toThrow(TypeError);
  });
});

describe("a workspace that is not a folder", () => {
  // On a real file system: a missing folder, a file, a link to a folder (fine) and a dangling link.
  const dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-api-ws-")));
  mkdirSync(join(dir, "ws"));
  writeFileSync(join(dir, "file.txt"), "x");
  symlinkSync(join(dir, "ws"), join(dir, "link"));
  symlinkSync(join(dir, "gone"), join(dir, "dangling"));
  writeFileSync(join(dir, "ws/plan.json"), PLAN);
  const cases = [
    ["missing", join(dir, "missing"), "it does not exist"],
    ["a file", join(dir, "file.txt"), "it is a file or another kind of entry"],
    ["a dangling link", join(dir, "dangling"), "it does not exist"],
  ] as const;

  it.each(cases)("%s is refused with a PolicyError, as the CLI's usage error, by validatePlan", async (_, ws, why) => {
    const message = `validatePlan: option "workspace": the workspace ${ws} is not a folder (${why}); no path in it could be checked`;
    await expect(validatePlan(PLAN, { workspace: ws })).rejects.toThrow(PolicyError);
    await expect(validatePlan(PLAN, { workspace: ws })).rejects.toThrow(message);
    // The workspace of a policy given as an option, as a Policy or as what loadPolicy would have returned.
    await expect(validatePlan(PLAN, { policy: defaultPolicy(ws) })).rejects.toThrow(`validatePlan: the policy's workspace: the workspace ${ws} is not a folder (${why})`);
    await expect(validatePlan(PLAN, { policy: { policy: defaultPolicy(ws), hash: "sha256:x", tools: undefined } })).rejects.toThrow(PolicyError);
    // A workspace option wins over the policy's, and is the one checked.
    await expect(validatePlan(PLAN, { policy: defaultPolicy(join(dir, "ws")), workspace: ws })).rejects.toThrow(message);
    expect((await validatePlan(PLAN, { policy: defaultPolicy(ws), workspace: join(dir, "ws") })).planHash).toMatch(/^sha256:/);
  });

  it.each(cases)("%s is refused by validateFile and loadPolicy too", async (_, ws, why) => {
    const file = join(dir, "ws/plan.json");
    await expect(validateFile(file, { workspace: ws })).rejects.toThrow(`validateFile: option "workspace": the workspace ${ws} is not a folder (${why})`);
    await expect(validateFile(file, { policy: defaultPolicy(ws) })).rejects.toThrow(`validateFile: the policy's workspace: the workspace ${ws} is not a folder (${why})`);
    await expect(loadPolicy({ file: false, cwd: dir, workspace: ws })).rejects.toThrow(`loadPolicy: option "workspace": the workspace ${ws} is not a folder (${why})`);
    const policyFile = join(dir, `policy-${_.replace(/ /g, "-")}.yaml`);
    writeFileSync(policyFile, `workspace: ${JSON.stringify(ws)}\n`);
    await expect(loadPolicy(policyFile)).rejects.toThrow(PolicyError);
  });

  it("a link to a folder is a folder, and the file system given as `files` is the one asked", async () => {
    expect((await validatePlan(PLAN, { workspace: join(dir, "link") })).diagnostics.map((d) => d.rule)).toEqual(["unknown-tool"]);
    expect((await validateFile(join(dir, "ws/plan.json"), { workspace: join(dir, "link") })).planHash).toMatch(/^sha256:/);
    expect((await loadPolicy({ file: false, cwd: dir, workspace: "link" })).policy.workspace).toBe(join(dir, "link"));
    // No workspace and no policy: the defaults, which judge paths from "/".
    expect((await validatePlan(PLAN)).planHash).toMatch(/^sha256:/);
    const { createFileProbe } = await import("../src/node/file-probe.js");
    const probe = createFileProbe();
    const fake = { ...probe, realpath: (p: string) => (p === "/virtual" ? "/virtual" : probe.realpath(p)), kind: (p: string) => (p === "/virtual" ? ("dir" as const) : probe.kind(p)) };
    expect((await validatePlan(PLAN, { workspace: "/virtual", files: fake })).planHash).toMatch(/^sha256:/);
    await expect(validatePlan(PLAN, { workspace: join(dir, "ws"), files: { ...probe, realpath: () => undefined } })).rejects.toThrow(/is not a folder \(it does not exist\)/);
  });
});

describe("validateFile and validatePlan", () => {
  it("validateFile finds the policy as the CLI does, so both give the same verdict", async () => {
    const dir = project();
    const lib = await validateFile(join(dir, "plans/p.json"));
    const viaCli = JSON.parse((await cli(["validate", join(dir, "plans/p.json"), "-o", "json"], { cwd: tmpdir() })).stdout);
    expect(rules(lib)).toEqual(viaCli.results[0].diagnostics.map((d: { rule: string }) => d.rule));
    expect(rules(lib)).toContain("unknown-tool");
    expect(lib.valid).toBe(false);
  });

  it("accepts what loadPolicy returns, directly or as the policy option", async () => {
    const dir = project();
    const loaded = await loadPolicy({ cwd: dir });
    const a = await validateFile(join(dir, "plans/p.json"), loaded);
    const b = await validateFile(join(dir, "plans/p.json"), { policy: loaded });
    const c = await validatePlan(PLAN, loaded);
    for (const r of [a, b, c]) expect(rules(r)).toEqual(["unknown-tool"]);
  });

  it("takes tools as a list of names", async () => {
    const r = await validatePlan(PLAN, { tools: ["read_file", "soupx"] });
    expect(rules(r)).toEqual([]);
  });

  it.each([
    [{ maxFileBytes: 10 }, /unknown option "maxFileBytes"/],
    [{ tools: "read_file" }, /option "tools" must be a list of tool names or a ToolRegistry/],
    [{ tools: [1, 2] }, /option "tools" must be a list of tool names/],
    [{ policy: {} }, /option "policy" must be a Policy/],
    [{ now: "yesterday" }, /option "now" must be a valid Date/],
    [{ dialect: "markdown" }, /option "dialect" must be one of/],
    [{ failFast: "yes" }, /option "failFast" must be a boolean/],
    [{ context: "a.txt" }, /option "context" must be a list of paths/],
    [[], /options must be an object/],
  ])("refuses %j with a TypeError naming the option", async (options, message) => {
    await expect(validatePlan(PLAN, options as never)).rejects.toThrow(TypeError);
    await expect(validatePlan(PLAN, options as never)).rejects.toThrow(message);
    await expect(validateFile("plan.json", options as never)).rejects.toThrow(message);
  });

  it("refuses a plan or a path of the wrong type", async () => {
    await expect(validatePlan(42 as never)).rejects.toThrow(/must be a string or a Uint8Array/);
    await expect(validateFile(undefined as never)).rejects.toThrow(/non-empty string/);
  });

  it("still takes a policy built in code", async () => {
    const r = await validatePlan(PLAN, { policy: defaultPolicy(tmpdir()), tools: ["read_file"] });
    expect(rules(r)).toEqual(["unknown-tool"]);
  });
});
