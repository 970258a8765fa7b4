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
import { approvalKit } from "./approval-kit.js";
import { cli } from "./cli-io.js";

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

  const bin = join(import.meta.dirname, "../bin/plangate.js");
  const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));
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
