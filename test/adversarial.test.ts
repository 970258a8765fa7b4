/**
 * The adversarial corpus: hostile and broken plans, each with the rule ids it must produce.
 *
 * A case is any file in test/fixtures/adversarial/ with a sidecar `<file>.expect.json`:
 *   { "rules": [ids that must appear as errors or warnings], "valid": bool (optional),
 *     "absent": [ids that must not appear] (optional),
 *     "options": { "dialect", "syntax", "workspace" (relative to the fixture's folder),
 * A case with `"options": {"hook": true, "maxInputBytes"?: N}` is a PreToolUse hook input instead: it is
 * piped to `plangate guard` over a freshly started guard (test/approval-kit.ts's plan, whose first step
 * is read_file in.txt); "valid" is exit 0 (allowed), and each rule id must be the one the block names.
 * Its `"cwd":"/w"` stands for the workspace (the limit grows by the bytes that adds).
 *                  "tools": [names], "policy": { policy overrides, e.g. "limits": {...} } },
 *     "registry": { "error": [substrings], "merge": [files], "plan": {...} } (optional) }
 *     "policyFile": { "error": [substrings] } (optional) }
 * With "policyFile", the case's file is a policy file (policy-extends/: extends and overrides), loaded as
 * `--policy FILE` loads it with its bases: refused with every "error" substring, or (no "error") it loads.
 * With "registry", the case's file is a tool registry (a whitelist or an MCP tools/list result), read as
 * plangate reads `--tools` and merged with the "merge" files (relative to the fixture's folder). Either it
 * must be refused with a message holding every "error" substring, or it must load and "plan" is validated
 * with it.
 * A case with `"options": {"host": NAME}` is validated for that host profile (claude-code, generic): its
 * steps must map to host calls, and unless "tools" says otherwise the profile's tools are the registry.
 * A case with `"options": {"planMode": true}` is the Markdown of Claude Code's ExitPlanMode `plan`: it is
 * extracted and validated as plan mode does (tools Read, Write, Edit, Bash unless "tools" says otherwise).
 * A folder with `_requires.json` ({"paths": [...]}) runs only when those repository paths exist, so
 * cases for parts of plangate that live elsewhere wait for them. Cases that need generated content
 * (symlinks, huge files) are tables below.
 */
import { execFileSync } from "node:child_process";
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { Diagnostic } from "../src/core/diagnostic.js";
import { registryFromNames, type ToolRegistry } from "../src/core/tools.js";
import type { PlanReport } from "../src/core/plan-report.js";
import type { ValidateOptions } from "../src/engine.js";
import { validatePlan } from "../src/node/validate-plan.js";
import { loadToolsFile, mergeRegistries, ToolsFileError } from "../src/node/tools-file.js";
import { loadPolicy, PolicyError } from "../src/node/policy.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import type { Policy } from "../src/core/policy.js";
import { FileSessionRegistry } from "../src/store/file-registry.js";
import { findRule } from "../src/rules/index.js";
import { cli } from "./cli-io.js";
import { cpuBound, cpuMsSince } from "./cpu-time.js";
import { NOW, tools } from "./helpers.js";
import { startGuard } from "../src/node/hook.js";
import { approvalKit, DEFAULT_POLICY_HASH } from "./approval-kit.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CORPUS = join(ROOT, "test/fixtures/adversarial");
/** Per-case bound on CPU time: a hostile file must be answered quickly, not merely eventually. */
const CASE_MS = 5_000;

interface Expectation {
  rules: string[];
  valid?: boolean;
  absent?: string[];
  registry?: { error?: string[]; merge?: string[]; plan?: unknown };
  policyFile?: { error?: string[] };
  options?: {
    dialect?: ValidateOptions["dialect"];
    syntax?: ValidateOptions["syntax"];
    workspace?: string;
    tools?: string[];
    policy?: Record<string, Record<string, unknown>>;
    hook?: boolean;
    maxInputBytes?: number;
    planMode?: boolean;
    host?: string;
  };
}

interface Case {
  name: string;
  file: string;
  expect: Expectation;
}

const SIDE = ".expect.json";
const NOT_CASES = new Set(["_requires.json", ".gitattributes", "README.md"]);

