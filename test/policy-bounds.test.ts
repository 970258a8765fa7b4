import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultPolicy, validateFile, validatePlan } from "../src/index.js";
import type { Policy } from "../src/core/policy.js";
import { MAX_OVERRIDES, MAX_POLICY_ENTRY_LENGTH, MAX_POLICY_GLOBS, MAX_POLICY_KEYS, MAX_POLICY_LIST, MAX_REGISTRY_TOOLS } from "../src/policy/bounds.js";
import { DEFAULT_DENIED_TOOLS, DEFAULT_PATH_ARGUMENTS, DEFAULT_READ_TOOLS, DEFAULT_WRITE_TOOLS } from "../src/policy/defaults.js";
import { cpuBound, cpuMsSince } from "./cpu-time.js";
import { loadPolicyIn, policyRefusal } from "./helpers.js";
import { ExecutionGuard, GuardRefusal } from "../src/node/guard.js";
import { approvalKit, DEFAULT_POLICY_HASH } from "./approval-kit.js";

/*
 * Every list of a policy is bounded (src/policy/bounds.ts), however the policy arrives: a file and the
 * bases it extends, its overrides, the tools files it names, and a Policy object built in code. A
 * commands.allow of 120,000 entries took 1.3 s and 210 MB for a plan of 100 steps, a tools.allow of 120,000
 * globs 8.3 s: each list was read whole, and compared with every step.
 */

function tree(files: Record<string, string>): string {
  const root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-bounds-")));
  mkdirSync(join(root, ".git"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(root, name, ".."), { recursive: true });
    writeFileSync(join(root, name), text);
  }
  return root;
}

const load = (root: string, file = "plangate.json") => loadPolicyIn(root, file);
const refusal = (root: string, file = "plangate.json") => policyRefusal(root, file);

const names = (n: number, name = (i: number) => `t${i}`) => Array.from({ length: n }, (_, i) => name(i));
const json = (section: string, key: string, list: unknown) => JSON.stringify({ [section]: { [key]: list } });
/** The column (1-based) of the list's entry `index` in a one-line JSON policy written by `json`. */
const column = (text: string, entry: string) => text.indexOf(`"${entry}"`) + 1;

const PLAN = JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "a.txt" }, intent: "Read a." }] });

// [list, entry made from i, defaults the file's list is merged into]
const LISTS: [string, (i: number) => string, number][] = [
  ["tools.allow", (i) => `tool_${i}`, 0],
  ["tools.deny", (i) => `tool_${i}`, DEFAULT_DENIED_TOOLS.length],
  ["tools.write", (i) => `tool_${i}`, DEFAULT_WRITE_TOOLS.length],
  ["tools.read", (i) => `tool_${i}`, DEFAULT_READ_TOOLS.length],
  ["paths.arguments", (i) => `arg${i}`, DEFAULT_PATH_ARGUMENTS.length],
  ["paths.unprotect", () => ".git/**", 0],
  ["commands.allow", (i) => `prog${i} sub`, 0],
  ["commands.deny", (i) => `prog${i} sub`, 0],
  ["commands.installOutside", (i) => `pm${i}`, 0],
  ["commands.inlineCode", (i) => `lang${i}`, 0],
  ["commands.writtenCode", (i) => `lang${i}`, 0],
  ["returns.statuses", (i) => `s${i}`, 0],
  ["returns.successStatuses", (i) => `s${i}`, 0],
  ["returns.requiredFields", (i) => `f${i}`, 0],
  ["returns.artifactFields", (i) => `f${i}`, 0],
];

