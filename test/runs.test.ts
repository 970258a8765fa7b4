import { spawn } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, watch, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseHookInput } from "../src/node/hook.js";
import { readRun, sessionKey, startRun } from "../src/store/runs.js";
import { approvalKit, DEFAULT_POLICY_HASH, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

const bin = join(import.meta.dirname, "../bin/plangate.js");
const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

type Kit = ReturnType<typeof approvalKit>;

/** A kit with a state directory beside its workspace. */
function kit(): Kit & { dir: string } {
  const k = approvalKit();
  return { ...k, dir: join(k.root, "state") };
}

/** A fresh signed approval of the kit's plan (each has its own nonce). */
async function approvalOf(k: Kit, name = "a.json"): Promise<string> {
  const file = join(k.root, name);
  writeFileSync(file, k.sign(await k.record()));
  return file;
}

async function start(k: Kit & { dir: string }, extra: string[] = [], name?: string) {
  const approval = await approvalOf(k, name);
  const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "-o", "json", ...extra], { cwd: k.workspace });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return JSON.parse(r.stdout).results[0] as { run: string; session: string | null; status: string };
}

const input = (session: string | undefined, cwd: string, tool: string, args: unknown, event = "PreToolUse") =>
  JSON.stringify({ session_id: session, transcript_path: "/t", cwd, hook_event_name: event, tool_name: tool, tool_input: args });

/** The real hook process, as the host runs it for each call. */
function hook(dir: string, stdin: string | undefined, extra: string[] = [], opts: { kill?: number; killOnChange?: string; env?: Record<string, string> } = {}): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((done) => {
    const p = spawn(process.execPath, [bin, "guard", "--state-dir", dir, "--no-policy", ...extra], { stdio: ["pipe", "pipe", "pipe"], env: { ...process.env, ...opts.env } });
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c) => (stdout += c));
    p.stderr.on("data", (c) => (stderr += c));
    p.on("close", (code, signal) => done({ code, signal, stdout, stderr }));
    p.stdin.on("error", () => undefined);
    if (stdin !== undefined) p.stdin.end(stdin);
    if (opts.kill !== undefined) setTimeout(() => p.kill("SIGKILL"), opts.kill);
    if (opts.killOnChange !== undefined) {
      // Killed the moment the file changes: between the audit append and the run write, or near it.
      const w = watch(opts.killOnChange, () => {
        p.kill("SIGKILL");
        w.close();
      });
      p.on("close", () => w.close());
    }
  });
}

const decisionOf = (stdout: string) => JSON.parse(stdout).hookSpecificOutput.permissionDecision as string;

describe("the hook input reader", () => {
  const enc = (v: unknown) => new TextEncoder().encode(typeof v === "string" ? v : JSON.stringify(v));
  it("reads the event, session, cwd, agent, call and tool_use_id of a PreToolUse input", () => {
    const raw = { session_id: "abc", cwd: "/w", hook_event_name: "PreToolUse", agent_id: "a1", agent_type: "Explore", tool_name: "Read", tool_input: { file_path: "/w/x" }, tool_use_id: "t1", permission_mode: "default" };
    expect(parseHookInput(enc(raw))).toEqual({ event: "PreToolUse", session: "abc", cwd: "/w", agentId: "a1", agentType: "Explore", tool: "Read", args: { file_path: "/w/x" }, useId: "t1", raw });
  });
  it("reads other events (PostToolUse, SubagentStop) and an input without an event name as PreToolUse", () => {
    expect(parseHookInput(enc({ hook_event_name: "SubagentStop", session_id: "s", agent_id: "x" }))).toMatchObject({ event: "SubagentStop", session: "s", agentId: "x" });
    expect(parseHookInput(enc({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: {} }))).toMatchObject({ event: "PostToolUse", tool: "Bash" });
    expect(parseHookInput(enc({ tool_name: "Read" }))).toMatchObject({ event: "PreToolUse", tool: "Read", args: {}, session: undefined });
  });
  it.each([
    [{ tool_name: "Read", session_id: 7 }, /session_id is not a string/, "guard-failure"],
    [{ tool_name: "Read", cwd: "relative/dir" }, /cwd .* is not an absolute path/, "guard-failure"],
    [{ tool_name: "Read", cwd: ["/w"] }, /cwd is not a string/, "guard-failure"],
    [{ tool_name: "Read", agent_id: {} }, /agent_id is not a string/, "guard-failure"],
    [{ hook_event_name: "Pre Tool", tool_name: "Read" }, /not an event name/, "guard-failure"],
    [{ hook_event_name: 1, tool_name: "Read" }, /hook_event_name is not a string/, "guard-failure"],
    [{ hook_event_name: "PermissionRequest" }, /no tool_name/, "guard-failure"],
    [{ tool_name: "Read", tool_input: [] }, /tool_input is not an object/, "guard-failure"],
    [{ tool_name: "Read", tool_input: null }, /tool_input is not an object/, "guard-failure"],
    [{ tool_name: "Read", tool_input: "file_path=/etc/passwd" }, /tool_input is not an object/, "guard-failure"],
    [{ tool_name: "Read", session_id: "s".repeat(5000) }, /session_id is over 4096/, "limit-exceeded"],
    ['{"tool_name": "Read", "session_id": "a", "session_id": "b"}', /duplicate/i, "duplicate-key"],
    ["", /^the hook input on standard input is empty: the host sent no JSON object/, "parse-error"],
    ["\ufeff \n\t", /^the hook input on standard input is empty/, "parse-error"],
  ])("refuses %j", (v, message, rule) => {
    let err: unknown;
    try {
      parseHookInput(enc(v));
    } catch (e) {
      err = e;
    }
    expect((err as Error).message).toMatch(message);
    expect((err as { rule: string }).rule).toBe(rule);
  });
});