/** Folders of cases with what they require; workspace folders (`ws/`) hold no cases. */
function folders(dir: string, out: { dir: string; cases: Case[]; missing: string[]; orphans: string[] }[] = []) {
  const req = join(dir, "_requires.json");
  const paths: string[] = existsSync(req) ? (JSON.parse(readFileSync(req, "utf8")) as { paths: string[] }).paths : [];
  const entry = { dir, cases: [] as Case[], missing: paths.filter((p) => !existsSync(join(ROOT, p))), orphans: [] as string[] };
  out.push(entry);
  for (const name of readdirSync(dir).sort()) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) {
      if (name !== "ws") folders(full, out);
    } else if (name.endsWith(SIDE)) {
      const file = full.slice(0, -SIDE.length);
      if (!existsSync(file)) entry.orphans.push(name);
      else entry.cases.push({ name: relative(CORPUS, file), file, expect: JSON.parse(readFileSync(full, "utf8")) as Expectation });
    } else if (!NOT_CASES.has(name) && !existsSync(full + SIDE)) entry.orphans.push(name);
  }
  return out;
}

function policyFor(workspace: string, overrides: Expectation["options"] = {}): Policy {
  const policy = defaultPolicy(workspace);
  for (const [section, values] of Object.entries(overrides.policy ?? {})) {
    Object.assign((policy as unknown as Record<string, Record<string, unknown>>)[section]!, values);
  }
  return policy;
}

/** Validates with the fixed clock and asserts what must hold for every report, hostile input or not. */
async function check(input: Uint8Array | string, file: string, options: ValidateOptions): Promise<PlanReport> {
  const started = process.cpuUsage();
  const report = await validatePlan(input, { file, now: NOW, ...options });
  expect(cpuMsSince(started)).toBeLessThan(cpuBound(CASE_MS));
  const faults: string[] = [];
  for (const d of report.diagnostics) {
    if (!findRule(d.rule)) faults.push(`unregistered rule id ${d.rule}`);
    if (d.message.length === 0) faults.push(`${d.rule} has no message`);
    // A diagnostic that names a place in the document must say where it is.
    if (d.pointer !== undefined && !(d.line! > 0 && d.column! > 0)) faults.push(`${d.rule} at ${d.pointer} has no position`);
  }
  expect(faults).toEqual([]);
  expect(report.valid).toBe(!report.diagnostics.some((d) => d.severity === "error"));
  return report;
}

function assertExpected(report: PlanReport, e: Pick<Expectation, "rules" | "valid" | "absent">): void {
  const reported = (sev: Diagnostic["severity"][]) => report.diagnostics.filter((d) => sev.includes(d.severity)).map((d) => d.rule);
  const shown = report.diagnostics.map((d) => `${d.rule}: ${d.message}`).join("\n");
  for (const rule of e.rules) expect(reported(["error", "warning"]), `expected ${rule} in\n${shown}`).toContain(rule);
  for (const rule of e.absent ?? []) expect(reported(["error", "warning", "info"]), `unexpected ${rule} in\n${shown}`).not.toContain(rule);
  if (e.valid !== undefined) expect(report.valid, shown).toBe(e.valid);
}

/** Pipes a hook input to `plangate guard` over a new guard run; checks the verdict and the rule named. */
async function hookCase(c: Case): Promise<void> {
  const k = approvalKit();
  const policy = defaultPolicy(k.workspace);
  // The host works in the workspace: a case's `"cwd":"/w"` names it. The limit moves by as many bytes as
  // the input, so a case at or over it stays there.
  let input = readFileSync(c.file);
  const placeholder = Buffer.from('"cwd":"/w"');
  const at = input.indexOf(placeholder);
  let grown = 0;
  if (at >= 0) {
    const real = Buffer.from(`"cwd":${JSON.stringify(k.workspace)}`);
    input = Buffer.concat([input.subarray(0, at), real, input.subarray(at + placeholder.length)]);
    grown = real.length - placeholder.length;
  }
  if (c.expect.options?.maxInputBytes !== undefined) policy.guard.maxInputBytes = c.expect.options.maxInputBytes + grown;
  const state = join(k.guardDir, "state.json");
  await startGuard(state, {
    plan: k.planFile,
    approval: k.sign(await k.record()),
    workspace: k.workspace,
    policyHash: DEFAULT_POLICY_HASH,
    policy,
    tools: k.tools,
    trustedKeys: k.trustedKeys,
    consumedDir: join(k.guardDir, "consumed"),
    audit: join(k.guardDir, "audit.log"),
    now: () => NOW,
  });
  const started = process.cpuUsage();
  const r = await cli(["guard", "--state", state], { stdin: new Uint8Array(input) });
  expect(cpuMsSince(started)).toBeLessThan(cpuBound(CASE_MS));
  expect(r.stdout).toBe("");
  if (c.expect.valid === true) {
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    return;
  }
  expect(r.code, r.stderr).toBe(2);
  expect(r.stderr).toMatch(/^plangate guard: blocked: .+ \[[a-z-]+\]\n$/);
  for (const rule of c.expect.rules) expect(r.stderr).toContain(`[${rule}]`);
  for (const rule of c.expect.absent ?? []) expect(r.stderr).not.toContain(`[${rule}]`);
}

