import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { answerHook, type HookSettings } from "../src/cli/hook-answer.js";
import { hookCall } from "../src/node/hook.js";
import { readState } from "../src/node/guard-state.js";
import { createFileProbe } from "../src/node/file-probe.js";
import { generateKeyFiles } from "../src/node/keys.js";
import { loadPolicy } from "../src/node/policy.js";
import { defaultPolicy } from "../src/policy/defaults.js";
import { AnsweredError, decideHook, listRuns, readRun, runFile } from "../src/store/runs.js";
import { approvalKit, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

/*
 * An approved plan is a contract: the guard lets through exactly the approved next step, and what it
 * records is what the host was told. Attacks on that contract, each with the fix's behaviour.
 */

type Kit = ReturnType<typeof approvalKit> & { dir: string };

function kit(): Kit {
  const k = approvalKit();
  return { ...k, dir: join(k.root, "state") };
}

/** Approves the kit's plan and starts a run bound to session `s`: the run's id. */
async function start(k: Kit): Promise<string> {
  const file = join(k.root, "a.json");
  writeFileSync(file, k.sign(await k.record()));
  const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", file, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "--session", "s", "-o", "json"], { cwd: k.workspace });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout).results[0].run as string;
}

const input = (cwd: string, tool: string, args: unknown) => JSON.stringify({ session_id: "s", transcript_path: "/t", cwd, hook_event_name: "PreToolUse", tool_name: tool, tool_input: args });

const eventsOf = (k: Kit, run: string) =>
  readFileSync(readRun(k.dir, run).audit, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l).event as string);

/** One hook decision in-process, as `plangate guard --output claude` makes it; `closed` resolves once the decision itself has ended. */
function hook(k: Kit, stdin: string, timeoutMs: number): { out: ReturnType<typeof answerHook>; closed: Promise<void> } {
  let closed!: () => void;
  const ended = new Promise<void>((r) => (closed = r));
  const settings: HookSettings = {
    output: "claude",
    timeoutMs,
    now: () => NOW,
    cwd: k.workspace,
    env: {},
    policy: async () => {
      throw new Error("a run's calls read no policy");
    },
    store: async () => ({ dir: k.dir, planDir: async () => k.dir, maxInputBytes: 1 << 20, close: async () => closed() }),
  };
  return { out: answerHook(async () => Buffer.from(stdin), settings), closed: ended };
}

const decisionOf = (stdout: string) => JSON.parse(stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };

describe("a decision reached after the hook has answered takes nothing", () => {
  it("a call denied for want of a decision in time does not take its step when the decision lands later (the step is not skipped)", async () => {
    const k = kit();
    const run = await start(k);
    // Another guard holds the run's lock (a racing call, a slow store): this call's decision waits past the timeout.
    const lock = runFile(k.dir, run) + ".lock";
    writeFileSync(lock, `${process.pid}\n`);
    const late = hook(k, input(k.workspace, PLAN[0]!.tool, PLAN[0]!.params), 50);
    const answered = await late.out;
    expect(decisionOf(answered.stdout)).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/no decision within 50 ms \[guard-failure\]$/) });
    // The lock is freed: the decision goes on, and must not take step 1, which the host was told not to run.
    rmSync(lock);
    await late.closed;
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 0 });
    expect(eventsOf(k, run)).toEqual(["open"]);
    // Before the fix step 1 was taken here, and the next call, step 2, was allowed: step 1 never ran.
    const step2 = hook(k, input(k.workspace, PLAN[1]!.tool, PLAN[1]!.params), 5000);
    expect(decisionOf((await step2.out).stdout).permissionDecision).toBe("deny");
    const step1 = hook(k, input(k.workspace, PLAN[0]!.tool, PLAN[0]!.params), 5000);
    expect(decisionOf((await step1.out).stdout)).toMatchObject({ permissionDecision: "allow", permissionDecisionReason: "plangate: Step 1 of the approved plan." });
  });

  it("decideHook records an allow, an ask or a free call only when commit says the host still waits", async () => {
    const k = kit();
    const run = await start(k);
    const call = { session: "s", cwd: k.workspace, tool: PLAN[0]!.tool, args: PLAN[0]!.params };
    const ctx = { now: NOW, mode: "claude" as const, noRunPolicy: async () => defaultPolicy(k.workspace), files: createFileProbe };
    await expect(decideHook(k.dir, call, { ...ctx, commit: () => false })).rejects.toBeInstanceOf(AnsweredError);
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 0 });
    // A denial needs no commit: it takes nothing.
    let asked = 0;
    const other = await decideHook(k.dir, { ...call, args: { path: "other.txt" } }, { ...ctx, commit: () => (asked++, true) });
    expect([other.decision, asked]).toEqual(["deny", 0]);
    expect((await decideHook(k.dir, call, { ...ctx, commit: () => (asked++, true) })).decision).toBe("allow");
    expect(asked).toBe(1);
    expect(eventsOf(k, run)).toEqual(["open", "deny", "allow"]);
  });

  it("the deprecated single-file state takes no step once the host was answered", async () => {
    const k = kit();
    const file = join(k.root, "a.json");
    writeFileSync(file, k.sign(await k.record()));
    const state = join(k.guardDir, "state.json");
    const s = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", file, "--state", state, "--audit", join(k.guardDir, "audit.log"), "--trusted-keys", k.keys.publicFile, "--consumed-dir", join(k.guardDir, "c")], { cwd: k.workspace });
    expect(s.code, s.stderr).toBe(0);
    const call = { tool: PLAN[0]!.tool, args: PLAN[0]!.params, cwd: k.workspace };
    await expect(hookCall(state, call, NOW, () => false)).rejects.toThrow(/already denied/);
    expect(readState(state).next).toBe(0);
    expect(await hookCall(state, call, NOW, () => true)).toBeUndefined();
    expect(readState(state).next).toBe(1);
  });
});

