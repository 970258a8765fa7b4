import { existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setEncodingImporter } from "../../src/orchestration/tokens.js";
import { describe, expect, it } from "vitest";
import { cli } from "../cli-io.js";
import { STATE, TODO, goodReturn, tempWorkspace } from "./fixtures.js";

describe("plangate check-task", () => {
  const cwd = tempWorkspace({ "TODO.md": TODO, "state.json": STATE });
  it("refuses a TODO.md or state.json that is a device at once (a usage error), rather than reading it forever", async () => {
    const dir = tempWorkspace({});
    symlinkSync("/dev/zero", join(dir, "TODO.md"));
    symlinkSync("/dev/zero", join(dir, "state.json"));
    for (const flag of ["--todo", "--state"]) {
      const r = await cli(["check-task", "12", flag, flag === "--todo" ? "TODO.md" : "state.json"], { cwd: dir });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("a device, pipe or socket");
    }
  }, 20_000);
  it("prints the task and exits 0", async () => {
    const r = await cli(["check-task", "12", "--todo", "TODO.md", "--operation", "implement"], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('✓ TODO.md: task 12 "Fix the parser" (planned, lean4), implement: ok');
  });
  it("prints SPEC §5's report with the task", async () => {
    const r = await cli(["check-task", "12", "--todo", "TODO.md", "--state", "state.json", "-o", "json"], { cwd });
    const report = JSON.parse(r.stdout);
    expect(report).toEqual({
      version: 1,
      results: [
        {
          file: "TODO.md",
          valid: true,
          task: { number: 12, title: "Fix the parser", status: "planned", language: "lean4" },
          diagnostics: [],
        },
      ],
      summary: { files: 1, valid: 1, errors: 0, warnings: 0 },
    });
  });
  it("exits 1 with the orchestrator validation strategy's message for a missing task", async () => {
    const r = await cli(["check-task", "999", "--todo", "TODO.md"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("TODO.md: error: Task 999 not found in TODO.md [task-not-found]");
  });
  it("exits 1 for a status that does not allow the operation, with the line", async () => {
    const r = await cli(["check-task", "12", "--todo", "TODO.md", "--operation", "research", "-o", "json"], { cwd });
    expect(r.code).toBe(1);
    expect(JSON.parse(r.stdout).results[0].diagnostics[0]).toMatchObject({ rule: "task-status", line: 26 });
  });
  it("quotes a task's title and status cut as messages quote values, in text and JSON", async () => {
    const long = "a ".repeat(200_000);
    const ws = tempWorkspace({ "TODO.md": `# TODO\n\n### 1. ${long}\n- **Status:** [PLANNED] ${long}\n` });
    const text = await cli(["check-task", "1", "--todo", "TODO.md"], { cwd: ws });
    expect(text.stdout.length).toBeLessThan(4096);
    expect(text.stdout).toMatch(/\.\.\. \(\d{6} characters\)/);
    const json = await cli(["check-task", "1", "--todo", "TODO.md", "-o", "json"], { cwd: ws });
    expect(json.stdout.length).toBeLessThan(4096);
    expect(JSON.parse(json.stdout).results[0].task.title).toMatch(/^a a .*\.\.\. \(\d+ characters\)$/);
  });
  it("takes the transition table from the policy", async () => {
    const ws = tempWorkspace({ "TODO.md": TODO, "plangate.yaml": "tasks:\n  operations:\n    research: [planned]\n" });
    expect((await cli(["check-task", "12", "--todo", "TODO.md", "--operation", "research"], { cwd: ws })).code).toBe(0);
    expect((await cli(["check-task", "12", "--todo", "TODO.md", "--operation", "implement"], { cwd: ws })).code).toBe(0);
  });
  it("exits 2 for usage errors", async () => {
    for (const args of [
      ["check-task", "12"],
      ["check-task", "12", "--todo", "NOPE.md"],
      ["check-task", "12", "--todo", "TODO.md", "--operation", "resarch"],
      ["check-task", "--todo", "TODO.md"],
    ]) {
      const r = await cli(args, { cwd });
      expect(r.code, args.join(" ")).toBe(2);
    }
    expect((await cli(["check-task", "12", "--todo", "TODO.md", "--operation", "resarch"], { cwd })).stderr).toContain('did you mean "research"?');
  });
});

describe("plangate check-delegation", () => {
  it("registers, refuses the same id, releases, and registers again", async () => {
    const cwd = tempWorkspace();
    const args = ["check-delegation", "--target", "planner", "--path", "orchestrator,plan", "--session-id", "sess_1", "--register"];
    const first = await cli([...args, "-o", "json"], { cwd });
    expect(first.code).toBe(0);
    const d = JSON.parse(first.stdout).results[0].delegation;
    expect(d).toMatchObject({ target: "planner", depth: 2, maxDepth: 3, sessionId: "sess_1" });
    expect(existsSync(join(cwd, ".plangate/sessions/sess_1.json"))).toBe(true);
    const second = await cli(args, { cwd });
    expect(second.code).toBe(1);
    expect(second.stdout).toContain("[session-id-reused]");
    expect((await cli(["check-delegation", "--release", "--session-id", "sess_1"], { cwd })).code).toBe(0);
    expect((await cli(args, { cwd })).code).toBe(0);
  });
  it("checks without registering unless asked", async () => {
    const cwd = tempWorkspace();
    const r = await cli(["check-delegation", "--target", "x", "--path", "orchestrator", "--session-id", "sess_2"], { cwd });
    expect(r.code).toBe(0);
    expect(existsSync(join(cwd, ".plangate/sessions/sess_2.json"))).toBe(false);
  });
  it("exits 1 for depth and cycles; --max-depth, --depth and the policy change the limit", async () => {
    const cwd = tempWorkspace();
    const deep = ["check-delegation", "--target", "d", "--path", "orchestrator,a,b,c"];
    expect((await cli(deep, { cwd })).code).toBe(1);
    expect((await cli([...deep, "--max-depth", "4"], { cwd })).code).toBe(0);
    expect((await cli([...deep, "--depth", "1"], { cwd })).code).toBe(0);
    writeFileSync(join(cwd, "plangate.yaml"), "delegation:\n  maxDepth: 5\n");
    expect((await cli(deep, { cwd })).code).toBe(0);
    const cycle = await cli(["check-delegation", "--target", "A", "--path", "orchestrator,a"], { cwd });
    expect(cycle.code).toBe(1);
    expect(cycle.stdout).toContain("[delegation-cycle]");
  });
  it("uses --registry and the policy's registry folder", async () => {
    const cwd = tempWorkspace();
    writeFileSync(join(cwd, "plangate.yaml"), "delegation:\n  registry: shared/sessions\n");
    await cli(["check-delegation", "--target", "x", "--path", "o", "--session-id", "s1", "--register"], { cwd });
    expect(existsSync(join(cwd, "shared/sessions/s1.json"))).toBe(true);
    await cli(["check-delegation", "--target", "x", "--path", "o", "--session-id", "s2", "--register", "--registry", "elsewhere"], { cwd });
    expect(existsSync(join(cwd, "elsewhere/s2.json"))).toBe(true);
  });
  it("exits 2 for usage errors, unsafe session ids included", async () => {
    const cwd = tempWorkspace();
    for (const args of [
      ["check-delegation", "--path", "o"],
      ["check-delegation", "--target", "x"],
      ["check-delegation", "--target", "x", "--path", "o", "--register"],
      ["check-delegation", "--target", "x", "--path", "o", "--session-id", "../../etc/x", "--register"],
      ["check-delegation", "--target", "x", "--path", "o,,a"],
      ["check-delegation", "--target", "x", "--path", "o", "--max-depth", "-1"],
      ["check-delegation", "--release"],
    ]) {
      expect((await cli(args, { cwd })).code, args.join(" ")).toBe(2);
    }
    expect(existsSync(join(cwd, ".plangate"))).toBe(false);
  });
});

describe("plangate check-return", () => {
  const cwd = tempWorkspace({ "reports/r.md": "# R\n", "r.json": JSON.stringify(goodReturn()) });
  it("accepts a good return from a file or stdin", async () => {
    expect((await cli(["check-return", "r.json", "--session-id", "sess_1"], { cwd })).code).toBe(0);
    const r = await cli(["check-return", "-", "-o", "json"], { cwd, stdin: readFileSync(join(cwd, "r.json"), "utf8") });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0]).toMatchObject({
      file: "-",
      valid: true,
      return: { status: "completed", sessionId: "sess_1", encoding: "o200k_base", artifacts: 1 },
    });
  });
  it("without the optional tokenizer package: exit 2 saying how to install it, or 0 tokens leaves summaries unmeasured", async () => {
    const missing = Object.assign(new Error("Cannot find package 'gpt-tokenizer'"), { code: "ERR_MODULE_NOT_FOUND" });
    const prev = setEncodingImporter(async () => {
      throw missing;
    });
    try {
      const r = await cli(["check-return", "r.json", "--session-id", "sess_1"], { cwd });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain("npm install gpt-tokenizer");
      expect(r.stderr).toContain("returns.maxSummaryTokens: 0");
      expect((await cli(["check-return", "r.json", "--session-id", "sess_1", "--max-summary-tokens", "0"], { cwd })).code).toBe(0);
    } finally {
      setEncodingImporter(prev);
    }
  });
  it("exits 1 with positions for a bad return", async () => {
    const r = await cli(["check-return", "r.json", "--session-id", "sess_2", "--max-summary-tokens", "2", "-o", "json"], { cwd });
    expect(r.code).toBe(1);
    const rules = JSON.parse(r.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule);
    expect(rules).toEqual(["summary-too-long", "return-session-mismatch", "return-session-mismatch"]);
  });
  it("checks artifacts against --workspace", async () => {
    const other = tempWorkspace();
    const r = await cli(["check-return", join(cwd, "r.json"), "--workspace", other], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[artifact-missing]");
  });
  it("reports an unreadable return file as a rejection, not a usage error", async () => {
    const r = await cli(["check-return", "missing.json"], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[return-json]");
  });
  it("exits 2 for a bad --encoding or --max-summary-tokens", async () => {
    expect((await cli(["check-return", "r.json", "--encoding", "gpt5"], { cwd })).code).toBe(2);
    expect((await cli(["check-return", "r.json", "--max-summary-tokens", "-1"], { cwd })).code).toBe(2);
    expect((await cli(["check-return", "r.json", "--encoding", "cl100k_base"], { cwd })).code).toBe(0);
  });
  it("rejects a policy with an unknown encoding", async () => {
    const ws = tempWorkspace({ "plangate.yaml": "returns:\n  encoding: gpt5\n", "r.json": "{}" });
    expect((await cli(["check-return", "r.json"], { cwd: ws })).code).toBe(2);
  });
});

describe("check-return reads a bounded input", () => {
  it("refuses a return over limits.maxFileBytes, a device and a folder, without reading them whole", async () => {
    const d = mkdtempSync(join(tmpdir(), "plangate-return-"));
    writeFileSync(join(d, "p.yaml"), "limits:\n  maxFileBytes: 64\n");
    writeFileSync(join(d, "big.json"), JSON.stringify({ status: "completed", summary: "x".repeat(100) }));
    const rules = async (args: string[], stdin?: string) => {
      const r = await cli(["check-return", ...args, "--policy", join(d, "p.yaml"), "--output", "json"], { cwd: d, stdin });
      expect(r.code).toBe(1);
      return JSON.stringify(JSON.parse(r.stdout));
    };
    expect(await rules(["big.json"])).toMatch(/"rule":"limit-exceeded".*over the 64-byte limit/);
    expect(await rules(["-"], JSON.stringify({ status: "completed", summary: "y".repeat(100) }))).toMatch(/"rule":"limit-exceeded"/);
    expect(await rules(["/dev/zero"])).toMatch(/"rule":"return-json".*cannot be read \(a device, pipe or socket\)/);
    expect(await rules([d])).toMatch(/"rule":"return-json".*cannot be read \(a directory\)/);
  });
});