/** Extracts and validates an ExitPlanMode plan as plan mode does; checks the rules and the positions. */
async function planModeCase(c: Case): Promise<void> {
  const { checkPlanMode } = await import("../src/node/plan-mode.js");
  const policy = defaultPolicy(tmp);
  policy.tools.allow = c.expect.options?.tools ?? ["Read", "Write", "Edit", "Bash"];
  const started = process.cpuUsage();
  const { report } = await checkPlanMode(readFileSync(c.file, "utf8"), { policy, workspace: tmp, now: NOW });
  expect(cpuMsSince(started)).toBeLessThan(cpuBound(CASE_MS));
  for (const d of report.diagnostics) if (d.severity === "error" && d.rule !== "unknown-tool") expect(d.line, `${d.rule}: ${d.message}`).toBeGreaterThan(0);
  assertExpected(report, c.expect);
}

const tmp = mkdtempSync(join(tmpdir(), "plangate-adversarial-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe("adversarial corpus", () => {
  const all = folders(CORPUS);

  it("has an expectation for every file and a file for every expectation", () => {
    expect(all.flatMap((f) => f.orphans.map((o) => join(relative(CORPUS, f.dir), o)))).toEqual([]);
    expect(all.reduce((n, f) => n + f.cases.length, 0)).toBeGreaterThan(100);
  });

  for (const folder of all) {
    if (folder.cases.length === 0) continue;
    const title = relative(CORPUS, folder.dir) || "core readers and scQC";
    describe.skipIf(folder.missing.length > 0)(`${title}${folder.missing.length ? ` (waits for ${folder.missing.join(", ")})` : ""}`, () => {
      it.each(folder.cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
        if (c.expect.registry) return registryCase(c);
        if (c.expect.policyFile) return policyFileCase(c);
        const o = c.expect.options ?? {};
        if (o.hook) return hookCase(c);
        if (o.planMode) return planModeCase(c);
        const workspace = o.workspace === undefined ? "/workspace" : resolve(dirname(c.file), o.workspace);
        const options: ValidateOptions = { policy: policyFor(workspace, o), workspace };
        if (o.dialect) options.dialect = o.dialect;
        if (o.syntax) options.syntax = o.syntax;
        if (o.tools) options.tools = tools(...o.tools);
        if (o.host) {
          const [{ loadProfile }, { profileAllowList }] = await Promise.all([import("../src/node/profile-file.js"), import("../src/host/profile.js")]);
          options.host = loadProfile(o.host);
          const allow = profileAllowList(options.host);
          if (!o.tools && allow.length > 0) options.tools = registryFromNames(allow, `the ${o.host} host profile`);
        }
        const report = await check(new Uint8Array(readFileSync(c.file)), basename(c.file), options);
        assertExpected(report, c.expect);
      });
    });
  }
});

/** A policy file case: loaded as `--policy FILE` loads it (its bases too); refused with every "error" substring, or loads. */
async function policyFileCase(c: Case): Promise<void> {
  const p = c.expect.policyFile!;
  const started = process.cpuUsage();
  let error: unknown;
  try {
    await loadPolicy({ file: c.file, cwd: dirname(c.file) });
  } catch (err) {
    error = err;
  }
  expect(cpuMsSince(started)).toBeLessThan(cpuBound(CASE_MS));
  if (!p.error?.length) {
    expect(error).toBeUndefined();
    return;
  }
  expect(error, "the policy loaded").toBeInstanceOf(PolicyError);
  for (const part of p.error) expect((error as Error).message).toContain(part);
}

