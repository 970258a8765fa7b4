import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type HookResult, runPlangate } from "./hook-process.js";

/*
 * A call another hook rewrote after the guard allowed it: Claude Code runs a tool with the `updatedInput`
 * of a PreToolUse or PermissionRequest hook that runs beside the guard, and reports the input it ran with
 * in the call's PostToolUse. Each call goes through the real hook process, as Claude Code sends it.
 */

const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

const APP = "def add(a, b):\n    return a - b\n";

const PLAN = (command: string) => `# Fix add

## Rationale
\`\`\`\`text
The function is wrong; fix it and run the tests.
\`\`\`\`

## Action Plan

### \`EDIT\`
- **File Path:** [src/app.py](/src/app.py)
- **Description:** Fix add().

#### \`FIND:\`
\`\`\`\`python
    return a - b
\`\`\`\`
#### \`REPLACE:\`
\`\`\`\`python
    return a + b
\`\`\`\`

---

### \`EXECUTE\`
- **Description:** Run the tests.
- **Expected Outcome:** passed.
\`\`\`\`shell
${command}
\`\`\`\`
`;

let root: string;
let ws: string;

function run(args: string[], stdin?: string): Promise<HookResult> {
  return runPlangate(args, stdin, { cwd: ws, env: { ...process.env, NO_COLOR: "1", XDG_CONFIG_HOME: join(root, "config") } });
}

let n = 0;
const nextId = () => `toolu_${String(++n).padStart(4, "0")}`;
function event(session: string, name: string, fields: Record<string, unknown>, output = "claude"): Promise<HookResult> {
  const payload = { session_id: session, transcript_path: join(root, `${session}.jsonl`), cwd: ws, permission_mode: "default", hook_event_name: name, ...fields };
  return run(["guard", "--output", output], JSON.stringify(payload));
}
async function pre(session: string, tool: string, input: Record<string, unknown>, id = nextId()): Promise<{ decision: string | undefined; reason: string; id: string }> {
  const r = await event(session, "PreToolUse", { tool_name: tool, tool_input: input, tool_use_id: id });
  expect(r.code, r.stderr).toBe(0);
  const out = r.answer?.hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  return { decision: out?.permissionDecision, reason: out?.permissionDecisionReason ?? "", id };
}
const post = (session: string, tool: string, input: Record<string, unknown>, id: string | undefined, name = "PostToolUse", output = "claude") =>
  event(session, name, { tool_name: tool, tool_input: input, ...(name === "PostToolUse" ? { tool_response: {} } : { error: "exit 1" }), ...(id === undefined ? {} : { tool_use_id: id }) }, output);

async function accept(session: string, text: string): Promise<void> {
  const id = nextId();
  const r = await event(session, "PreToolUse", { tool_name: "ExitPlanMode", tool_input: { plan: text }, tool_use_id: id });
  expect([r.code, r.stdout], r.stderr).toEqual([0, ""]);
  const p = await event(session, "PostToolUse", { tool_name: "ExitPlanMode", tool_input: { plan: text }, tool_response: { plan: text, isAgent: false }, tool_use_id: id });
  expect(JSON.stringify(p.answer), p.stderr).toContain("started");
}

async function runOf(session: string): Promise<{ run: string; status: string; stop_reason?: string }> {
  const s = await run(["guard", "status", "-o", "json"]);
  expect(s.code, s.stderr).toBe(0);
  const found = (JSON.parse(s.stdout) as { runs: { run: string; session: string; status: string; stop_reason?: string }[] }).runs.find((r) => r.session === session);
  expect(found).toBeDefined();
  return found!;
}

const abs = (p: string) => join(ws, p);
const EDIT = () => ({ file_path: abs("src/app.py"), old_string: "    return a - b", new_string: "    return a + b" });
const TESTS = { command: "python -m pytest -q", description: "Run the tests", timeout: 120000 };