describe("runs per session in a state directory", () => {
  it("guard start writes a pending run (0600) and refuses a state directory inside the workspace (exit 2)", async () => {
    const k = kit();
    const run = await start(k);
    expect(run).toMatchObject({ session: null, status: "pending", steps: 3, step: 0 });
    const file = join(k.dir, "runs", `${run.run}.json`);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const state = readRun(k.dir, run.run);
    expect([...state.expected]).toEqual(PLAN.map((s, i) => ({ step: i + 1, tool: s.tool, args: s.params, repeat: 1, optional: false, confirm: false })));
    expect(state.progress).toEqual({ cursor: { index: 0, count: 0 } });
    expect(existsSync(join(k.dir, "audit", `${run.run}.jsonl`))).toBe(true);
    const approval = await approvalOf(k, "b.json");
    for (const inside of [join(k.workspace, "state"), k.workspace]) {
      const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", inside, "--trusted-keys", k.keys.publicFile], { cwd: k.workspace });
      expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/overlap/)]);
    }
  });

  it("a single-use approval consumed through one state directory cannot start a run in another", async () => {
    const k = kit();
    const approval = await approvalOf(k);
    const env = { XDG_STATE_HOME: join(k.root, "xdg") };
    const args = (dir: string) => ["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", dir, "--trusted-keys", k.keys.publicFile];
    expect((await cli(args(join(k.root, "one")), { cwd: k.workspace, env })).code).toBe(0);
    const replay = await cli(args(join(k.root, "two")), { cwd: k.workspace, env });
    expect([replay.code, replay.stdout]).toEqual([1, expect.stringMatching(/already used.*\[approval-consumed\]/)]);
    expect(readdirSync(join(k.root, "xdg", "plangate", "consumed"))).toHaveLength(1);
  });

  it("a session id is never a file name: the binding is its SHA-256", async () => {
    const k = kit();
    await start(k, ["--session", "../../etc/evil"]);
    expect(readdirSync(join(k.dir, "sessions"))).toEqual([sessionKey("../../etc/evil")]);
    expect(sessionKey("../../etc/evil")).toMatch(/^[0-9a-f]{64}$/);
    // One session, one run: a second start for the same live session is refused before the approval is used.
    const approval = await approvalOf(k, "b.json");
    const again = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "--session", "../../etc/evil"], { cwd: k.workspace });
    expect(again.code).toBe(1);
    expect(again.stdout).toMatch(/already has a run.*\[guard-failure\]/);
  });

  it.skipIf(!built)("two sessions run their own plans through one state directory; racing hook processes take each step exactly once", async () => {
    const a = kit();
    const b = approvalKit();
    const dir = a.dir;
    await start(a, ["--session", "session-A"]);
    const approvalB = join(b.root, "a.json");
    writeFileSync(approvalB, b.sign(await b.record()));
    const sb = await cli(["guard", "start", "plan.json", "--tools", b.toolsFile, "--approval", approvalB, "--state-dir", dir, "--trusted-keys", b.keys.publicFile, "--session", "session-B"], { cwd: b.workspace });
    expect(sb.code, sb.stdout).toBe(0);
    for (const step of PLAN) {
      const racers = [
        ...[0, 1, 2].map(() => hook(dir, input("session-A", a.workspace, step.tool, step.params))),
        ...[0, 1, 2].map(() => hook(dir, input("session-B", b.workspace, step.tool, step.params))),
      ];
      const codes = (await Promise.all(racers)).map((r) => r.code);
      expect(codes.slice(0, 3).filter((c) => c === 0)).toHaveLength(1);
      expect(codes.slice(3).filter((c) => c === 0)).toHaveLength(1);
      expect(codes.every((c) => c === 0 || c === 2)).toBe(true);
    }
    const status = await cli(["guard", "status", "--state-dir", dir, "-o", "json"]);
    const runs = JSON.parse(status.stdout).runs as { session: string; status: string; step: number; steps: number }[];
    expect(runs.map((r) => [r.session, r.status, r.step, r.steps]).sort()).toEqual([
      ["session-A", "complete", 3, 3],
      ["session-B", "complete", 3, 3],
    ]);
    for (const r of JSON.parse(status.stdout).runs as { run: string }[]) {
      const run = readRun(dir, r.run);
      const lines = readFileSync(run.audit, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      expect(lines.filter((l) => l.event === "allow").map((l) => l.step)).toEqual([1, 2, 3]);
      expect(lines.filter((l) => l.event === "deny")).toHaveLength(6);
    }
  }, 60_000);

  it("the first call of a session claims the oldest pending run in scope; same-age candidates are refused", async () => {
    const k = kit();
    const opts = async (at: string, name: string) => ({
      plan: k.planFile,
      approval: readFileSync(await approvalOf(k, name)),
      workspace: k.workspace,
      policyHash: DEFAULT_POLICY_HASH,
      tools: k.tools,
      trustedKeys: k.trustedKeys,
      now: () => new Date(at),
    });
    const newer = await startRun(k.dir, await opts("2026-11-22T12:05:00Z", "n.json"));
    const older = await startRun(k.dir, await opts("2026-11-22T12:01:00Z", "o.json"));
    // Claimed from a folder inside the scope; there the host reads the step's relative path as another file, so it is not taken.
    const first = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude"], { stdin: input("s1", join(k.workspace, "sub"), "read_file", PLAN[0]!.params) });
    expect(JSON.parse(first.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/"path" "in\.txt" is relative, .*\[path-outside-workspace\]$/);
    expect(readRun(k.dir, older.run_id)).toMatchObject({ session_id: "s1", status: "active", progress: { cursor: { index: 0, count: 0 } } });
    const again = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    expect(decisionOf(again.stdout)).toBe("allow");
    expect(readRun(k.dir, older.run_id)).toMatchObject({ session_id: "s1", status: "active", progress: { cursor: { index: 0, count: 1 } } });
    const second = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s2", k.workspace, "read_file", PLAN[0]!.params) });
    expect(second.code).toBe(0);
    expect(readRun(k.dir, newer.run_id).session_id).toBe("s2");
    // No pending run left, and a cwd outside every scope claims nothing: blocked (guard.noRun: block).
    const third = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s3", k.workspace, "read_file", PLAN[0]!.params) });
    expect([third.code, third.stderr]).toEqual([2, expect.stringMatching(/No run for this session.*\[guard-failure\]/)]);
    // Two pending runs of the same age: which one is meant cannot be decided.
    const t = kit();
    const same = async (name: string) => startRun(t.dir, { ...(await opts("2026-11-22T12:01:00Z", name)), workspace: t.workspace, plan: t.planFile, approval: readFileSync(await approvalOf(t, name)), trustedKeys: t.trustedKeys, tools: t.tools });
    await same("x.json");
    await same("y.json");
    const tie = await cli(["guard", "--state-dir", t.dir, "--no-policy"], { stdin: input("s1", t.workspace, "read_file", PLAN[0]!.params) });
    expect([tie.code, tie.stderr]).toEqual([2, expect.stringMatching(/started at the same time.*\[guard-failure\]/)]);
    expect(readdirSync(join(t.dir, "sessions"))).toEqual([]);
    // Outside the scope: no claim.
    const outside = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s9", k.root, "read_file", PLAN[0]!.params) });
    expect(outside.stderr).toMatch(/no pending run's scope holds/);
  });

  it.skipIf(!built)("sessions racing for one pending run: exactly one claims it, the others are denied and hold no binding", async () => {
    const k = kit();
    const { run } = await start(k);
    const results = await Promise.all(["s1", "s2", "s3", "s4"].map((s) => hook(k.dir, input(s, k.workspace, "read_file", PLAN[0]!.params))));
    expect(results.filter((r) => r.code === 0)).toHaveLength(1);
    expect(results.every((r) => r.code === 0 || r.code === 2)).toBe(true);
    const state = readRun(k.dir, run);
    const winner = ["s1", "s2", "s3", "s4"][results.findIndex((r) => r.code === 0)]!;
    expect(state.session_id).toBe(winner);
    expect(readdirSync(join(k.dir, "sessions"))).toEqual([sessionKey(winner)]);
    expect(state.progress.cursor).toEqual({ index: 0, count: 1 });
    // The same session racing with itself uses its one run: one of the two takes step 2.
    const again = await Promise.all([0, 1].map(() => hook(k.dir, input(winner, k.workspace, "write_file", PLAN[1]!.params))));
    expect(again.map((r) => r.code).sort()).toEqual([0, 2]);
  }, 40_000);

  it("guard status lists runs; guard stop ends one (audited), by id or by session", async () => {
    const k = kit();
    const one = await start(k, ["--session", "s1"], "1.json");
    const two = await start(k, [], "2.json");
    const text = await cli(["guard", "status", "--state-dir", k.dir]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`${one.run}  active    step 0 of 3  session "s1"  expires never  ${k.planFile}`);
    expect(text.stdout).toContain(`${two.run}  pending   step 0 of 3  session -`);
    expect((await cli(["guard", "stop", "--session", "s1", "--state-dir", k.dir, "--reason", "wrong plan"])).code).toBe(0);
    expect((await cli(["guard", "stop", two.run, "--state-dir", k.dir])).stdout).toBe(`run ${two.run} stopped\n`);
    const denied = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    expect([denied.code, denied.stderr]).toEqual([2, expect.stringMatching(/was stopped \(wrong plan\)/)]);
    const lines = readFileSync(readRun(k.dir, one.run).audit, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => l.event)).toEqual(["open", "stop", "deny"]);
    expect((await cli(["audit", "verify", readRun(k.dir, one.run).audit, "--chain-only"])).code).toBe(0);
    const json = JSON.parse((await cli(["guard", "status", "--state-dir", k.dir, "-o", "json"])).stdout);
    expect(json.runs.map((r: { status: string }) => r.status)).toEqual(["stopped", "stopped"]);
    // Usage errors: neither or both of RUN and --session, a run id that is not one (never a path).
    expect((await cli(["guard", "stop", "--state-dir", k.dir])).code).toBe(2);
    expect((await cli(["guard", "stop", "../../x", "--state-dir", k.dir])).stderr).toMatch(/not a run id/);
    expect((await cli(["guard", "status", "--state-dir", join(k.root, "empty")])).stdout).toMatch(/^no runs in/);
  });

  it("guard repair rolls a run forward when the audit lines past its anchor prove the decisions", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const file = join(k.dir, "runs", `${run}.json`);
    const call = (i: number) => cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s", k.workspace, PLAN[i]!.tool, PLAN[i]!.params) });
    expect((await call(0)).code).toBe(0);
    // A guard interrupted after its audit append and before its state write: the state is the one before.
    const before = join(k.root, "before.json");
    copyFileSync(file, before);
    expect((await call(1)).code).toBe(0);
    copyFileSync(before, file);
    const blocked = await call(2);
    expect([blocked.code, blocked.stderr]).toEqual([2, expect.stringMatching(new RegExp(`plangate guard repair ${run}`))]);
    const r = await cli(["guard", "repair", run, "--state-dir", k.dir]);
    expect([r.code, r.stdout]).toEqual([0, expect.stringMatching(/rolled forward: 1 audit line/)]);
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 1, count: 1 });
    expect((await call(2)).code).toBe(0);
    expect(readRun(k.dir, run).status).toBe("complete");
    expect((await cli(["guard", "repair", run, "--state-dir", k.dir])).stdout).toMatch(/nothing to repair/);
  });

  it.skipIf(!built)("hooks killed at any moment: repair leaves a run whose cursor is what its authenticated trail says, and no step twice", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const file = join(k.dir, "runs", `${run}.json`);
    const kills = [40, "trail", 190, "trail", 340, "trail", "trail", "trail"] as const;
    let step = 0;
    for (const when of kills) {
      if (step >= PLAN.length) break;
      // The host runs the hook for the next step and kills it after some ms, or as the trail changes.
      const trail = readRun(k.dir, run).audit;
      await hook(k.dir, input("s", k.workspace, PLAN[step]!.tool, PLAN[step]!.params), [], when === "trail" ? { killOnChange: trail } : { kill: when });
      const repair = await cli(["guard", "repair", run, "--state-dir", k.dir]);
      expect(repair.code, repair.stdout + repair.stderr).toBe(0);
      const state = readRun(k.dir, run);
      const lines = readFileSync(state.audit, "utf8").trim().split("\n").map((l) => JSON.parse(l));
      const allowed = lines.filter((l) => l.event === "allow").map((l) => l.step);
      expect(allowed).toEqual(PLAN.slice(0, allowed.length).map((_, i) => i + 1));
      expect(state.progress.cursor).toEqual(allowed.length === 0 ? { index: 0, count: 0 } : { index: allowed.length - 1, count: 1 });
      const v = await cli(["audit", "verify", state.audit, "--state", file]);
      expect(v.stdout).toMatch(/chain intact; authenticated/);
      step = allowed.length;
    }
    // Whatever was interrupted, the rest of the plan runs exactly once more.
    for (; step < PLAN.length; step++) expect((await hook(k.dir, input("s", k.workspace, PLAN[step]!.tool, PLAN[step]!.params))).code).toBe(0);
    expect(readRun(k.dir, run).status).toBe("complete");
  }, 60_000);

  it.skipIf(!built)("guard repair completes a run whose guard stopped between the last step's allow and the run's completion", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const file = join(k.dir, "runs", `${run}.json`);
    for (let i = 0; i < PLAN.length - 1; i++) expect((await hook(k.dir, input("s", k.workspace, PLAN[i]!.tool, PLAN[i]!.params))).code).toBe(0);
    const before = readFileSync(file);
    expect((await hook(k.dir, input("s", k.workspace, PLAN.at(-1)!.tool, PLAN.at(-1)!.params))).code).toBe(0);
    // As if killed after the allow line: the run as it was, the trail without its complete line.
    const trail = readRun(k.dir, run).audit;
    const lines = readFileSync(trail, "utf8").trimEnd().split("\n");
    expect(JSON.parse(lines.at(-1)!).event).toBe("complete");
    writeFileSync(trail, lines.slice(0, -1).join("\n") + "\n");
    writeFileSync(file, before);
    expect(readRun(k.dir, run).status).toBe("active");
    const repair = await cli(["guard", "repair", run, "--state-dir", k.dir, "-o", "json"]);
    expect(repair.code, repair.stdout + repair.stderr).toBe(0);
    expect(JSON.parse(repair.stdout)).toMatchObject({ ok: true, action: "rolled-forward", status: "complete" });
    expect(readRun(k.dir, run).status).toBe("complete");
    const v = await cli(["audit", "verify", trail, "--state", file]);
    expect(v.stdout).toMatch(/chain intact; authenticated/);
    expect(JSON.parse(readFileSync(trail, "utf8").trimEnd().split("\n").at(-1)!).event).toBe("complete");
  });

  it("guard repair marks a run broken and stops it when the trail past the anchor cannot be trusted", async () => {
    for (const damage of ["torn", "forged"] as const) {
      const k = kit();
      const { run } = await start(k, ["--session", "s"]);
      const state = readRun(k.dir, run);
      if (damage === "torn") appendFileSync(state.audit, '{"seq":1,"ts":"2026-11-22T12:00:00.000Z","event":"allo');
      else appendFileSync(state.audit, JSON.stringify({ seq: 1, ts: NOW.toISOString(), event: "allow", plan_hash: state.plan_hash, nonce: state.nonce, step: 3, cursor: { index: 2, count: 1 }, prev: state.audit_head.hash, mac: "hmac-sha256:" + "0".repeat(64) }) + "\n");
      const r = await cli(["guard", "repair", run, "--state-dir", k.dir, "-o", "json"]);
      expect(r.code).toBe(1);
      expect(JSON.parse(r.stdout)).toMatchObject({ ok: false, action: "broken", status: "stopped", step: 0 });
      expect(JSON.parse(r.stdout).detail).toMatch(damage === "torn" ? /torn line/ : /MAC/);
      const after = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s", k.workspace, "read_file", PLAN[0]!.params) });
      expect(after.code).toBe(2);
    }
  });

  it("the hook checks the trail's end only (size and last line), and refuses a changed end", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const call = (i: number) => cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s", k.workspace, PLAN[i]!.tool, PLAN[i]!.params) });
    expect((await call(0)).code).toBe(0);
    const audit = readRun(k.dir, run).audit;
    const text = readFileSync(audit, "utf8");
    // Same size, last line edited (a step number changed): refused, and the step is not taken.
    writeFileSync(audit, text.replace('"step":1,', '"step":9,'));
    const r = await call(1);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/ends in a line that is not the one the guard last wrote/)]);
    writeFileSync(audit, text);
    expect((await call(1)).code).toBe(0);
  });

  it("the run's guard.maxInputBytes (recorded at start) bounds the hook input", async () => {
    const k = kit();
    const policyFile = join(k.root, "small.yaml");
    writeFileSync(policyFile, "guard:\n  maxInputBytes: 400\n");
    const approve = await cli(["approve", "plan.json", "--tools", k.toolsFile, "--key", k.keys.privateFile, "--ttl", "never", "--policy", policyFile], { cwd: k.workspace });
    writeFileSync(join(k.root, "a.json"), approve.stdout);
    const s = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", join(k.root, "a.json"), "--policy", policyFile, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "--session", "s"], { cwd: k.workspace });
    expect(s.code, s.stdout).toBe(0);
    const big = JSON.stringify({ ...JSON.parse(input("s", k.workspace, "read_file", PLAN[0]!.params)), pad: "x".repeat(400) });
    const r = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: big });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/over the run's 400.*\[limit-exceeded\]/)]);
    expect((await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s", k.workspace, "read_file", PLAN[0]!.params) })).code).toBe(0);
  });

  it("a plan whose bytes changed is denied without re-parsing, even when only reformatted", async () => {
    const k = kit();
    await start(k, ["--session", "s"]);
    writeFileSync(k.planFile, JSON.stringify(PLAN));
    const r = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s", k.workspace, "read_file", PLAN[0]!.params) });
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(/not byte for byte the approved file.*\[approval-plan-mismatch\]/)]);
  });
});

