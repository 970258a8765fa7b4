/**
 * Exit codes: 0 accepted, 1 rejected, 2 usage or internal error (never 1: that means "plan rejected").
 * With --output json, usage and internal errors print one document of one shape:
 * {"version": 1, "error": {"code": "usage" | "internal" | "io", "message": "…"}}.
 */
import { spawn, spawnSync } from "node:child_process";
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { RULES } from "../src/rules/index.js";
import { wantsJson } from "../src/cli/io.js";
import { toolHookEvent } from "../src/cli/main.js";
import { approvalKit } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { runPlangate } from "./hook-process.js";

const tmp = () => mkdtempSync(join(tmpdir(), "plangate-exit-"));

function errorDoc(stdout: string, code: string) {
  const doc = JSON.parse(stdout);
  expect(Object.keys(doc)).toEqual(["version", "error"]);
  expect(doc.version).toBe(1);
  expect(Object.keys(doc.error)).toEqual(["code", "message"]);
  expect(doc.error.code).toBe(code);
  expect(doc.error.message.length).toBeGreaterThan(5);
  return doc.error.message as string;
}

/** The CLI with a standard input that fails unexpectedly (a dependency that throws). */
function failingStdin(args: string[]) {
  return cli(args, {
    cwd: tmp(),
    readStdin: async () => {
      throw new TypeError("stdin exploded");
    },
  });
}