/** A run of `steps` (an intake plan of Claude Code's tools) under a claude-code policy, bound to session `s`. */
async function claudeRun(k: Kit, steps: unknown[], policy: string[] = []): Promise<{ run: string; policyFile: string }> {
  const policyFile = join(k.root, "plangate.yaml");
  writeFileSync(policyFile, ["host: claude-code", "plan:", "  constraints: allow", "commands:", "  allow: [ls]", `guard:`, `  stateDir: ${k.dir}`, ...policy, ""].join("\n"));
  writeFileSync(k.planFile, JSON.stringify({ steps }, null, 2));
  const approve = await cli(["approve", "plan.json", "--key", k.keys.privateFile, "--policy", policyFile], { cwd: k.workspace });
  expect(approve.code, approve.stdout + approve.stderr).toBe(0);
  writeFileSync(join(k.root, "a.json"), approve.stdout);
  const s = await cli(["guard", "start", "plan.json", "--approval", join(k.root, "a.json"), "--policy", policyFile, "--trusted-keys", k.keys.publicFile, "--session", "s", "-o", "json"], { cwd: k.workspace });
  expect(s.code, s.stdout + s.stderr).toBe(0);
  return { run: JSON.parse(s.stdout).results[0].run as string, policyFile };
}

describe("a command pattern admits no background job", () => {
  it("`ls src &` is not an `ls *` step: the job would run beside the steps after it (run_in_background is bound, and so is `&`)", async () => {
    const k = kit();
    const { run } = await claudeRun(k, [
      { tool: "Bash", arguments: { command: { $glob: "ls *" } }, intent: "List a folder", repeat: 2 },
      { tool: "Write", arguments: { file_path: "out.txt", content: "done\n" }, intent: "Write the result" },
    ]);
    const call = async (command: string) => decisionOf((await hook(k, input(k.workspace, "Bash", { command }), 5000).out).stdout);
    for (const command of ["ls . &", "(ls . &)", "{ ls . & }", "ls . && ls . &"]) expect(await call(command), command).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/\[guard-step-mismatch\]$/) });
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 0 });
    expect((await call("ls .")).permissionDecision).toBe("allow");
    expect((await call("ls . && ls .")).permissionDecision).toBe("allow");
  });
});