describe("free tools and sessions without a run", () => {
  async function withPolicy(policy: string) {
    const k = kit();
    const policyFile = join(k.root, "policy.yaml");
    writeFileSync(policyFile, policy);
    writeFileSync(join(k.workspace, "notes.txt"), "n");
    return { ...k, policyFile };
  }
  const hookCli = (k: { dir: string; policyFile: string }, stdin: string, output = "claude") => cli(["guard", "--state-dir", k.dir, "--policy", k.policyFile, "--output", output], { stdin });
  /** Approves the plan under the kit's policy and starts a run of it for the session: the run's id. */
  async function approveAndStart(k: Awaited<ReturnType<typeof withPolicy>>, session: string): Promise<string> {
    const approve = await cli(["approve", "plan.json", "--tools", k.toolsFile, "--key", k.keys.privateFile, "--ttl", "never", "--policy", k.policyFile], { cwd: k.workspace });
    expect(approve.code, approve.stdout).toBe(0);
    writeFileSync(join(k.root, "a.json"), approve.stdout);
    const s = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", join(k.root, "a.json"), "--policy", k.policyFile, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "--session", session, "-o", "json"], { cwd: k.workspace });
    expect(s.code, s.stdout).toBe(0);
    return JSON.parse(s.stdout).results[0].run as string;
  }

  it("guard.noRun: block (the default) denies; ask asks in claude mode and blocks in exit mode", async () => {
    const blockK = await withPolicy("guard:\n  free: [read_file]\n");
    expect(decisionOf((await hookCli(blockK, input("s", blockK.workspace, "read_file", { path: "notes.txt" }))).stdout)).toBe("deny");
    const askK = await withPolicy("guard:\n  noRun: ask\n");
    const asked = await hookCli(askK, input("s", askK.workspace, "write_file", { path: "x", content: "y" }));
    expect(JSON.parse(asked.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "ask", permissionDecisionReason: expect.stringMatching(/no approved run for this session/) } });
    const exitMode = await hookCli(askK, input("s", askK.workspace, "write_file", { path: "x", content: "y" }), "exit");
    expect([exitMode.code, exitMode.stderr]).toEqual([2, expect.stringMatching(/cannot ask/)]);
  });

  it("guard.noRun: allow-free allows only the free tools, path-scoped, each call audited", async () => {
    const k = await withPolicy("workspace: ws\nguard:\n  noRun: allow-free\n  free: [read_file, Read]\n");
    expect(decisionOf((await hookCli(k, input("s", k.workspace, "read_file", { path: "notes.txt" }))).stdout)).toBe("allow");
    const passwd = await hookCli(k, input("s", k.workspace, "read_file", { path: "/etc/passwd" }));
    expect(JSON.parse(passwd.stdout).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/\[path-outside-workspace\]$/) });
    expect(decisionOf((await hookCli(k, input("s", k.workspace, "Read", { file_path: "/etc/passwd" }))).stdout)).toBe("deny");
    expect(decisionOf((await hookCli(k, input("s", k.workspace, "write_file", { path: "notes.txt", content: "x" }))).stdout)).toBe("deny");
    const log = join(k.dir, "audit", `no-run-${sessionKey("s")}.jsonl`);
    const lines = readFileSync(log, "utf8").trim().split("\n").map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.event, l.tool, l.rule])).toEqual([
      ["free", "read_file", undefined],
      ["deny", "read_file", "path-outside-workspace"],
      ["deny", "Read", "path-outside-workspace"],
    ]);
    expect((await cli(["audit", "verify", log, "--chain-only"])).code).toBe(0);
  });

  it("in a run, a free tool runs without a step (cursor unmoved) but never outside the workspace", async () => {
    const k = await withPolicy("guard:\n  free: [read_file]\n");
    const run = await approveAndStart(k, "s");
    expect(readRun(k.dir, run).free).toEqual(["read_file"]);
    const h = (tool: string, args: unknown) => hookCli(k, input("s", k.workspace, tool, args));
    expect(decisionOf((await h("read_file", { path: "notes.txt" })).stdout)).toBe("allow");
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 0 });
    const passwd = await h("read_file", { path: "/etc/passwd" });
    expect(JSON.parse(passwd.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/\[path-outside-workspace\]$/);
    // The approved steps still run in order (a free call that is the next step is taken as that step).
    for (const step of PLAN) expect(decisionOf((await h(step.tool, step.params)).stdout)).toBe("allow");
    expect(readRun(k.dir, run).status).toBe("complete");
    const events = readFileSync(readRun(k.dir, run).audit, "utf8").trim().split("\n").map((l) => JSON.parse(l).event);
    expect(events).toEqual(["open", "free", "deny", "allow", "allow", "allow", "complete"]);
  });

  it("a session working in another folder: a relative path or a command line of a tool the host profile does not describe is refused, with a run and without", async () => {
    const k = await withPolicy("workspace: ws\ncommands:\n  allow: [cat]\nguard:\n  noRun: allow-free\n  free: [read_file]\n");
    const reason = async (session: string, cwd: string, tool: string, args: unknown) => JSON.parse((await hookCli(k, input(session, cwd, tool, args))).stdout).hookSpecificOutput as { permissionDecision: string; permissionDecisionReason: string };
    // No run, the generic profile (no host in the policy): the host reads `passwd` and runs `cat passwd` in /etc.
    expect(await reason("s", "/etc", "read_file", { path: "passwd" })).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/"path" "passwd" is relative, and the host resolves it against its working folder, which is "\/etc", outside .*\[path-outside-workspace\]$/) });
    expect(await reason("s", "/etc", "Bash", { command: "cat passwd" })).toMatchObject({ permissionDecision: "deny" });
    expect(await reason("s", "/etc", "read_file", { options: { path: "./passwd" } })).toMatchObject({ permissionDecision: "deny" });
    // An absolute path means the same file wherever the host works; in the workspace, a relative one does too.
    expect((await reason("s", "/etc", "read_file", { path: join(k.workspace, "notes.txt") })).permissionDecision).toBe("allow");
    expect((await reason("s", k.workspace, "read_file", { path: "notes.txt" })).permissionDecision).toBe("allow");
    // Bash cannot be free (it runs commands): with no run it is blocked wherever the host works.
    expect((await reason("s", k.workspace, "Bash", { command: "cat notes.txt" })).permissionDecision).toBe("deny");
    // In a run: the approved step, called from a folder inside the workspace, is another file to the host; not taken.
    const run = await approveAndStart(k, "r");
    const sub = join(k.workspace, "sub");
    expect(await reason("r", sub, PLAN[0]!.tool, PLAN[0]!.params)).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/"path" "in\.txt" is relative, .* a folder inside the approved scope .*\[path-outside-workspace\]$/) });
    expect(await reason("r", "/etc", "Bash", { command: "cat passwd" })).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/"command" "cat passwd" runs in the host's working folder, which is "\/etc".*\[path-outside-workspace\]$/) });
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 0 });
    expect((await reason("r", k.workspace, PLAN[0]!.tool, PLAN[0]!.params)).permissionDecision).toBe("allow");
  });
});