/** A registry case: it is refused (within the time bound) with the expected message, or it loads and judges its plan. */
async function registryCase(c: Case): Promise<void> {
  const r = c.expect.registry!;
  const started = process.cpuUsage();
  let registry: ToolRegistry | undefined;
  let error: unknown;
  try {
    const files = [c.file, ...(r.merge ?? []).map((m) => join(dirname(c.file), m))];
    registry = mergeRegistries(files.map((f) => loadToolsFile(f, relative(CORPUS, f))));
  } catch (err) {
    error = err;
  }
  expect(cpuMsSince(started)).toBeLessThan(cpuBound(CASE_MS));
  if (r.error) {
    expect(error, "the registry loaded").toBeInstanceOf(ToolsFileError);
    for (const part of r.error) expect((error as Error).message).toContain(part);
    return;
  }
  if (error) throw error;
  const report = await check(JSON.stringify(r.plan), "plan.json", { workspace: "/workspace", policy: defaultPolicy("/workspace"), tools: registry });
  assertExpected(report, c.expect);
}

/** Cases whose input is too large to commit, built at test time. */
const GENERATED: { name: string; file: string; make: () => string | Uint8Array; rules: string[]; valid?: boolean; requires?: string }[] = [
  { name: "a 2 MiB string over the default 1 MiB limit", file: "p.json", make: () => `[{"tool": "plot_qc", "description": "${"a".repeat(2 << 20)}"}]`, rules: ["limit-exceeded"] },
  { name: "100,000 nested arrays", file: "p.json", make: () => "[".repeat(100_000) + "]".repeat(100_000), rules: ["limit-exceeded"] },
  { name: "100,000 nested YAML sequences", file: "p.yaml", make: () => `steps: ${"[".repeat(100_000)}${"]".repeat(100_000)}`, rules: ["limit-exceeded"] },
  { name: "100,000 nested objects", file: "p.json", make: () => '{"a":'.repeat(100_000) + "1" + "}".repeat(100_000), rules: ["limit-exceeded"] },
  {
    name: "20,000 duplicate keys in one object",
    file: "p.json",
    make: () => `[{"tool": "plot_qc", "params": {${Array.from({ length: 20_000 }, () => '"k": 1').join(", ")}}}]`,
    rules: ["duplicate-key"],
  },
  {
    name: "20,000 steps with an unknown tool each (every diagnostic located)",
    file: "p.json",
    make: () => JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ tool: `tool_${i}` }))),
    rules: ["unknown-tool"],
  },
  // The list, the step, its "tool" and "params" values and the list's elements: 250,000 values, at limits.maxValues.
  { name: "an array of a quarter of a million elements within the limits", file: "p.json", make: () => `[{"tool": "plot_qc", "params": {"n": [${"0,".repeat(249_994)}0]}}]`, rules: [], valid: true },
  { name: "a million-element array over the limit of values", file: "p.json", make: () => `[{"tool": "plot_qc", "params": {"n": [${"0,".repeat(1_000_000)}0]}}]`, rules: ["limit-exceeded"], valid: false },
  { name: "one past the limit of values", file: "p.json", make: () => `[{"tool": "plot_qc", "params": {"n": [${"0,".repeat(249_995)}0]}}]`, rules: ["limit-exceeded"], valid: false },
  {
    name: "YAML aliases nested 20 deep (billion laughs)",
    file: "p.yaml",
    make: () => {
      let t = "a0: &a0 [x, x]\n";
      for (let i = 1; i < 20; i++) t += `a${i}: &a${i} [*a${i - 1}, *a${i - 1}]\n`;
      return `${t}steps: *a19\n`;
    },
    rules: ["limit-exceeded"],
  },
  {
    name: "8,000 chained commands in one command argument (just under the length limit)",
    file: "p.json",
    make: () => JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "a;".repeat(8000) }, intent: "run" }] }),
    rules: ["multiple-tools"],
  },
  {
    name: "8,000 nested command substitutions",
    file: "p.json",
    make: () => JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "echo " + "$(".repeat(8000) + ")".repeat(8000) }, intent: "run" }] }),
    rules: ["parse-error"],
  },
  {
    name: "a command line over the 16 KiB limit",
    file: "p.json",
    make: () => JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "cat " + "f ".repeat(9000) }, intent: "run" }] }),
    rules: ["parse-error"],
  },
  {
    name: "a 100,000-line Markdown plan",
    file: "plan.md",
    make: () => `# Big\n\n## Rationale\n${"text line\n".repeat(100_000)}\n## Action Plan\n\n### READ\n- **Resource:** https://example.com/a\n`,
    rules: [],
    requires: "src/syntax/markdown.ts",
  },
  {
    name: "a Markdown FIND fence that swallows 100,000 lines",
    file: "plan.md",
    make: () => `# Big\n\n## Rationale\nx\n\n## Action Plan\n\n### EDIT\n- **File Path:** a.py\n\n#### FIND:\n\`\`\`\n${"line\n".repeat(100_000)}`,
    rules: ["edit-missing-find-replace"],
    requires: "src/syntax/markdown.ts",
  },
];