describe("a policy file's lists", () => {
  it.each(LISTS)("%s: loads at the bound, and is refused past it at the entry past it", async (list, entry, defaults) => {
    const [section, key] = list.split(".") as [string, string];
    const room = MAX_POLICY_LIST - defaults;
    expect((await load(tree({ "plangate.json": json(section, key, names(room, entry)) }))).policy).toBeDefined();
    const text = json(section, key, names(room + 1, entry));
    const message = await refusal(tree({ "plangate.json": text }));
    const at = list === "paths.unprotect" ? `${text.indexOf("[") + 2 + room * `".git/**",`.length}` : `${column(text, entry(room))}`;
    expect(message).toContain(`plangate.json:1:${at}: the policy holds more than ${MAX_POLICY_LIST} ${list} entries in all`);
  });

  it("refuses 120,000 names at once, before any is compared or merged", async () => {
    for (const [section, key] of [["tools", "deny"], ["commands", "allow"], ["tools", "allow"]] as const) {
      const root = tree({ "plangate.json": json(section, key, names(120_000, (i) => `t${i}*x`)) });
      const start = process.cpuUsage();
      expect(await refusal(root)).toMatch(new RegExp(`the policy holds more than ${MAX_POLICY_LIST} ${section}\\.${key} entries in all`));
      // Reading the 1 MB file is most of it; a list of 4,096 globs in tools.allow took 57 s for 100,000 steps.
      expect(cpuMsSince(start)).toBeLessThan(cpuBound(1500));
    }
  });

  it("refuses an entry longer than any name it is compared with, and loads one at the length", async () => {
    const at = "a".repeat(MAX_POLICY_ENTRY_LENGTH);
    expect((await load(tree({ "plangate.json": json("tools", "deny", [at]) }))).policy.tools.deny).toContain(at);
    const message = await refusal(tree({ "plangate.json": json("commands", "deny", ["rm", `${at}b`]) }));
    expect(message).toMatch(new RegExp(`plangate\\.json:1:\\d+: the commands\\.deny entry is ${MAX_POLICY_ENTRY_LENGTH + 1} characters long, longer than the ${MAX_POLICY_ENTRY_LENGTH} of any name it is compared with`));
  });

  it("bounds the globs of a tools list and the commands entries whose program is a glob", async () => {
    const globs = (n: number) => names(n, (i) => `mcp__s${i}__*`);
    expect((await load(tree({ "plangate.json": json("tools", "allow", [...names(500), ...globs(MAX_POLICY_GLOBS)]) }))).tools?.patterns).toHaveLength(MAX_POLICY_GLOBS);
    expect(await refusal(tree({ "plangate.json": json("tools", "deny", globs(MAX_POLICY_GLOBS + 1)) }))).toContain(`tools.deny holds more than ${MAX_POLICY_GLOBS} globs (entries with * or ?) in all`);
    // A glob among a command's arguments is matched only against the programs the entry names: not counted.
    const programs = (n: number) => names(n, (i) => `p${i}? x`);
    expect((await load(tree({ "plangate.json": json("commands", "deny", [...programs(MAX_POLICY_GLOBS), ...names(500, (i) => `git *${i}*`)]) }))).policy.commands.deny).toHaveLength(MAX_POLICY_GLOBS + 500);
    expect(await refusal(tree({ "plangate.json": json("commands", "allow", programs(MAX_POLICY_GLOBS + 1)) }))).toContain(`commands.allow holds more than ${MAX_POLICY_GLOBS} entries whose program is a glob`);
  });

  it("counts the overrides' lists and the bases' with the file's", async () => {
    const half = MAX_POLICY_LIST / 2 + 1;
    const over = await refusal(tree({ "plangate.json": JSON.stringify({ tools: { read: names(half) }, overrides: [{ files: ["plans/**"], tools: { read: names(half, (i) => `u${i}`) } }] }) }));
    expect(over).toMatch(new RegExp(`plangate\\.json:1:\\d+: the policy holds more than ${MAX_POLICY_LIST} tools\\.read entries in all \\(the ${DEFAULT_READ_TOOLS.length} defaults`));
    const bases = await refusal(
      tree({ "base.json": json("commands", "allow", names(half, (i) => `a${i}`)), "plangate.json": JSON.stringify({ extends: "base.json", overrides: [{ files: ["p/**"], commands: { allow: names(half, (i) => `b${i}`) } }] }) }),
    );
    expect(bases).toMatch(/plangate\.json:1:\d+: the policy holds more than 1024 commands\.allow entries in all/);
    // Each base on its own is within the bound, and so is the chain.
    expect((await load(tree({ "base.json": json("commands", "allow", names(half)), "plangate.json": JSON.stringify({ extends: "base.json", commands: { allow: ["git"] } }) }))).policy.commands.allow).toEqual(["git"]);
  });

  it("bounds the overrides, their globs, the rule settings and the task operations", async () => {
    const overrides = names(MAX_OVERRIDES + 1, (i) => `p${i}/**`).map((g) => ({ files: [g], plan: { maxAgeDays: 1 } }));
    expect(await refusal(tree({ "plangate.json": JSON.stringify({ overrides }) }))).toContain(`the policy holds more than ${MAX_OVERRIDES} overrides`);
    expect((await load(tree({ "plangate.json": JSON.stringify({ overrides: overrides.slice(1) }) }))).policy.overrides).toHaveLength(MAX_OVERRIDES);
    const files = await refusal(tree({ "plangate.json": JSON.stringify({ overrides: [{ files: names(MAX_POLICY_LIST + 1, (i) => `p${i}/**`), plan: { maxAgeDays: 1 } }] }) }));
    expect(files).toContain(`the overrides' files hold more than ${MAX_POLICY_LIST} globs in all`);
    const rules = Object.fromEntries(names(MAX_POLICY_KEYS + 1, (i) => `rule-${i}`).map((r) => [r, "off"]));
    expect(await refusal(tree({ "plangate.json": JSON.stringify({ rules }) }))).toContain(`the policy holds more than ${MAX_POLICY_KEYS} rule settings in all`);
    const operations = Object.fromEntries(names(MAX_POLICY_KEYS + 1, (i) => `op${i}`).map((o) => [o, ["open"]]));
    expect(await refusal(tree({ "plangate.json": JSON.stringify({ tasks: { operations } }) }))).toContain(`the policy holds more than ${MAX_POLICY_KEYS} task operations in all`);
  });
});