/** The answer to a PostToolUse of a call the guard did not allow: a block, naming what happened. */
function expectRanUnallowed(r: HookResult, tool: string): void {
  expect(r.code, r.stderr).toBe(0);
  const a = r.answer as { decision?: string; reason?: string };
  expect(a.decision).toBe("block");
  expect(a.reason).toContain(`The "${tool}" call that ran`);
  expect(a.reason).toContain("updatedInput");
  expect(a.reason).toMatch(/the run is stopped and every later call is denied.*remove the hook that rewrites tool inputs.*\[guard-failure\]$/s);
}

describe.skipIf(!built)("a call rewritten by another hook after the guard allowed it", { timeout: 180_000 }, () => {
  beforeAll(async () => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-rewrite-")));
    ws = join(root, "project");
    mkdirSync(join(ws, "src"), { recursive: true });
    writeFileSync(join(ws, "src/app.py"), APP);
    const keys = await run(["keygen", "--out", join(root, "config", "plangate")]);
    expect(keys.code, keys.stderr).toBe(0);
    writeFileSync(
      join(ws, "plangate.yaml"),
      ["host: claude-code", "commands:", "  allow: [python, rtk]", "  writtenCode: [python]", "guard:", "  stateDir: ../state", "  free: [Read, Glob, Grep, LS]", "  noRun: allow-free", "approval:", "  onPlanAccepted: sign-and-start", `  key: ${join(root, "config", "plangate", "plangate.key")}`, ""].join("\n"),
    );
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("the calls that ran as allowed pass: steps, free reads, a failed call, parallel calls reported out of order, a host without tool_use_id", async () => {
    const s = "11111111-2222-4333-8444-555555555555";
    await accept(s, PLAN("python -m pytest -q"));
    const read = await pre(s, "Read", { file_path: abs("src/app.py") });
    expect(read.decision).toBe("allow");
    const [edit, grep] = await Promise.all([pre(s, "Edit", EDIT()), pre(s, "Grep", { pattern: "def " })]);
    expect([edit.decision, grep.decision]).toEqual(["allow", "allow"]);
    for (const [tool, input, id] of [["Grep", { pattern: "def " }, grep.id], ["Edit", EDIT(), edit.id], ["Read", { file_path: abs("src/app.py") }, read.id]] as const) {
      const r = await post(s, tool, input, id);
      expect([tool, r.code, r.stdout], r.stderr).toEqual([tool, 0, ""]);
    }
    const tests = await pre(s, "Bash", TESTS);
    expect(tests.decision).toBe("allow");
    // The tests failed: PostToolUseFailure reports the call, with the input it ran with.
    const failed = await post(s, "Bash", TESTS, tests.id, "PostToolUseFailure");
    expect([failed.code, failed.stdout], failed.stderr).toEqual([0, ""]);
    // A host that sends no tool_use_id: the call is found by its tool and input.
    const again = await pre(s, "Read", { file_path: abs("src/app.py"), offset: 1, limit: 5 });
    expect(again.decision).toBe("allow");
    const noId = await post(s, "Read", { file_path: abs("src/app.py"), offset: 1, limit: 5 }, undefined);
    expect([noId.code, noId.stdout], noId.stderr).toEqual([0, ""]);
    expect((await runOf(s)).status).toBe("complete");
    // A session without a run has nothing to check.
    const other = await post("99999999-2222-4333-8444-555555555555", "Read", { file_path: abs("src/app.py") }, nextId());
    expect([other.code, other.stdout], other.stderr).toEqual([0, ""]);
  });

  it("an Edit rewritten after the guard allowed it stops the run; every later call is denied", async () => {
    const s = "22222222-2222-4333-8444-555555555555";
    await accept(s, PLAN("python -m pytest -q tests"));
    const edit = await pre(s, "Edit", EDIT());
    expect(edit.decision).toBe("allow");
    // The step ran as another hook rewrote it: the guard allowed one replacement, the host made another.
    const ran = await post(s, "Edit", { ...EDIT(), new_string: "    return 0" }, edit.id);
    expectRanUnallowed(ran, "Edit");
    const r = await runOf(s);
    expect(r.status).toBe("stopped");
    expect(r.stop_reason).toMatch(/^the host ran a call of Edit \(PostToolUse\) that the guard did not allow/);
    const next = await pre(s, "Bash", { command: "python -m pytest -q tests", description: "Run the tests" });
    expect(next.decision).toBe("deny");
    expect(next.reason).toMatch(/was stopped \(.*updatedInput.*\); no call runs in it/);
    // Free reads are denied too: the run is stopped.
    expect((await pre(s, "Read", { file_path: abs("src/app.py") })).decision).toBe("deny");
    // The audit trail verifies, and holds the refusal and the stop.
    const verify = await run(["audit", "verify", join(root, "state", "audit", `${r.run}.jsonl`), "--state", join(root, "state", "runs", `${r.run}.json`)]);
    expect(verify.code, verify.stdout + verify.stderr).toBe(0);
  });

  it("a rewritten free read, a rewritten Bash command, a call the guard never saw, in both answer forms", async () => {
    const cases: [string, (s: string) => Promise<HookResult>][] = [
      [
        "a free read sent elsewhere",
        async (s) => {
          const r = await pre(s, "Read", { file_path: abs("src/app.py") });
          expect(r.decision).toBe("allow");
          return post(s, "Read", { file_path: "/etc/passwd" }, r.id);
        },
      ],
      [
        "a rewritten command, reported as failed",
        async (s) => {
          expect((await pre(s, "Edit", EDIT())).decision).toBe("allow");
          const r = await pre(s, "Bash", { command: "python -m pytest -q tests/x", description: "Run" });
          expect(r.decision).toBe("allow");
          return post(s, "Bash", { command: "rtk python -m pytest -q tests/x", description: "Run" }, r.id, "PostToolUseFailure");
        },
      ],
      [
        "an argument added (run in the background)",
        async (s) => {
          expect((await pre(s, "Edit", EDIT())).decision).toBe("allow");
          const r = await pre(s, "Bash", { command: "python -m pytest -q tests/x" });
          expect(r.decision).toBe("allow");
          return post(s, "Bash", { command: "python -m pytest -q tests/x", run_in_background: true }, r.id);
        },
      ],
      ["a call the guard never allowed", async (s) => post(s, "Write", { file_path: abs("src/app.py"), content: "" }, nextId())],
      [
        "a rewritten call from a host without tool_use_id",
        async (s) => {
          const r = await pre(s, "Read", { file_path: abs("src/app.py") });
          expect(r.decision).toBe("allow");
          return post(s, "Read", { file_path: abs("plangate.yaml") }, undefined);
        },
      ],
    ];
    let i = 0;
    for (const [name, ranAs] of cases) {
      const s = `3333333${++i}-2222-4333-8444-555555555555`;
      await accept(s, PLAN("python -m pytest -q tests/x"));
      const r = await ranAs(s);
      const tool = (JSON.parse(JSON.stringify(r.answer ?? {})) as { reason?: string }).reason?.match(/The "(\w+)" call/)?.[1] ?? "";
      expect(tool, name).not.toBe("");
      expectRanUnallowed(r, tool);
      expect((await runOf(s)).status, name).toBe("stopped");
    }
    // The exit-code answer: exit 2, the reason on stderr.
    const s = "44444444-2222-4333-8444-555555555555";
    await accept(s, PLAN("python -m pytest -q tests/x"));
    const r = await pre(s, "Read", { file_path: abs("src/app.py") });
    const x = await post(s, "Read", { file_path: abs("src/app.py"), pages: "1" }, r.id, "PostToolUse", "exit");
    expect(x.code).toBe(2);
    expect(x.stderr).toMatch(/blocked: The "Read" call that ran \(PostToolUse\) is not a call the guard allowed/);
    expect((await runOf(s)).status).toBe("stopped");
  });
});