describe("generated adversarial cases", () => {
  it.each(GENERATED.map((g) => [g.name, g] as const))("%s", async (_name, g) => {
    if (g.requires && !existsSync(join(ROOT, g.requires))) return; // waits for that part of plangate
    const report = await check(g.make(), g.file, { workspace: tmp, tools: g.rules.includes("unknown-tool") ? tools("plot_qc") : undefined });
    assertExpected(report, g);
  });
});

/**
 * Symlink cases, made in a temporary workspace at test time (git does not keep symlinks portably).
 * | case | links | plan path | expected |
 * | link out | ws/out -> ../outside | out/secret.txt | path-outside-workspace |
 * | chain | ws/a -> b, ws/b -> c, ws/c -> ../outside | a/secret.txt | path-outside-workspace |
 * | dangling | ws/new -> ../outside/missing.txt | new (write) | path-outside-workspace |
 * | absolute link | ws/abs -> /etc | abs/passwd | path-outside-workspace |
 * | link inside | ws/inner -> src | inner/notes.txt | valid |
 * | swapped | ws/data: a folder, then a link to ../outside | data/secret.txt | valid, then path-outside-workspace |
 */
const PATH_RULES = existsSync(join(ROOT, "src/rules/path-outside-workspace"));
const SYMLINKS: { name: string; links: [string, string][]; tool: string; path: string; rules: string[] }[] = [
  { name: "a link that leaves the workspace", links: [["out", "../outside"]], tool: "read_file", path: "out/secret.txt", rules: ["path-outside-workspace"] },
  { name: "a chain of links that ends outside", links: [["c", "../outside"], ["b", "c"], ["a", "b"]], tool: "read_file", path: "a/secret.txt", rules: ["path-outside-workspace"] },
  { name: "a dangling link to a file outside, written through", links: [["new", "../outside/missing.txt"]], tool: "write_file", path: "new", rules: ["path-outside-workspace"] },
  { name: "a link to an absolute folder", links: [["abs", "/etc"]], tool: "read_file", path: "abs/passwd", rules: ["path-outside-workspace"] },
  { name: "a link that stays inside", links: [["inner", "src"]], tool: "read_file", path: "inner/notes.txt", rules: [] },
];

function symlinkWorkspace(name: string): string {
  const base = join(tmp, name.replace(/\W+/g, "-"));
  mkdirSync(join(base, "outside"), { recursive: true });
  mkdirSync(join(base, "ws/src"), { recursive: true });
  writeFileSync(join(base, "outside/secret.txt"), "secret\n");
  writeFileSync(join(base, "ws/src/notes.txt"), "notes\n");
  return join(base, "ws");
}

function intakePlan(tool: string, path: string): string {
  return JSON.stringify({ steps: [{ tool, arguments: { path, content: "x" }, intent: "use the file" }] });
}

describe.skipIf(!PATH_RULES)("symlinks (made at test time)", () => {
  it.each(SYMLINKS.map((s) => [s.name, s] as const))("%s", async (_name, s) => {
    const ws = symlinkWorkspace(s.name);
    for (const [link, target] of s.links) symlinkSync(target, join(ws, link));
    const report = await check(intakePlan(s.tool, s.path), "plan.json", { workspace: ws, policy: defaultPolicy(ws), tools: tools("read_file", "write_file") });
    assertExpected(report, { rules: s.rules, valid: s.rules.length === 0 });
  });

  it("sees a folder swapped for a link between two checks", async () => {
    const ws = symlinkWorkspace("swapped");
    mkdirSync(join(ws, "data"));
    writeFileSync(join(ws, "data/secret.txt"), "fine\n");
    const options = { workspace: ws, policy: defaultPolicy(ws), tools: tools("read_file", "write_file") };
    const plan = intakePlan("read_file", "data/secret.txt");
    assertExpected(await check(plan, "plan.json", options), { rules: [], valid: true });
    rmSync(join(ws, "data"), { recursive: true });
    symlinkSync("../outside", join(ws, "data"));
    assertExpected(await check(plan, "plan.json", options), { rules: ["path-outside-workspace"], valid: false });
  });
});