describe("the tools files a policy names", () => {
  it("loads a whitelist at the bound, and refuses one past it at the line past it", async () => {
    const lines = (n: number) => names(n, (i) => `tool_${i}`).join("\n");
    expect((await load(tree({ "tools.txt": lines(MAX_REGISTRY_TOOLS), "plangate.json": JSON.stringify({ tools: { allowFile: "tools.txt" } }) }))).tools?.names.size).toBe(MAX_REGISTRY_TOOLS);
    const past = await refusal(tree({ "tools.txt": lines(120_000), "plangate.json": JSON.stringify({ tools: { allowFile: "tools.txt" } }) }));
    expect(past).toContain(`tools.txt:${MAX_REGISTRY_TOOLS + 1}: the tools hold more than ${MAX_REGISTRY_TOOLS} names in all`);
    const globs = await refusal(tree({ "tools.txt": names(MAX_POLICY_GLOBS + 1, (i) => `mcp__s${i}__*`).join("\n"), "plangate.json": JSON.stringify({ tools: { allowFile: "tools.txt" } }) }));
    expect(globs).toContain(`tools.txt:${MAX_POLICY_GLOBS + 1}: the tools hold more than ${MAX_POLICY_GLOBS} globs`);
  });

  it("refuses a registry past the bound before reading its tools, and the policy's tools past it together", async () => {
    const registry = JSON.stringify({ tools: names(MAX_REGISTRY_TOOLS + 1).map((name) => ({ name })) });
    expect(await refusal(tree({ "tools.json": registry, "plangate.json": JSON.stringify({ tools: { registry: "tools.json" } }) }))).toContain(`tools.json tools[${MAX_REGISTRY_TOOLS}]: the tools hold more than`);
    const together = await refusal(
      tree({ "a.txt": names(MAX_REGISTRY_TOOLS - 10, (i) => `a${i}`).join("\n"), "plangate.json": JSON.stringify({ tools: { allow: names(20, (i) => `b${i}`), allowFile: "a.txt" } }) }),
    );
    expect(together).toContain(`tools.allow, tools.allowFile and tools.registry together: the tools hold more than ${MAX_REGISTRY_TOOLS} names in all`);
  });
});

