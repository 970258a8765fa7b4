import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultPolicy, loadPolicy, validateFile, validatePlan } from "../src/index.js";
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