/**
 * Session registry entries (the registry is a folder a plan's steps may reach: by default it is in the
 * workspace). Each entry below blocks its id at once, without being read, in the library and the CLI.
 */
function hasMkfifo(): boolean {
  try {
    execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const valid = JSON.stringify({ session_id: "sess_1", registered_at: "2020-01-01T00:00:00.000Z", expires_at: "2999-01-01T00:00:00.000Z" });
/** | entry | made by | why it is refused | */
const ENTRIES: { name: string; make: (path: string) => void; why: string; fifo?: boolean }[] = [
  { name: "a FIFO with no writer", make: (p) => execFileSync("mkfifo", [p]), why: "pipe", fifo: true },
  { name: "a symlink to /dev/zero", make: (p) => symlinkSync("/dev/zero", p), why: "symbolic link" },
  { name: "a symlink to a valid entry elsewhere", make: (p) => (writeFileSync(`${p}.real`, valid), symlinkSync(`${p}.real`, p)), why: "symbolic link" },
  { name: "a dangling symlink", make: (p) => symlinkSync("/nonexistent/plangate", p), why: "symbolic link" },
  { name: "a folder", make: (p) => mkdirSync(p), why: "a folder" },
  { name: "a 1 GiB sparse file", make: (p) => (writeFileSync(p, ""), truncateSync(p, 1 << 30)), why: "bytes" },
];

describe("session registry entries that are not small regular files", () => {
  let n = 0;
  for (const e of ENTRIES) {
    it.skipIf(e.fifo && !hasMkfifo())(`${e.name} blocks its id at once, without reading it`, async () => {
      const folder = join(tmp, `lib-${n++}`);
      mkdirSync(folder);
      e.make(join(folder, "sess_1.json"));
      const registry = new FileSessionRegistry(folder);
      const started = process.cpuUsage();
      const entry = registry.lookup("sess_1", NOW);
      expect(entry?.unreadable).toContain(e.why);
      const again = registry.register("sess_1", { now: NOW, ttlSeconds: 60 });
      expect(again.ok).toBe(false);
      expect(cpuMsSince(started)).toBeLessThan(cpuBound(2000));

      const cwd = join(tmp, `cli-${n++}`);
      mkdirSync(join(cwd, "reg"), { recursive: true });
      e.make(join(cwd, "reg", "sess_1.json"));
      const r = await cli(["check-delegation", "--target", "planner", "--path", "orchestrator", "--session-id", "sess_1", "--registry", "reg", "--register"], { cwd });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toContain("session-id-reused");
      expect(r.stdout).toContain(e.why);
    });
  }
});

/**
 * Hard links, made at test time (git keeps no hard links): ws/src/h.txt is a second name of
 * outside/secret.txt. A write through it changes the file outside; a read is harmless.
 */
const HARDLINKS: { tool: string; args: Record<string, unknown>; rules: string[] }[] = [
  { tool: "write_file", args: { path: "src/h.txt", content: "x" }, rules: ["path-outside-workspace"] },
  { tool: "edit_file", args: { file_path: "./src/../src/h.txt", old_string: "a", new_string: "b" }, rules: ["path-outside-workspace"] },
  { tool: "text_editor", args: { command: "create", path: "src/h.txt", file_text: "x" }, rules: ["path-outside-workspace"] },
  { tool: "sed", args: { file: "src/h.txt", expression: "s/a/b/" }, rules: ["path-outside-workspace"] },
  { tool: "tee", args: { output: "src/h.txt" }, rules: ["path-outside-workspace"] },
  { tool: "render", args: { out: "file:src/h.txt" }, rules: ["path-outside-workspace"] },
  { tool: "read_file", args: { path: "src/h.txt" }, rules: [] },
];

describe.skipIf(!PATH_RULES)("hard links (made at test time)", () => {
  it.each(HARDLINKS.map((h) => [`${h.tool} ${JSON.stringify(h.args)}`, h] as const))("%s", async (_name, h) => {
    const ws = symlinkWorkspace(`hard ${h.tool} ${Object.keys(h.args).join(" ")}`);
    linkSync(join(ws, "../outside/secret.txt"), join(ws, "src/h.txt"));
    const plan = JSON.stringify({ steps: [{ tool: h.tool, arguments: h.args, intent: "use the file" }] });
    const report = await check(plan, "plan.json", { workspace: ws, policy: defaultPolicy(ws) });
    assertExpected(report, { rules: h.rules, valid: h.rules.length === 0 });
  });
});