describe("a Policy built in code", () => {
  const ws = tree({});
  const withList = (edit: (p: Policy) => void): Policy => {
    const p = defaultPolicy(ws);
    edit(p);
    return p;
  };

  it("is refused by the validation, at once, with the list, its bound and what to do", async () => {
    const policy = withList((p) => (p.tools.deny = [...p.tools.deny, ...names(120_000)]));
    const start = process.cpuUsage();
    const report = await validatePlan(PLAN, { policy });
    expect(cpuMsSince(start)).toBeLessThan(cpuBound(1000));
    expect(report.valid).toBe(false);
    expect(report.diagnostics).toMatchObject([{ rule: "limit-exceeded", messageId: "policyTooLarge" }]);
    expect(report.diagnostics[0]!.message).toBe(
      `The policy this plan is judged by cannot be used: the policy holds more than ${MAX_POLICY_LIST} tools.deny entries in all (the defaults and the overrides' included): every step's tool is compared with it (deny a family of tools with one glob) (at /tools/deny/${MAX_POLICY_LIST} in the policy); no step is judged.`,
    );
  });

  it("passes at the bound", async () => {
    const policy = withList((p) => (p.tools.deny = [...p.tools.deny, ...names(MAX_POLICY_LIST - p.tools.deny.length)]));
    expect((await validatePlan(PLAN, { policy, tools: ["read_file"] })).diagnostics).toEqual([]);
  });

  it.each([
    ["an entry past its length", (p: Policy) => (p.commands.allow = ["x".repeat(MAX_POLICY_ENTRY_LENGTH + 1)]), "/commands/allow/0"],
    ["globs past their bound", (p: Policy) => (p.tools.allow = names(MAX_POLICY_GLOBS + 1, (i) => `g${i}*`)), `/tools/allow/${MAX_POLICY_GLOBS}`],
    ["protected globs past theirs", (p: Policy) => (p.paths.protected = names(5000, (i) => `d${i}/**`)), "/paths/protected/4096"],
    ["an override's list", (p: Policy) => (p.overrides = [{ files: ["**"], commands: { deny: names(MAX_POLICY_LIST + 1) } }]), `/overrides/0/commands/deny/${MAX_POLICY_LIST}`],
    ["guard.free", (p: Policy) => (p.guard.free = names(201)), "/guard/free/200"],
    ["rule settings", (p: Policy) => (p.rules = Object.fromEntries(names(MAX_POLICY_KEYS + 1).map((r) => [r, "off" as const]))), "/rules"],
  ])("refuses %s", async (_, edit, pointer) => {
    const report = await validatePlan(PLAN, { policy: withList(edit) });
    expect(report.diagnostics).toMatchObject([{ rule: "limit-exceeded", messageId: "policyTooLarge" }]);
    expect(report.diagnostics[0]!.message).toContain(`(at ${pointer} in the policy)`);
  });

  it("is refused by validateFile before its overrides are matched against the file", async () => {
    writeFileSync(join(ws, "plan.json"), PLAN);
    const overrides = names(200_000, (i) => `p${i}/**`).map((g) => ({ files: [g], tools: { deny: ["x"] } }));
    const start = process.cpuUsage();
    const report = await validateFile(join(ws, "plan.json"), { policy: withList((p) => (p.overrides = overrides)) });
    expect(cpuMsSince(start)).toBeLessThan(cpuBound(1000));
    expect(report.diagnostics).toMatchObject([{ rule: "limit-exceeded", messageId: "policyTooLarge" }]);
    expect(report.diagnostics[0]!.message).toContain(`more than ${MAX_OVERRIDES} overrides`);
  });

  it("is refused by the library's guard before any of its lists is read", async () => {
    const k = approvalKit();
    const policy = defaultPolicy(k.workspace);
    policy.guard.free = names(200_000, () => "Read");
    const start = process.cpuUsage();
    const refused = await ExecutionGuard.open({
      plan: k.planFile,
      approval: k.sign(await k.record()),
      workspace: k.workspace,
      policyHash: DEFAULT_POLICY_HASH,
      policy,
      tools: k.tools,
      trustedKeys: k.trustedKeys,
      consumedDir: join(k.guardDir, "c"),
      audit: join(k.guardDir, "audit.log"),
    }).catch((e: unknown) => e);
    expect(cpuMsSince(start)).toBeLessThan(cpuBound(1000));
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect((refused as GuardRefusal).diagnostics).toMatchObject([{ rule: "limit-exceeded", messageId: "policyTooLarge" }]);
    expect((refused as GuardRefusal).diagnostics[0]!.message).toContain("(at /guard/free/200 in the policy)");
  });

    it("refuses tools given in code past the registry's bounds", async () => {
    const report = await validatePlan(PLAN, { policy: defaultPolicy(ws), tools: names(MAX_REGISTRY_TOOLS + 1) });
    expect(report.diagnostics).toMatchObject([{ rule: "limit-exceeded", messageId: "toolsTooLarge" }]);
    expect(report.diagnostics[0]!.message).toContain(`the tools hold more than ${MAX_REGISTRY_TOOLS} names in all`);
  });
});