describe("the runs' policy keys", () => {
  it.each([
    ["guard:\n  noRun: maybe\n", /p\.yaml:2:\d+: guard\.noRun must be one of/],
    ["guard:\n  free: Read\n", /p\.yaml:2:\d+: guard\.free/],
    ["guard:\n  free: [\"\"]\n", /p\.yaml:2:\d+: guard\.free\.0/],
    ["guard:\n  stateDir: 3\n", /p\.yaml:2:\d+: guard\.stateDir/],
    // A free tool runs with no approved step: a writer, in any spelling, or a tool nothing says reads.
    ["host: claude-code\nguard:\n  free: [Read, Write]\n", /p\.yaml:3:\d+: guard\.free: "Write" cannot be free: the claude-code profile's "Write" writes files/],
    ["host: claude-code\nguard:\n  free:\n    - Bash\n", /p\.yaml:4:7: guard\.free: "Bash" cannot be free/],
    ["host: claude-code\ntools:\n  read: [Edit]\nguard:\n  free: [Edit]\n", /guard\.free: "Edit" cannot be free/],
    ["host: claude-code\nguard:\n  free: [read]\n", /guard\.free: "read" is spelt like the claude-code profile's tool "Read"/],
    ["guard:\n  free: [bash]\n", /p\.yaml:2:\d+: guard\.free: "bash" cannot be free: a tool of that name writes/],
    ["guard:\n  free: [mcp__github__create_issue]\n", /guard\.free: "mcp__github__create_issue" cannot be free: nothing says it only reads/],
  ])("%j is a usage error naming the key", async (text, message) => {
    const k = kit();
    writeFileSync(join(k.root, "p.yaml"), text);
    const r = await cli(["guard", "status", "--policy", join(k.root, "p.yaml")]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  });
  it("guard.free is read with the host profile the run starts with: --host claude-code refuses a tool its profile does not call read-only", async () => {
    const k = kit();
    const policyFile = join(k.root, "p.yaml");
    // Under the policy's own (generic) profile WebFetch is a default reader; Claude Code's WebFetch reaches out.
    writeFileSync(policyFile, "guard:\n  free: [WebFetch]\n");
    const approve = await cli(["approve", "plan.json", "--tools", k.toolsFile, "--key", k.keys.privateFile, "--ttl", "never", "--policy", policyFile], { cwd: k.workspace });
    expect(approve.code, approve.stderr).toBe(0);
    writeFileSync(join(k.root, "a.json"), approve.stdout);
    const s = await cli(["guard", "start", "plan.json", "--host", "claude-code", "--tools", k.toolsFile, "--approval", join(k.root, "a.json"), "--policy", policyFile, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "--session", "s"], { cwd: k.workspace });
    expect([s.code, s.stderr]).toEqual([2, expect.stringMatching(/guard\.free: "WebFetch" cannot be free: the claude-code profile's "WebFetch"/)]);
  });
  it("guard.stateDir is relative to the policy file", async () => {
    const k = kit();
    writeFileSync(join(k.root, "p.yaml"), "guard:\n  stateDir: st\n");
    const r = await cli(["guard", "status", "--policy", join(k.root, "p.yaml")]);
    expect(r.stdout).toBe(`no runs in ${join(k.root, "st")}\n`);
  });
});

describe("--output claude", () => {
  it("golden answers: allow, deny, ask for a step that asks to be confirmed (exit mode blocks it and takes no step)", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const h = (i: unknown, output = "claude") => cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", output], { stdin: typeof i === "string" ? i : JSON.stringify(i) });
    const allow = await h(JSON.parse(input("s", k.workspace, "read_file", PLAN[0]!.params)));
    expect([allow.code, allow.stdout, allow.stderr]).toEqual([0, '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"plangate: Step 1 of the approved plan."}}\n', ""]);
    const deny = await h(JSON.parse(input("s", k.workspace, "write_file", { path: "out.txt", content: "evil" })));
    expect(deny.code).toBe(0);
    expect(deny.stdout).toBe(
      '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"plangate: Step 2: the \\"write_file\\" call differs from the approved one in \\"content\\" (content: expected \\"ok\\", got \\"evil\\"). (run exactly the approved step, or approve a new plan) [guard-step-mismatch]"}}\n',
    );
    // A step compiled with confirm: true (as host profiles compile `confirm: true` steps).
    const calls = join(k.dir, "runs", `${run}.calls`);
    const lines = readFileSync(calls, "utf8").split("\n");
    lines[1] = lines[1]!.replace('"confirm":false', '"confirm":true ');
    writeFileSync(calls, lines.join("\n"));
    const exitMode = await h(JSON.parse(input("s", k.workspace, "write_file", PLAN[1]!.params)), "exit");
    expect([exitMode.code, exitMode.stderr]).toEqual([2, expect.stringMatching(/Step 2 asks the person to confirm it.*\[guard-failure\]/)]);
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 0, count: 1 });
    const ask = await h(JSON.parse(input("s", k.workspace, "write_file", PLAN[1]!.params)));
    expect(ask.stdout).toBe('{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"plangate: Step 2 of the approved plan asks for your confirmation."}}\n');
    expect(readRun(k.dir, run).progress.cursor).toEqual({ index: 1, count: 1 });
    // Bad input and a missing session are denies in JSON, exit 0.
    const bad = await h("{oops");
    expect([bad.code, decisionOf(bad.stdout)]).toEqual([0, "deny"]);
    const noSession = await h(JSON.parse(input(undefined, k.workspace, "read_file", PLAN[2]!.params)));
    expect(JSON.parse(noSession.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/no session_id/);
    // Other events: a PermissionRequest is denied in its own JSON form; a SubagentStop of an agent that never started is reported, not blocked.
    const perm = await h({ session_id: "s", cwd: k.workspace, hook_event_name: "PermissionRequest", tool_name: "Bash", tool_input: { command: "ls" } });
    expect(JSON.parse(perm.stdout)).toEqual({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: expect.stringMatching(/does not grant permission requests/) } } });
    const stop = await h({ session_id: "s", cwd: k.workspace, hook_event_name: "SubagentStop", agent_id: "a" });
    expect([stop.code, stop.stdout, stop.stderr]).toEqual([0, "", expect.stringMatching(/SubagentStop: .*\[guard-step-mismatch\]/)]);
    // A PostToolUse of a call the guard allowed passes; of one it did not allow, it is blocked and stops the run.
    const ran = await h({ session_id: "s", cwd: k.workspace, hook_event_name: "PostToolUse", tool_name: "write_file", tool_input: PLAN[1]!.params, tool_response: {} });
    expect([ran.code, ran.stdout]).toEqual([0, ""]);
    const post = await h({ session_id: "s", cwd: k.workspace, hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: {} });
    expect([post.code, JSON.parse(post.stdout)]).toEqual([0, { decision: "block", reason: expect.stringMatching(/The "Bash" call that ran \(PostToolUse\) is not a call the guard allowed.*\[guard-failure\]/) }]);
    expect(readRun(k.dir, run).status).toBe("stopped");
  });

  const FAIL_STDIN = 'data:text/javascript,Object.defineProperty(process.stdin,Symbol.asyncIterator,{value:async function*(){throw new Error("stdin exploded")}})';
  it.skipIf(!built)("an internal failure, a timeout or a lock prints a deny and exits 0; a killed hook never reads as allow", async () => {
    const k = kit();
    const { run } = await start(k, ["--session", "s"]);
    const crashed = await new Promise<{ code: number | null; stdout: string }>((done) => {
      const p = spawn(process.execPath, ["--import", FAIL_STDIN, bin, "guard", "--state-dir", k.dir, "--output", "claude"], { stdio: ["ignore", "pipe", "ignore"] });
      let stdout = "";
      p.stdout.on("data", (c) => (stdout += c));
      p.on("close", (code) => done({ code, stdout }));
    });
    expect([crashed.code, decisionOf(crashed.stdout)]).toEqual([0, "deny"]);
    const timedOut = await hook(k.dir, undefined, ["--output", "claude", "--timeout", "300"]);
    expect([timedOut.code, decisionOf(timedOut.stdout)]).toEqual([0, "deny"]);
    // A lock left by a crashed guard: denied, not waited on forever.
    writeFileSync(join(k.dir, "runs", `${run}.json.lock`), "1");
    const locked = await hook(k.dir, input("s", k.workspace, "read_file", PLAN[0]!.params), ["--output", "claude"]);
    expect([locked.code, decisionOf(locked.stdout)]).toEqual([0, "deny"]);
    expect(JSON.parse(locked.stdout).hookSpecificOutput.permissionDecisionReason).toMatch(/locked/);
    // Killed while it waits for its input: no exit 0, and nothing on stdout that reads as allow.
    for (const output of ["claude", "exit"]) {
      const killed = await hook(k.dir, undefined, ["--output", output], { kill: 400 });
      expect(killed.code).not.toBe(0);
      expect(killed.signal).toBe("SIGKILL");
      expect(killed.stdout).not.toMatch(/allow/);
    }
    mkdirSync(join(k.root, "unused"));
  }, 30_000);
});

// A --timeout a timer cannot keep (past 2^31-1 ms, Node fires it at once) is refused as such, not read as a timeout.
describe("the hook's --timeout", () => {
  it.each([
    ["0", true],
    ["-1", true],
    ["1.5", true],
    ["5s", true],
    ["2147483648", true],
    ["99999999999", true],
    ["2147483647", false],
    ["5000", false],
  ])("--timeout %s: refused as a bad timeout: %s", async (value, bad) => {
    const k = kit();
    const r = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude", "--timeout", value], { stdin: input("s", k.workspace, "read_file", PLAN[0]!.params) });
    expect(r.code).toBe(0);
    const answer = JSON.parse(r.stdout).hookSpecificOutput;
    // Without a run every call is denied; what matters is why.
    expect(answer.permissionDecision).toBe("deny");
    if (bad) expect(answer.permissionDecisionReason).toMatch(/--timeout must be a positive whole number of milliseconds up to 2147483647.*\[guard-failure\]/);
    else expect(answer.permissionDecisionReason).toMatch(/No run for this session/);
  });
});

// A session with no run claims the oldest pending run of its folder: with a run that cannot be read, which
// one that is cannot be known, and the claim is refused rather than guessed.
describe("claiming a run beside one that cannot be read", () => {
  it.each([
    ["not JSON", "{oops"],
    ["not a run", '{"calls": 1}'],
    ["empty", ""],
  ])("a run file that is %s: the session's first call is denied (guard-failure), and claims the run once it is gone", async (_name, damage) => {
    const k = kit();
    const first = await start(k, [], "a.json");
    const second = await start(k, [], "b.json");
    writeFileSync(join(k.dir, "runs", `${first.run}.json`), damage);
    const denied = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    const answer = JSON.parse(denied.stdout).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toMatch(/No run can be claimed for this session: 1 run file\(s\) of the state directory cannot be read.*\[guard-failure\]/);
    expect(readRun(k.dir, second.run).session_id).toBeNull();
    const exit = await cli(["guard", "--state-dir", k.dir, "--no-policy"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    expect([exit.code, exit.stderr]).toEqual([2, expect.stringMatching(/cannot be read/)]);
    // The damaged run removed, the claim is made as before: the remaining pending run is the session's.
    rmSync(join(k.dir, "runs", `${first.run}.json`));
    const allowed = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    expect(JSON.parse(allowed.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
    expect(readRun(k.dir, second.run).session_id).toBe("s1");
  });

  it("a session already bound to its run is not held up by another run that cannot be read", async () => {
    const k = kit();
    const mine = await start(k, ["--session", "s1"], "a.json");
    const other = await start(k, [], "b.json");
    writeFileSync(join(k.dir, "runs", `${other.run}.json`), "{oops");
    const r = await cli(["guard", "--state-dir", k.dir, "--no-policy", "--output", "claude"], { stdin: input("s1", k.workspace, "read_file", PLAN[0]!.params) });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("allow");
    expect(readRun(k.dir, mine.run).progress.cursor).not.toEqual({ index: 0, count: 0 });
  });
});