describe("plan mode approves only a plan the person accepted as it was checked", () => {
  /** A claude-code project whose policy signs and starts an accepted plan with a key in the user's own key folder. */
  function planModeProject() {
    const k = kit();
    const config = join(k.root, "config");
    const keys = generateKeyFiles(join(config, "plangate"));
    const policyFile = join(k.workspace, "plangate.yaml");
    mkdirSync(k.dir, { recursive: true, mode: 0o700 });
    writeFileSync(policyFile, ["host: claude-code", "guard:", `  stateDir: ${k.dir}`, "approval:", "  onPlanAccepted: sign-and-start", `  key: ${keys.privateFile}`, ""].join("\n"));
    const plan = "# Write the result\n\n```json\n" + JSON.stringify({ steps: [{ tool: "Write", arguments: { file_path: "out.txt", content: "done\n" }, intent: "Write the result" }] }, null, 2) + "\n```\n";
    const post = (extra: Record<string, unknown>, toolInput: Record<string, unknown> = { plan }) =>
      answerHook(async () => Buffer.from(JSON.stringify({ session_id: "p", transcript_path: "/t", cwd: k.workspace, permission_mode: "plan", hook_event_name: "PostToolUse", tool_name: "ExitPlanMode", tool_input: toolInput, ...extra })), {
        output: "claude",
        timeoutMs: 20_000,
        now: () => NOW,
        cwd: k.workspace,
        env: { XDG_CONFIG_HOME: config },
        policy: () => loadPolicy({ file: policyFile, cwd: k.workspace }),
        store: async () => ({ dir: k.dir, planDir: async () => k.dir, maxInputBytes: 1 << 20 }),
      });
    return { k, plan, post };
  }
  const answerOf = (stdout: string) => JSON.parse(stdout) as { decision?: string; reason?: string; hookSpecificOutput: { additionalContext: string } };

  it.each([
    ["a subagent's ExitPlanMode (agent_id): Claude Code asks no person", { agent_id: "a1f2", agent_type: "general-purpose", tool_response: { plan: "P", isAgent: true } }, /inside a subagent \("a1f2"\)/],
    ["a call the host reports as an agent's (isAgent)", { tool_response: { plan: "P", isAgent: true } }, /accepted in an agent/],
    ["a teammate's plan sent to its team lead", { tool_response: { plan: "P", isAgent: false, awaitingLeaderApproval: true } }, /team lead's approval/],
    ["a plan the host reports as accepted that is not the one checked", { tool_response: { plan: "EDITED", isAgent: false } }, /is not the plan the hook was given/],
  ])("%s: no approval, no run", async (_name, extra, reason) => {
    const { k, plan, post } = planModeProject();
    const response = (extra as { tool_response: { plan: string } }).tool_response;
    if (response.plan === "P") response.plan = plan;
    const out = await post(extra);
    const a = answerOf(out.stdout);
    expect(a).toMatchObject({ decision: "block", reason: expect.stringMatching(reason) });
    expect(a.hookSpecificOutput.additionalContext).toMatch(/No run was started/);
    expect(listRuns(k.dir).runs).toEqual([]);
  });

  it("the main session's acceptance of the plan it was shown signs and starts the run", async () => {
    const { k, plan, post } = planModeProject();
    const a = answerOf((await post({ tool_response: { plan, isAgent: false } })).stdout);
    expect(a.decision).toBeUndefined();
    expect(a.hookSpecificOutput.additionalContext).toMatch(/approved \(signed by [0-9a-f]{16}…\) and started/);
    expect(listRuns(k.dir).runs.map((r) => [r.session_id, r.status])).toEqual([["p", "active"]]);
  });
});

describe("a subagent event is never refused, a failure included", () => {
  it("a SubagentStop whose decision does not land in time is not blocked (a blocked stop keeps the subagent running while the late decision records it stopped)", async () => {
    const k = kit();
    const run = await start(k);
    const lock = runFile(k.dir, run) + ".lock";
    writeFileSync(lock, `${process.pid}\n`);
    const stop = hook(k, JSON.stringify({ session_id: "s", transcript_path: "/t", cwd: k.workspace, hook_event_name: "SubagentStop", agent_id: "a1", agent_type: "general-purpose" }), 50);
    const out = await stop.out;
    rmSync(lock);
    await stop.closed;
    expect([out.code, out.stdout, out.stderr]).toEqual([0, "", expect.stringMatching(/^plangate guard: SubagentStop: no decision within 50 ms \[guard-failure\]\n$/)]);
    expect(out.outcome.decision).toBe("none");
  });
});