describe("exit codes and JSON error documents", () => {
  it("recognises every spelling of --output json, and no other", () => {
    for (const a of [["-o", "json"], ["--output", "json"], ["--output=json"], ["-ojson"], ["validate", "x", "--output", "json"]]) expect(wantsJson(a)).toBe(true);
    for (const a of [["-o", "text"], ["--output=sarif"], ["--", "--output", "json"], ["json"], ["--output"]]) expect(wantsJson(a)).toBe(false);
  });

  const USAGE: [string, string[], RegExp][] = [
    ["an unknown flag", ["validate", "p.json", "--bogus"], /unknown option '--bogus'/],
    ["a missing argument", ["audit", "verify"], /missing required argument 'log'/],
    ["an unknown command", ["frobnicate"], /unknown command/],
    ["a bad number", ["validate", "p.json", "--max-age", "-1"], /--max-age must be a non-negative number/],
    ["an unreadable policy", ["validate", "p.json", "--policy", "nope.yaml"], /cannot read policy file nope\.yaml/],
    ["guard start without a state", ["guard", "start", "p.json", "--approval", "a", "--audit", "l"], /pass --state FILE/],
  ];
  for (const spelling of [["--output", "json"], ["--output=json"], ["-o", "json"], ["-ojson"]]) {
    it.each(USAGE)(`a usage error (%s) with ${spelling.join(" ")}: exit 2 and the error document`, async (_n, args, message) => {
      const r = await cli([...args, ...spelling], { cwd: tmp() });
      expect(r.code).toBe(2);
      expect(errorDoc(r.stdout, "usage")).toMatch(message);
      expect(r.stderr).toMatch(message);
    });
  }

  it.each(USAGE)("a usage error (%s) in text: exit 2, the message on stderr, nothing on stdout", async (_n, args, message) => {
    const r = await cli(args, { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(message);
  });

  it("--output with a bad value is a usage error in text (no JSON was asked for)", async () => {
    const r = await cli(["validate", "p.json", "--output", "xml"], { cwd: tmp() });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe("");
  });

  it.each([
    ["validate -", ["validate", "-"]],
    ["hash -", ["hash", "-"]],
    ["seal -", ["seal", "-"]],
    ["check-return -", ["check-return", "-"]],
  ])("an internal error (%s, a failing dependency) is exit 2, never 1, with the error document", async (_n, args) => {
    const text = await failingStdin(args);
    expect(text.code).toBe(2);
    expect(text.stdout).toBe("");
    expect(text.stderr).toMatch(/internal error: stdin exploded/);
    const json = await failingStdin([...args, "--output", "json"]);
    expect(json.code).toBe(2);
    expect(errorDoc(json.stdout, "internal")).toBe("stdin exploded");
  });

  it("a check that throws (a bug) is exit 2 for validate, with the error document; the library still rejects the plan", async () => {
    const rule = RULES.find((r) => r.meta.id === "non-deterministic" && r.check)!;
    const spy = vi.spyOn(rule, "check").mockImplementation(() => {
      throw new RangeError("rule exploded");
    });
    try {
      const d = tmp();
      writeFileSync(join(d, "p.json"), '[{"tool": "a"}]');
      for (const output of ["json", "sarif"]) {
        const r = await cli(["validate", "p.json", "--output", output], { cwd: d });
        expect(r.code).toBe(2);
        if (output === "json") expect(errorDoc(r.stdout, "internal")).toBe("the non-deterministic check failed on p.json (rule exploded)");
        else expect(r.stdout).toBe("");
      }
      writeFileSync(join(d, "tools.txt"), "a\n");
      const approve = await cli(["approve", "p.json", "--tools", "tools.txt", "-o", "json"], { cwd: d });
      expect(approve.code).toBe(2);
      expect(errorDoc(approve.stdout, "internal")).toBe("the non-deterministic check failed on p.json (rule exploded)");
      const text = await cli(["validate", "p.json"], { cwd: d });
      expect([text.code, text.stdout]).toEqual([2, ""]);
      expect(text.stderr).toMatch(/internal error: the non-deterministic check failed on p\.json \(rule exploded\)/);
      const { validatePlan } = await import("../src/node/validate-plan.js");
      const report = await validatePlan('[{"tool": "a"}]', { file: "p.json" });
      expect(report.valid).toBe(false);
      expect(report.internalErrors).toEqual([{ rule: "non-deterministic", message: "rule exploded" }]);
    } finally {
      spy.mockRestore();
    }
  });

  it("an unexpected file-system error (the audit trail is a folder) is exit 2, with the error document", async () => {
    const k = approvalKit();
    const approval = join(k.root, "a.json");
    writeFileSync(approval, k.sign(await k.record()));
    mkdirSync(join(k.guardDir, "audit.log"));
    const args = ["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state", join(k.guardDir, "s.json"), "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c")];
    const r = await cli([...args, "--output", "json"], { cwd: k.workspace });
    expect(r.code).toBe(2);
    expect(errorDoc(r.stdout, "internal")).toMatch(/EISDIR/);
  });

  it("an output file that cannot be written is exit 2 with code io", async () => {
    const dir = tmp();
    writeFileSync(join(dir, "p.json"), JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00", message: "m", intent: "i", checksum: "x", plan: [] }));
    const r = await cli(["seal", "p.json", "--out", join(dir, "missing", "x.json"), "-o", "json"], { cwd: dir });
    expect(r.code).toBe(2);
    expect(errorDoc(r.stdout, "io")).toMatch(/cannot write .*missing.*ENOENT/);
    const text = await cli(["seal", "p.json", "--out", join(dir, "missing", "x.json")], { cwd: dir });
    expect(text.code).toBe(2);
    expect(text.stderr).toMatch(/cannot write/);
  });

  it("help and version are exit 0 and print no error document", async () => {
    for (const args of [["--help"], ["--version"], ["validate", "--help", "-o", "json"]]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.stdout).not.toMatch(/"error"/);
    }
  });

  // The hook's host reads exit 0 as "allow": a stray --help in the hook's command must block, not allow.
  it.each([[["guard", "--help"]], [["guard", "-h"]], [["guard", "--output", "claude", "--help"]], [["guard", "--state-dir", "/nonexistent", "--help"]], [["guard", "help"]], [["guard", "--bogus"]]])(
    "the hook %j run by a host (standard input not a terminal): exit 2, blocked on stderr",
    async (args) => {
      const r = await cli(args, { stdin: "{}" });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/blocked: the hook's command asks for help|error: /);
      expect((await cli(args, { stdin: "{}", stdinTTY: false })).code).toBe(2);
    },
  );
  it("plangate guard --help at a terminal is help, exit 0; the other commands' help is exit 0 anywhere", async () => {
    const person = await cli(["guard", "--help"], { stdinTTY: true });
    expect([person.code, person.stderr]).toEqual([0, ""]);
    expect(person.stdout).toMatch(/PreToolUse hook/);
    for (const args of [["guard", "start", "--help"], ["guard", "status", "--help"], ["help", "guard"]]) expect((await cli(args)).code, args.join(" ")).toBe(0);
  });

  // A command other than the hook, put in the hook's place, would exit 0 ("allow") or 1 (a non-blocking
  // error): with a host's tool-call event on standard input it blocks instead, saying what to change.
  const EVENT = JSON.stringify({ session_id: "s1", transcript_path: "/t.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "rm -rf build" }, tool_use_id: "toolu_1" });
  const STRAY: string[][] = [
    ["guard", "status"],
    ["guard", "status", "--output", "json"],
    ["guard", "status", "-o", "json"],
    ["guard", "start", "plan.json", "--approval", "a.json"],
    ["guard", "stop", "--session", "s1"],
    ["guard", "repair", "r1"],
    ["guard", "status", "--help"],
    // The parser runs the subcommand named after the hook's own options or `--` too.
    ["guard", "--state-dir", "/nonexistent", "status"],
    ["guard", "--output=claude", "stop", "--session", "s1"],
    ["guard", "--", "status"],
    ["--version"],
    ["-V"],
    ["--help"],
    ["help"],
    ["help", "guard"],
    ["rules"],
    ["explain", "parse-error"],
    ["validate", "examples/intake.valid.json", "--no-policy"],
    ["validate", "-", "--no-policy"],
    ["hash", "-"],
    ["check-return", "-"],
    // It reads `-`, but ends (exit 1: no tool registry) before reading it; nothing is written before.
    ["approve", "-", "--no-policy"],
    ["validate", "-", "--help"],
  ];
  const BLOCK = /^plangate: blocked: standard input is a host's PreToolUse hook event for a tool call, but `plangate [^`\n]+` is not the guard hook and decides nothing \(exit 0 would let the call run\): set the hook's command to `plangate guard`[^\n]*\[guard-failure\]\n$/;
  it.each(STRAY)("plangate %s run as a hook (a tool-call event on standard input): exit 2, one guard-failure line", async (...args) => {
    const r = await cli(args, { stdin: EVENT, cwd: join(import.meta.dirname, "..") });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(BLOCK);
    if (wantsJson(args)) expect(errorDoc(r.stdout, "usage")).toMatch(/^blocked: .*\[guard-failure\]$/);
    else if (!args.includes("-")) expect(r.stdout).toBe("");
  });
  it.each([
    ["no input", ""],
    ["an empty line", "\n"],
    ["an event that runs no tool", JSON.stringify({ session_id: "s1", hook_event_name: "Stop", stop_hook_active: false })],
    ["a JSON document of another kind", '{"tool_name": "Bash"}'],
    ["text naming the keys", 'hook_event_name: "PreToolUse", tool_name: "Bash"'],
  ])("the same commands with %s on standard input, or at a terminal, run as before", async (_n, input) => {
    const d = tmp();
    for (const args of [["guard", "status", "--state-dir", d, "-o", "json"], ["--version"], ["help", "guard"], ["rules"]]) {
      const r = await cli(args, { stdin: input });
      expect([args, r.code, r.stderr]).toEqual([args, 0, ""]);
      const person = await cli(args, { stdin: EVENT, stdinTTY: true });
      expect([args, person.code, person.stderr]).toEqual([args, 0, ""]);
    }
    const plan = readFileSync(join(import.meta.dirname, "../examples/intake.valid.json"), "utf8");
    expect((await cli(["validate", "-", "--no-policy"], { stdin: plan })).code).toBe(0);
    expect((await cli(["hash", "-"], { stdin: plan })).code).toBe(0);
  });
  it.each([
    [EVENT, true, "PreToolUse"],
    [`\uFEFF \n${EVENT}\n`, true, "PreToolUse"],
    [JSON.stringify({ hook_event_name: "PermissionRequest", tool_name: "Write", tool_input: {} }), true, "PermissionRequest"],
    [JSON.stringify({ hook_event_name: "Stop" }), true, undefined],
    // A tool call's event blocks whatever its tool_name holds; another event only with a tool_name.
    [JSON.stringify({ hook_event_name: "PreToolUse", tool_name: 7 }), true, "PreToolUse"],
    [JSON.stringify({ hook_event_name: "PreToolUse", tool_name: null }), true, "PreToolUse"],
    [JSON.stringify({ hook_event_name: "PostToolUse" }), true, "PostToolUse"],
    [JSON.stringify({ hook_event_name: "Custom", tool_name: "Bash" }), true, "Custom"],
    [JSON.stringify({ hook_event_name: 7, tool_name: "Bash" }), true, undefined],
    [JSON.stringify([{ hook_event_name: "PreToolUse", tool_name: "Bash" }]), true, undefined],
    [JSON.stringify(JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash" })), true, undefined],
    // Not whole JSON: cut by the size or time bound, or trailing text.
    [EVENT.slice(0, EVENT.indexOf("tool_input") + 20), false, "PreToolUse"],
    [`${EVENT} trailing`, true, "PreToolUse"],
    ['{"session_id": "s1", "transcript_path": "/t', false, ""],
    ['{"session_id": "s1", "transcript_path": "/t', true, undefined],
    // An object cut at the bound cannot be told from an event whose keys come after the cut.
    ['{"steps": [{"tool": "a"', false, ""],
    ['{"steps": [{"tool": "a"', true, undefined],
    ['{"hook_event_name": "PreToolUse", "tool_input": {"x": 1} trailing', true, "PreToolUse"],
  ])("toolHookEvent(%j, complete %s) is %j", (text, complete, expected) => {
    expect(toolHookEvent(new TextEncoder().encode(text), complete)).toBe(expected);
  });

  const bin = join(import.meta.dirname, "../bin/plangate.js");
  const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));
  // The real process, as a host starts it (standard input a socket, written and closed), from a shell
  // pipe, from a file; a script's empty or open and silent standard input is no event and never hangs it.
  it.skipIf(!built)("the real program: a command that is not the hook, given a tool-call event, exits 2; given none, runs", async () => {
    const cwd = join(import.meta.dirname, "..");
    const state = ["--state-dir", tmp()];
    for (const args of [["guard", "status", ...state], ["rules"], ["--version"], ["help", "guard"], ["validate", "-", "--no-policy"], ["approve", "-", "--no-policy"], ["mcp", "--no-policy"]]) {
      const r = await runPlangate(args, EVENT, { cwd, env: process.env });
      expect([args, r.code]).toEqual([args, 2]);
      expect(r.stderr).toMatch(/^plangate: blocked: standard input is a host's PreToolUse hook event .*\[guard-failure\]\n$/);
      expect((await runPlangate(args.includes("-") ? [...args, "--help"] : args, "", { cwd, env: process.env })).code, args.join(" ")).toBe(0);
    }
    const pipe = spawnSync("/bin/sh", ["-c", 'printf %s "$EVENT" | "$NODE" "$BIN" guard status'], { env: { ...process.env, EVENT, NODE: process.execPath, BIN: bin }, encoding: "utf8" });
    expect([pipe.status, pipe.stderr]).toEqual([2, expect.stringMatching(/\[guard-failure\]\n$/)]);
    const file = join(tmp(), "event.json");
    writeFileSync(file, EVENT);
    const fromFile = spawnSync(process.execPath, [bin, "guard", "status", ...state], { stdio: [openSync(file, "r"), "pipe", "pipe"], encoding: "utf8" });
    expect(fromFile.status).toBe(2);
    const devNull = spawnSync(process.execPath, [bin, "guard", "status", ...state], { stdio: [openSync("/dev/null", "r"), "pipe", "pipe"], encoding: "utf8" });
    expect([devNull.status, devNull.stderr]).toEqual([0, ""]);
    const socket = spawn(process.execPath, [bin, "guard", "status", ...state], { stdio: ["pipe", "pipe", "pipe"] });
    expect(await new Promise((done) => socket.on("exit", done))).toBe(0);
    socket.stdin.destroy();
    if (process.platform === "linux") {
      // A pipe whose writer (this process, read-write on the FIFO) never writes nor closes it.
      const fifo = join(tmp(), "fifo");
      expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
      const held = openSync(fifo, "r+");
      try {
        const pipe = spawn(process.execPath, [bin, "guard", "status", ...state], { stdio: [held, "pipe", "pipe"] });
        expect(await new Promise((done) => pipe.on("exit", done))).toBe(0);
      } finally {
        closeSync(held);
      }
    }
    // An event cut short, its writer gone silent without closing: blocked once the look's bound is reached.
    const cut = spawn(process.execPath, [bin, "guard", "status", ...state], { stdio: ["pipe", "pipe", "pipe"] });
    cut.stdin.write(EVENT.slice(0, 60));
    expect(await new Promise((done) => cut.on("exit", done))).toBe(2);
    cut.stdin.destroy();
  });

  /** Preloaded into the real process: standard input fails when read. */
  const FAIL_STDIN = 'data:text/javascript,Object.defineProperty(process.stdin,Symbol.asyncIterator,{value:async function*(){throw new Error("stdin exploded")}})';
  it.skipIf(!built)("the real program: an internal error is exit 2 (text and JSON); the hook blocks", () => {
    const json = spawnSync(process.execPath, ["--import", FAIL_STDIN, bin, "validate", "-", "--output=json"], { encoding: "utf8" });
    expect(json.status).toBe(2);
    expect(errorDoc(json.stdout, "internal")).toBe("stdin exploded");
    const text = spawnSync(process.execPath, ["--import", FAIL_STDIN, bin, "hash", "-"], { encoding: "utf8" });
    expect([text.status, text.stdout]).toEqual([2, ""]);
    expect(text.stderr).toMatch(/internal error: stdin exploded/);
    const hook = spawnSync(process.execPath, ["--import", FAIL_STDIN, bin, "guard", "--state", join(tmp(), "none.json")], { encoding: "utf8" });
    expect(hook.status).toBe(2);
  });

  // A hook stopped by a signal has decided nothing: exit 2 (block), never death by the signal, which a host
  // may read as a non-blocking error of the hook and let the call run.
  it.skipIf(!built || process.platform !== "linux").each(["SIGTERM", "SIGINT", "SIGHUP"] as const)("the hook stopped by %s while it waits for its input: exit 2, blocked", async (signal) => {
    const p = spawn(process.execPath, [bin, "guard", "--no-policy", "--state-dir", join(tmp(), "s"), "--timeout", "600000"], { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    p.stderr.on("data", (c) => (stderr += c));
    const closed = new Promise<[number | null, string | null]>((done) => p.on("close", (code, sig) => done([code, sig])));
    // Wait until the hook's handlers are in place (SIGHUP, the last one installed, caught: Node itself
    // catches SIGINT and SIGTERM from its start), then send the signal.
    const bit = 1n;
    for (let i = 0; i < 2000; i++) {
      const m = /^SigCgt:\s*([0-9a-f]+)$/m.exec(readFileSync(`/proc/${p.pid}/status`, "utf8"));
      if (m && (BigInt(`0x${m[1]}`) & bit) !== 0n) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    p.kill(signal);
    expect(await closed).toEqual([2, null]);
    expect(stderr).toContain(`blocked: stopped by ${signal}`);
    p.stdin.destroy();
  });

  // Output that cannot be written (a full disk, a reader that closed the pipe) delivers no verdict: exit 2,
  // said as such (not "a bug"), for an accepted plan, a rejected one and the hook's answer alike.
  it.skipIf(!built || !existsSync("/dev/full")).each([
    [["validate", "examples/intake.valid.json", "--no-policy"], ""],
    [["validate", "examples/intake.invalid.json", "--no-policy"], ""],
    [["validate", "examples/intake.valid.json", "--no-policy", "-o", "json"], ""],
    [["hash", "examples/intake.valid.json"], ""],
    [["guard", "--no-policy", "--state-dir", join(tmp(), "s"), "--output", "claude"], "{}"],
  ])("plangate %j with standard output on a full disk: exit 2, an io error", (args, input) => {
    const full = openSync("/dev/full", "w");
    try {
      const r = spawnSync(process.execPath, [bin, ...args], { cwd: join(import.meta.dirname, ".."), input, stdio: ["pipe", full, "pipe"], encoding: "utf8" });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cannot write to standard output \(ENOSPC\); the result was not delivered/);
      expect(r.stderr).not.toMatch(/bug/);
    } finally {
      closeSync(full);
    }
  });

  /** Preloaded into the real process: the bundled CLI cannot be loaded (a crash before any command runs). */
  const FAIL_LOAD =
    'data:text/javascript,import fs from "node:fs";const r=fs.readFileSync;fs.readFileSync=function(p,...a){if(String(p).endsWith("cli.cjs"))throw new Error("load failed");return r.call(this,p,...a)}';
  // The answer form is the command line parser's: the last --output wins. A crash in the exit-code form
  // must exit 2 (its host reads 0 as "allow"); in Claude Code's form it prints a deny and exits 0.
  it.skipIf(!built).each([
    [["--output", "claude"], 0, true],
    [["--output=claude"], 0, true],
    [["--output", "exit", "--output", "claude"], 0, true],
    [["--output=exit", "--output=claude"], 0, true],
    [["--output", "claude", "--output", "exit"], 2, false],
    [["--output=claude", "--output=exit"], 2, false],
    [["--output=claude", "--output", "exit"], 2, false],
    [["--output", "exit"], 2, false],
    [[], 2, false],
  ] as const)("a hook that crashes while loading, guard %j: exit %i", (args, code, deny) => {
    const r = spawnSync(process.execPath, ["--import", FAIL_LOAD, bin, "guard", ...args], { encoding: "utf8", input: "{}" });
    expect(r.status).toBe(code);
    expect(r.stderr).toMatch(/blocked: internal error: load failed \[guard-failure\]/);
    if (deny) expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    else expect(r.stdout).toBe("");
  });
});
