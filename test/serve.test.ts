import { spawn } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { basename, join } from "node:path";
import { sha256Hex } from "../src/core/canonical/jcs.js";
import { StoreUnavailableError } from "../src/store/errors.js";
import { FileStore } from "../src/store/file.js";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";
import type { CliIO } from "../src/cli/io.js";
import { resolveSetup } from "../src/cli/setup.js";
import { loadPolicy } from "../src/node/policy.js";
import { createService, type Service } from "../src/service/server.js";
import { loadSigner } from "../src/node/sign.js";
import { approvalKit, PLAN } from "./approval-kit.js";
import { cli } from "./cli-io.js";
import { NOW } from "./helpers.js";

const bin = join(import.meta.dirname, "../bin/plangate.js");
const built = existsSync(join(import.meta.dirname, "../dist/cli/main.js"));

type Kit = ReturnType<typeof approvalKit> & { dir: string; policy: string };

/** A kit with a state directory and a policy file (tools for plan mode) beside its workspace. */
function kit(): Kit {
  const k = approvalKit();
  // Outside the workspace's parents: `guard start` (which discovers a policy walking up) must not find it.
  mkdirSync(join(k.root, "cfg"));
  const policy = join(k.root, "cfg", "plangate.yaml");
  writeFileSync(policy, "tools:\n  allow: [read_file, write_file]\n");
  return { ...k, dir: join(k.root, "state"), policy };
}

async function startRun(k: Kit, extra: string[] = []): Promise<string> {
  const approval = join(k.root, "a.json");
  writeFileSync(approval, k.sign(await k.record()));
  const r = await cli(["guard", "start", "plan.json", "--tools", k.toolsFile, "--approval", approval, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile, "-o", "json", ...extra], { cwd: k.workspace });
  expect(r.code, r.stdout + r.stderr).toBe(0);
  return (JSON.parse(r.stdout) as { results: { run: string }[] }).results[0]!.run;
}

const services: Service[] = [];
afterAll(async () => {
  for (const s of services) await s.close();
});

/** The service as `plangate serve --policy P --state-dir D` builds it, on a free loopback port, with the fixed clock. */
async function serve(k: { workspace: string; dir: string; policy?: string | false }, over: Partial<Parameters<typeof createService>[0]> = {}): Promise<{ url: string; service: Service }> {
  const file = k.policy ?? false;
  const io = { cwd: k.workspace, env: {}, now: () => NOW } as unknown as CliIO;
  const loaded = await loadPolicy({ file, cwd: k.workspace });
  const setup = await resolveSetup({ policy: file }, io);
  mkdirSync(k.dir, { recursive: true, mode: 0o700 });
  const service = createService({ loaded, setup, stateDir: k.dir, trustedKeys: [], cwd: k.workspace, env: {}, now: () => NOW, log: () => undefined, ...over });
  services.push(service);
  const addr = await service.listen("127.0.0.1", 0);
  return { url: `http://127.0.0.1:${addr.port}`, service };
}

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One real HTTP request on loopback (node:http: the headers are exactly those given). */
function call(url: string, path: string, body?: string | Buffer, opts: { method?: string; headers?: Record<string, string> } = {}): Promise<Reply> {
  return new Promise((done, fail) => {
    const req = request(url + path, { method: opts.method ?? (body === undefined ? "GET" : "POST"), headers: { ...(body !== undefined ? { "content-type": "application/json" } : {}), ...opts.headers } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (c) => (text += c));
      res.on("end", () => done({ status: res.statusCode!, headers: res.headers, body: text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}

const hookInput = (session: string | undefined, cwd: string, tool: string, args: unknown, event = "PreToolUse", extra: Record<string, unknown> = {}) =>
  JSON.stringify({ session_id: session, transcript_path: "/t", cwd, hook_event_name: event, tool_name: tool, tool_input: args, ...extra });

const decision = (body: string): string | undefined => {
  if (body === "") return "none";
  const o = JSON.parse(body);
  return o.hookSpecificOutput?.permissionDecision ?? o.hookSpecificOutput?.decision?.behavior ?? o.decision ?? (o.systemMessage ? "message" : undefined);
};

/** The kit's plan as an intake plan (plan mode's enforceable form). */
const INTAKE = PLAN.map((s) => ({ tool: s.tool, arguments: s.params, intent: s.description }));

const intakeMarkdown = (steps: unknown) => `# Summarise\n\nRead the input, write the summary, check it.\n\n\`\`\`json\n${JSON.stringify({ steps }, null, 2)}\n\`\`\`\n`;

/** The hook payloads of a session, in order, for a kit (each kit has its own paths). */
function sequence(k: Kit): { name: string; body: string | Buffer }[] {
  const ws = k.workspace;
  const step = (i: number) => hookInput("s1", ws, PLAN[i]!.tool, PLAN[i]!.params);
  return [
    { name: "step 1", body: step(0) },
    { name: "step 3 out of order", body: step(2) },
    { name: "subagent start", body: JSON.stringify({ session_id: "s1", cwd: ws, hook_event_name: "SubagentStart", agent_id: "a1", agent_type: "Explore" }) },
    { name: "subagent stop", body: JSON.stringify({ session_id: "s1", cwd: ws, hook_event_name: "SubagentStop", agent_id: "a1", agent_type: "Explore" }) },
    { name: "step 2", body: step(1) },
    { name: "permission request", body: hookInput("s1", ws, "Bash", { command: "ls" }, "PermissionRequest") },
    { name: "post tool use of step 2 as allowed", body: hookInput("s1", ws, PLAN[1]!.tool, PLAN[1]!.params, "PostToolUse", { tool_response: {} }) },
    { name: "unknown event", body: JSON.stringify({ session_id: "s1", cwd: ws, hook_event_name: "TeammateIdle" }) },
    { name: "an event that runs no tool", body: JSON.stringify({ session_id: "s1", cwd: ws, hook_event_name: "Stop", stop_hook_active: false }) },
    { name: "step 3", body: step(2) },
    { name: "after the last step", body: step(0) },
    { name: "post tool use of a call the guard did not allow", body: hookInput("s1", ws, "Bash", { command: "ls" }, "PostToolUse", { tool_response: {} }) },
    { name: "a session without a run", body: hookInput("s2", ws, "read_file", { path: "in.txt" }) },
    { name: "no session id", body: hookInput(undefined, ws, "read_file", { path: "in.txt" }) },
    { name: "plan mode: an unconstrained plan", body: hookInput("s3", ws, "ExitPlanMode", { plan: intakeMarkdown([{ tool: "Bash", intent: "clean up", arguments: { command: "rm -rf /" } }]) }) },
    { name: "plan mode: no plan at all", body: hookInput("s3", ws, "ExitPlanMode", { plan: "just do it" }, "PermissionRequest") },
    { name: "plan mode: a valid plan", body: hookInput("s3", ws, "ExitPlanMode", { plan: intakeMarkdown(INTAKE) }) },
    { name: "plan mode: accepted (pending)", body: hookInput("s3", ws, "ExitPlanMode", { plan: intakeMarkdown(INTAKE) }, "PostToolUse", { tool_response: {} }) },
    { name: "not JSON", body: "{not json" },
    { name: "a JSON array", body: "[1, 2]" },
    { name: "a duplicate key", body: `{"session_id": "s1", "session_id": "s9", "cwd": ${JSON.stringify(ws)}, "tool_name": "read_file", "tool_input": {}}` },
    { name: "not UTF-8", body: Buffer.from([0x7b, 0xff, 0xfe, 0x7d]) },
    { name: "a relative cwd", body: hookInput("s1", "relative/dir", "read_file", {}) },
    { name: "empty", body: "" },
    { name: "over guard.maxInputBytes", body: hookInput("s1", ws, "write_file", { path: "out.txt", content: "x".repeat(1024 * 1024) }) },
  ];
}

/** Paths and run ids differ between two kits; everything else must not. */
function normal(text: string, k: Kit): string {
  return text.split(k.root).join("<root>").replace(/[0-9a-f]{32}/g, "<run>");
}

describe("plangate serve: the Claude Code hook endpoint", () => {
  it("answers a session's hook payloads exactly as `plangate guard --output claude` does", async () => {
    const viaHttp = kit();
    const viaCli = kit();
    await startRun(viaHttp);
    await startRun(viaCli);
    const { url } = await serve(viaHttp);
    const http = sequence(viaHttp);
    const command = sequence(viaCli);
    const got: string[] = [];
    for (let i = 0; i < http.length; i++) {
      const h = await call(url, "/v1/hooks/claude-code", http[i]!.body);
      const c = await cli(["guard", "--state-dir", viaCli.dir, "--policy", viaCli.policy, "--output", "claude"], { cwd: viaCli.workspace, stdin: command[i]!.body });
      expect(c.code, c.stderr).toBe(0);
      expect(h.status, http[i]!.name).toBe(200);
      expect(h.headers["content-type"]).toBe("application/json");
      expect(normal(h.body, viaHttp), http[i]!.name).toBe(normal(c.stdout, viaCli));
      got.push(`${http[i]!.name}: ${decision(h.body)}`);
    }
    // The answers are decisions, not the same failure twice: each as the run and the rules say.
    expect(got).toEqual([
      "step 1: allow",
      "step 3 out of order: deny",
      "subagent start: none",
      "subagent stop: none",
      "step 2: allow",
      "permission request: deny",
      "post tool use of step 2 as allowed: none",
      "unknown event: block",
      "an event that runs no tool: none",
      "step 3: allow",
      "after the last step: deny",
      "post tool use of a call the guard did not allow: block",
      "a session without a run: deny",
      "no session id: deny",
      "plan mode: an unconstrained plan: deny",
      "plan mode: no plan at all: deny",
      "plan mode: a valid plan: none",
      "plan mode: accepted (pending): message",
      "not JSON: deny",
      "a JSON array: deny",
      "a duplicate key: deny",
      "not UTF-8: deny",
      "a relative cwd: deny",
      "empty: deny",
      "over guard.maxInputBytes: deny",
    ]);
    // The accepted plan was recorded as pending in the server's state directory, as the command hook does.
    expect(existsSync(join(viaHttp.dir, "pending"))).toBe(true);
  }, 60_000);

  it.skipIf(!built)("answers as the real command hook process does (bin/plangate.js guard)", async () => {
    const k = kit();
    const { url } = await serve(k);
    for (const body of ["{oops", hookInput("nobody", k.workspace, "read_file", { path: "in.txt" })]) {
      const proc = await new Promise<{ code: number | null; stdout: string }>((done) => {
        const p = spawn(process.execPath, [bin, "guard", "--state-dir", k.dir, "--policy", k.policy, "--output", "claude"], { cwd: k.workspace });
        let stdout = "";
        p.stdout.on("data", (c) => (stdout += c));
        p.on("close", (code) => done({ code, stdout }));
        p.stdin.end(body);
      });
      const h = await call(url, "/v1/hooks/claude-code", body);
      expect(proc.code).toBe(0);
      expect(h.body).toBe(proc.stdout);
      expect(decision(h.body)).toBe("deny");
    }
  }, 30_000);

  it("every bad request on the hook route is HTTP 200 with a deny; the body is bounded", async () => {
    const k = kit();
    const { url } = await serve(k, { loaded: { ...(await loadPolicy({ file: k.policy, cwd: k.workspace })), policy: { ...(await loadPolicy({ file: k.policy, cwd: k.workspace })).policy, guard: { maxInputBytes: 1000, noRun: "block", free: [] } } } });
    const deny = async (body: string | Buffer, headers: Record<string, string> = {}, rule?: RegExp) => {
      const r = await call(url, "/v1/hooks/claude-code", body, { headers });
      expect(r.status).toBe(200);
      const o = JSON.parse(r.body);
      expect(o.hookSpecificOutput.permissionDecision).toBe("deny");
      if (rule) expect(o.hookSpecificOutput.permissionDecisionReason).toMatch(rule);
    };
    await deny("x".repeat(5000), {}, /over 1000 bytes.*\[limit-exceeded\]/);
    // A body larger than declared is cut at the limit too, and one declared too large is not read at all.
    await deny(Buffer.alloc(200_000, 0x20), {}, /\[limit-exceeded\]/);
    await deny(hookInput("s", k.workspace, "read_file", {}), { "content-type": "text/plain" }, /Content-Type "text\/plain" is not application\/json \[parse-error\]/);
    await deny(hookInput("s", k.workspace, "read_file", {}), { "content-type": "application/x-www-form-urlencoded" }, /\[parse-error\]/);
    await deny("{}", {}, /has no tool_name \[guard-failure\]/);
    // A browser page (Origin) and a DNS-rebound name (a foreign Host) are refused, and the refusal is a deny.
    await deny(hookInput("s", k.workspace, "read_file", {}), { origin: "https://evil.example" }, /Origin header.*\[guard-failure\]/);
    await deny(hookInput("s", k.workspace, "read_file", {}), { host: "evil.example:8790" }, /not a loopback name.*\[guard-failure\]/);
    // Only POST is a hook; other routes are not found.
    expect((await call(url, "/v1/hooks/claude-code")).status).toBe(405);
    expect((await call(url, "/nope")).status).toBe(404);
  });

  it("parallel calls of one session are decided one after the other, none refused for the lock", async () => {
    const k = kit();
    await startRun(k, ["--session", "s1"]);
    const { url } = await serve(k);
    // Claude Code runs parallel tool calls' hooks at once: three copies of step 1 and step 2, together.
    const bodies = [0, 0, 0, 1].map((i) => hookInput("s1", k.workspace, PLAN[i]!.tool, PLAN[i]!.params));
    // The run is held (as by a `guard` process) while they arrive, and released 200 ms later: every
    // call waits for it without stopping the server (this test runs in the server's own process).
    const lock = join(k.dir, "runs", `${JSON.parse((await cli(["guard", "status", "--state-dir", k.dir, "-o", "json"])).stdout).runs[0].run}.json.lock`);
    writeFileSync(lock, String(process.pid));
    setTimeout(() => rmSync(lock), 200);
    const answers = (await Promise.all(bodies.map((b) => call(url, "/v1/hooks/claude-code", b)))).map((r) => JSON.parse(r.body).hookSpecificOutput);
    expect(answers.map((a) => a.permissionDecisionReason).join("\n")).not.toMatch(/locked/);
    expect(answers.slice(0, 3).filter((a) => a.permissionDecision === "allow")).toHaveLength(1);
    const run = JSON.parse((await cli(["guard", "status", "--state-dir", k.dir, "-o", "json"])).stdout).runs[0];
    const allowed = answers.filter((a) => a.permissionDecision === "allow").length;
    expect(run.step).toBe(allowed);
  });

  it("a hook input that does not arrive in time is a deny, as is a run left locked", async () => {
    const k = kit();
    const run = await startRun(k, ["--session", "s1"]);
    const { url } = await serve(k, { hookTimeoutMs: 300 });
    // Half a body, then nothing: the decision's deadline answers.
    const stalled = await new Promise<string>((done, fail) => {
      const req = request(url + "/v1/hooks/claude-code", { method: "POST", headers: { "content-type": "application/json", "content-length": "100" } }, (res) => {
        let text = "";
        res.on("data", (c) => (text += c));
        res.on("end", () => done(text));
      });
      req.on("error", fail);
      req.write('{"session_id": "s1", ');
    });
    expect(JSON.parse(stalled).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/no decision within 300 ms \[guard-failure\]/) });
    writeFileSync(join(k.dir, "runs", `${run}.json.lock`), "1");
    // Waiting for the lock does not hold the server: the deadline still answers, and so does health.
    const body = hookInput("s1", k.workspace, PLAN[0]!.tool, PLAN[0]!.params);
    const [waiting, health] = await Promise.all([call(url, "/v1/hooks/claude-code", body), call(url, "/healthz")]);
    expect(JSON.parse(waiting.body).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/no decision within 300 ms/) });
    expect(health.status).toBe(200);
    // With the default deadline, the lock's own (3 s) answers first.
    const { url: patient } = await serve(k);
    const locked = await call(patient, "/v1/hooks/claude-code", body);
    expect(JSON.parse(locked.body).hookSpecificOutput).toMatchObject({ permissionDecision: "deny", permissionDecisionReason: expect.stringMatching(/locked/) });
  });
});

describe("plangate serve: the bearer token", () => {
  const token = "t".repeat(16) + "0123456789abcdef0123";
  it("is required on every route when set, compared whole; the hook route still answers a deny", async () => {
    const k = kit();
    const { url, service } = await serve(k, { token });
    for (const auth of [undefined, "Bearer wrong", `Bearer ${token}x`, `Bearer ${token.slice(0, -1)}`, token, `Basic ${token}`]) {
      const headers: Record<string, string> = auth === undefined ? {} : { authorization: auth };
      const h = await call(url, "/healthz", undefined, { headers });
      expect([h.status, h.headers["www-authenticate"]]).toEqual([401, "Bearer"]);
      expect(JSON.parse(h.body)).toEqual({ version: 1, error: { code: "unauthorized", message: expect.stringMatching(/bearer token is required/) } });
      const v = await call(url, "/v1/hash", JSON.stringify({ text: "[]", file: "plan.json" }), { headers });
      expect(v.status).toBe(401);
      const hook = await call(url, "/v1/hooks/claude-code", hookInput("s", k.workspace, "read_file", {}), { headers });
      expect([hook.status, JSON.parse(hook.body).hookSpecificOutput.permissionDecision]).toEqual([200, "deny"]);
    }
    const ok = { authorization: `Bearer ${token}` };
    expect((await call(url, "/healthz", undefined, { headers: ok })).status).toBe(200);
    // With the token, the Host may be any name (a proxy's), but never a browser's Origin.
    expect((await call(url, "/healthz", undefined, { headers: { ...ok, host: "plangate.internal:443" } })).status).toBe(200);
    expect((await call(url, "/healthz", undefined, { headers: { ...ok, origin: "https://evil.example" } })).status).toBe(403);
    expect(service.metrics.authFailures.get()).toBe(19);
  });

  it.skipIf(!built)("serve refuses a non-loopback address without a token, and a token file others can read (exit 2)", async () => {
    const k = kit();
    const run = (args: string[]) => cli(["serve", "--no-policy", "--state-dir", k.dir, ...args], { cwd: k.workspace });
    const wide = await run(["--listen", "0.0.0.0:0"]);
    expect([wide.code, wide.stderr]).toEqual([2, expect.stringMatching(/not a loopback address.*--token-file/)]);
    const v6 = await run(["--listen", "[::]:0"]);
    expect(v6.code).toBe(2);
    const file = join(k.root, "token");
    writeFileSync(file, token + "\n");
    chmodSync(file, 0o644);
    const open = await run(["--listen", "0.0.0.0:0", "--token-file", file]);
    expect([open.code, open.stderr]).toEqual([2, expect.stringMatching(/can be read by others.*chmod 600/)]);
    chmodSync(file, 0o600);
    writeFileSync(file, "short\n");
    expect((await run(["--token-file", file])).stderr).toMatch(/at least 32 characters/);
    for (const bad of ["8790", "127.0.0.1", "127.0.0.1:99999", "http://127.0.0.1:80"]) expect((await run(["--listen", bad])).stderr).toMatch(/is not HOST:PORT/);
    const inside = await cli(["serve", "--no-policy", "--state-dir", join(k.workspace, "state")], { cwd: k.workspace });
    expect([inside.code, inside.stderr]).toEqual([2, expect.stringMatching(/overlap/)]);
  });
});

describe("plangate serve: health and metrics", () => {
  it("healthz says ok, or not ok and why (the state directory is not a writable directory)", async () => {
    const k = kit();
    const { url } = await serve(k);
    expect(JSON.parse((await call(url, "/healthz")).body)).toEqual({ ok: true, stateDir: k.dir });
    rmSync(k.dir, { recursive: true });
    writeFileSync(k.dir, "not a folder");
    const bad = await call(url, "/healthz");
    expect(bad.status).toBe(503);
    expect(JSON.parse(bad.body)).toEqual({ ok: false, stateDir: k.dir, problems: [`the state directory ${k.dir} is not a directory`] });
    // And a hook call then is a deny, counted as a store error.
    await startRun({ ...k, dir: join(k.root, "other") });
    const r = await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, "read_file", { path: "in.txt" }));
    expect(JSON.parse(r.body).hookSpecificOutput.permissionDecision).toBe("deny");
    const missing = join(k.root, "gone");
    const { url: url2 } = await serve({ ...k, dir: missing });
    rmSync(missing, { recursive: true });
    expect(JSON.parse((await call(url2, "/healthz")).body).problems).toEqual([expect.stringMatching(/is not writable \(ENOENT\)/)]);
  });

  it("metrics are Prometheus text: decisions by event, outcome and rule, a latency histogram, store errors", async () => {
    const k = kit();
    await startRun(k, ["--session", "s1"]);
    const { url } = await serve(k);
    await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, PLAN[0]!.tool, PLAN[0]!.params));
    await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, PLAN[2]!.tool, PLAN[2]!.params));
    await call(url, "/v1/hooks/claude-code", "{");
    // The run's file unreadable: a store error.
    writeFileSync(join(k.dir, "runs", readFileSync(join(k.dir, "sessions", (await import("node:fs")).readdirSync(join(k.dir, "sessions"))[0]!), "utf8").trim() + ".json"), "{");
    await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, PLAN[1]!.tool, PLAN[1]!.params));
    const m = await call(url, "/metrics");
    expect(m.status).toBe(200);
    expect(m.headers["content-type"]).toBe("text/plain; version=0.0.4; charset=utf-8");
    const lines = m.body.trimEnd().split("\n");
    // Every line is a comment (HELP/TYPE) or `name{labels} value`.
    for (const l of lines) expect(l).toMatch(/^(# (HELP|TYPE) plangate_[a-z_]+ .+|plangate_[a-z_]+(\{([a-z_]+="([^"\\\n]|\\.)*",?)+\})? [0-9.e+-]+)$/);
    const value = (series: string) => Number(lines.find((l) => l.startsWith(series + " "))?.split(" ").pop());
    expect(value('plangate_hook_decisions_total{event="PreToolUse",outcome="allow",rule=""}')).toBe(1);
    expect(value('plangate_hook_decisions_total{event="PreToolUse",outcome="deny",rule="guard-step-mismatch"}')).toBe(1);
    expect(value('plangate_hook_decisions_total{event="PreToolUse",outcome="deny",rule="guard-failure"}')).toBe(1);
    expect(value('plangate_hook_decisions_total{event="unknown",outcome="deny",rule="parse-error"}')).toBe(1);
    expect(value('plangate_store_errors_total{kind="store"}')).toBe(1);
    expect(value("plangate_hook_decision_seconds_count")).toBe(4);
    const buckets = lines.filter((l) => l.startsWith("plangate_hook_decision_seconds_bucket")).map((l) => Number(l.split(" ").pop()));
    expect(buckets).toEqual([...buckets].sort((a, b) => a - b));
    expect(buckets.at(-1)).toBe(4);
    expect(lines).toContain("# TYPE plangate_hook_decision_seconds histogram");
    expect(value('plangate_http_requests_total{route="/v1/hooks/claude-code",status="200"}')).toBe(4);
  });
});

describe("plangate serve: validate, hash, verify", () => {
  it("answer the CLI's --output json documents for the same plan", async () => {
    const k = kit();
    const { url } = await serve(k, { trustedKeys: k.trustedKeys });
    const text = readFileSync(k.planFile, "utf8");
    writeFileSync(join(k.workspace, "bad.json"), '{"steps": []}');
    for (const [file, body] of [
      ["plan.json", text],
      ["bad.json", '{"steps": []}'],
    ] as const) {
      const v = await call(url, "/v1/validate", JSON.stringify({ text: body, file }));
      const c = await cli(["validate", file, "--policy", k.policy, "-o", "json"], { cwd: k.workspace });
      expect([v.status, v.body, v.headers["x-plangate-exit"]]).toEqual([200, c.stdout, String(c.code)]);
      const h = await call(url, "/v1/hash", JSON.stringify({ text: body, file }));
      const ch = await cli(["hash", file, "-o", "json"], { cwd: k.workspace });
      expect([h.status, h.body]).toEqual([200, ch.stdout]);
    }
    // verify: the kit's approval is for the default policy (no policy file): a policy mismatch, as the CLI says.
    const approval = k.sign(await k.record());
    writeFileSync(join(k.root, "a.json"), approval);
    const v = await call(url, "/v1/verify", JSON.stringify({ text, file: "plan.json", approval }));
    const c = await cli(["verify", "plan.json", "--approval", join(k.root, "a.json"), "--policy", k.policy, "--trusted-keys", k.keys.publicFile, "-o", "json"], { cwd: k.workspace });
    // The same document, but for the approval's file name (the request carries the approval itself).
    const withoutFile = (text: string) => {
      const doc = JSON.parse(text) as { results: Record<string, unknown>[] };
      for (const r of doc.results) delete r.approval;
      return doc;
    };
    expect([v.status, JSON.parse(v.body)]).toEqual([200, withoutFile(c.stdout)]);
    expect(JSON.parse(v.body).results[0].valid).toBe(false);
    // Approved under the server's policy, it verifies, on both.
    const setup = await resolveSetup({ policy: k.policy }, { cwd: k.workspace } as CliIO);
    const good = k.sign(await k.record({ policy_hash: setup.policyHash }));
    writeFileSync(join(k.root, "b.json"), good);
    const ok = await call(url, "/v1/verify", JSON.stringify({ text, file: "plan.json", approval: good }));
    const cok = await cli(["verify", "plan.json", "--approval", join(k.root, "b.json"), "--policy", k.policy, "--trusted-keys", k.keys.publicFile, "-o", "json"], { cwd: k.workspace });
    expect([ok.status, JSON.parse(ok.body), JSON.parse(ok.body).results[0].valid]).toEqual([200, withoutFile(cok.stdout), true]);
    // The same approval for another plan text: a mismatch.
    const other = await call(url, "/v1/verify", JSON.stringify({ text: text.replace("in.txt", "secret.txt"), file: "plan.json", approval: good }));
    expect(JSON.parse(other.body).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["approval-plan-mismatch"]);
  });

  it("an inline policy and a dialect apply to that request only; a policy naming a server file is refused", async () => {
    const k = kit();
    const { url } = await serve(k);
    const text = readFileSync(k.planFile, "utf8");
    const strict = await call(url, "/v1/validate", JSON.stringify({ text, file: "plan.json", policy: "tools:\n  allow: [read_file]\n" }));
    const doc = JSON.parse(strict.body);
    expect(doc.policy).toBe("(request)");
    expect(doc.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toContain("unknown-tool");
    expect(strict.headers["x-plangate-exit"]).toBe("1");
    for (const [policy, message] of [
      ["tools:\n  allowFile: /etc/passwd\n", /tools.allowFile names a file/],
      ["workspace: /\n", /workspace names a file or folder/],
      ["approval:\n  trustedKeys: /root/.ssh\n", /approval.trustedKeys/],
      ["guard:\n  stateDir: /tmp/x\n", /guard.stateDir/],
      ["host: ./evil.json\n", /host must be a built-in profile name/],
      ["tools: [", /request policy:1:/],
      ["nope: 1\n", /unknown key "nope"/],
      // A request's policy is bounded as a file is: its lists, and the policy merged over the defaults.
      [`commands:\n  deny: [${Array.from({ length: 1100 }, (_, i) => `p${i}`).join(", ")}]\n`, /request policy:2:\d+: the policy holds more than 1024 commands.deny entries in all/],
      [`paths:\n  protected: [${Array.from({ length: 3000 }, (_, i) => `d${i}`).join(", ")}]\n`, /the policy holds more than 4096 protected globs in all/],
    ] as const) {
      const r = await call(url, "/v1/validate", JSON.stringify({ text, file: "plan.json", policy }));
      expect([r.status, JSON.parse(r.body).error.code], policy).toEqual([400, "bad-policy"]);
      expect(JSON.parse(r.body).error.message).toMatch(message);
    }
    const teddy = await call(url, "/v1/validate", JSON.stringify({ text: "# T\n\n## Rationale\n\nx\n", file: "plan.md", dialect: "teddy" }));
    expect(JSON.parse(teddy.body).results[0].dialect).toBe("teddy");
  });

  it("a bad request is an error document with a fitting status", async () => {
    const k = kit();
    const { url } = await serve(k, { maxRequestBytes: 1000 });
    const cases: [string, string | Buffer, number, string, RegExp][] = [
      ["/v1/validate", "{", 400, "bad-request", /request body at 1:2/],
      ["/v1/validate", "[]", 400, "bad-request", /not a JSON object/],
      ["/v1/validate", '{"text": "[]"}', 400, "bad-request", /has no file/],
      ["/v1/validate", '{"text": "[]", "file": "p.json", "extra": 1}', 400, "bad-request", /unknown member "extra"/],
      ["/v1/validate", '{"text": 1, "file": "p.json"}', 400, "bad-request", /text is not a string/],
      ["/v1/validate", '{"text": "[]", "text": "{}", "file": "p.json"}', 400, "bad-request", /duplicate/i],
      ["/v1/validate", '{"text": "[]", "file": "p.json", "dialect": "cobol"}', 400, "bad-request", /unknown dialect "cobol"/],
      ["/v1/validate", '{"text": "[]", "file": "a\\nb"}', 400, "bad-request", /control characters/],
      ["/v1/hash", '{"text": "[]", "file": "p.json", "dialect": "intake"}', 400, "bad-request", /unknown member "dialect"/],
      ["/v1/verify", '{"text": "[]", "file": "p.json"}', 400, "bad-request", /has no approval/],
      ["/v1/verify", '{"text": "[]", "file": "p.json", "approval": "{}", "policy": ""}', 400, "bad-request", /unknown member "policy"/],
      ["/v1/hash", Buffer.from([0x7b, 0xff]), 400, "bad-request", /not UTF-8/],
      ["/v1/validate", JSON.stringify({ text: "x".repeat(2000), file: "p.json" }), 413, "too-large", /over 1000 bytes/],
    ];
    for (const [path, body, status, code, message] of cases) {
      const r = await call(url, path, body);
      expect([r.status, JSON.parse(r.body)], String(body).slice(0, 60)).toEqual([status, { version: 1, error: { code, message: expect.stringMatching(message) } }]);
    }
    expect((await call(url, "/v1/validate")).status).toBe(405);
  });
});

describe("plangate serve: returns, delegations, runs, approvals", () => {
  const RETURN = { status: "completed", summary: "Wrote the summary.", artifacts: [], metadata: {}, session_id: "s1" };

  it("/v1/returns answers check-return's --output json for the same return", async () => {
    const k = kit();
    const { url } = await serve(k);
    for (const [file, body, session] of [
      ["ret.json", JSON.stringify(RETURN), "s1"],
      ["wrong.json", JSON.stringify(RETURN), "s2"],
      ["broken.json", "{", undefined],
    ] as const) {
      writeFileSync(join(k.workspace, file), body);
      const r = await call(url, "/v1/returns", JSON.stringify({ text: body, file, ...(session ? { session_id: session } : {}) }));
      const c = await cli(["check-return", file, "--policy", k.policy, "-o", "json", ...(session ? ["--session-id", session] : [])], { cwd: k.workspace });
      expect([r.status, r.body, r.headers["x-plangate-exit"]], file).toEqual([200, c.stdout, String(c.code)]);
    }
    const bad = await call(url, "/v1/returns", JSON.stringify({ text: "{}", file: "r.json", encoding: "rot13" }));
    expect([bad.status, JSON.parse(bad.body).error.message]).toEqual([400, expect.stringMatching(/unknown encoding "rot13"/)]);
    const neg = await call(url, "/v1/returns", JSON.stringify({ text: "{}", file: "r.json", max_summary_tokens: -1 }));
    expect([neg.status, JSON.parse(neg.body).error.message]).toEqual([400, expect.stringMatching(/max_summary_tokens is not a whole number/)]);
  });

  it("/v1/delegations checks, registers and releases in the server's store, which the CLI reads too", async () => {
    const k = kit();
    const { url } = await serve(k);
    const post = async (req: Record<string, unknown>) => {
      const r = await call(url, "/v1/delegations", JSON.stringify(req));
      return { status: r.status, exit: r.headers["x-plangate-exit"], doc: JSON.parse(r.body) };
    };
    const ok = await post({ target: "coder", path: ["orchestrator", "planner"], session_id: "sess-1", register: true });
    const cliCheck = await cli(["check-delegation", "--target", "coder", "--path", "orchestrator,planner", "--session-id", "sess-2", "--store", `file:${k.dir}`, "-o", "json"], { cwd: k.workspace });
    expect([ok.status, ok.exit]).toEqual([200, "0"]);
    expect(ok.doc.results[0].delegation).toEqual({ target: "coder", path: ["orchestrator", "planner"], depth: 2, maxDepth: 3, sessionId: "sess-1", registered: expect.objectContaining({ agent: "coder" }) });
    expect(Object.keys(ok.doc)).toEqual(Object.keys(JSON.parse(cliCheck.stdout)));
    // The same id again, from the server or the CLI: taken.
    const again = await post({ target: "coder", path: ["orchestrator"], session_id: "sess-1", register: true });
    expect([again.exit, again.doc.results[0].diagnostics.map((d: { rule: string }) => d.rule)]).toEqual(["1", ["session-id-reused"]]);
    const viaCli = await cli(["check-delegation", "--target", "coder", "--path", "orchestrator", "--session-id", "sess-1", "--store", `file:${k.dir}`, "-o", "json"], { cwd: k.workspace });
    expect(viaCli.code).toBe(1);
    // A cycle (names compared as agents), too deep, a comma-separated path as the CLI spells it.
    expect((await post({ target: "Planner", path: "orchestrator, planner" })).doc.results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["delegation-cycle"]);
    expect((await post({ target: "e", path: ["a", "b", "c", "d"] })).exit).toBe("1");
    // Released, the id can be registered again.
    expect((await post({ session_id: "sess-1", release: true })).doc).toEqual({ version: 1, released: true, session_id: "sess-1", registry: join(k.dir, "registry") });
    expect((await post({ target: "coder", path: [], session_id: "sess-1", register: true })).exit).toBe("0");
    for (const [req, message] of [
      [{ target: "coder", path: [], register: true }, /register needs session_id/],
      [{ session_id: "sess-1", release: true, register: true }, /cannot be combined/],
      [{ target: "", path: [] }, /needs target/],
      [{ target: "coder" }, /needs path/],
      [{ target: "coder", path: ["a", ""] }, /empty agent name/],
      [{ target: "coder", path: [], session_id: "../x" }, /not a usable session id/],
      [{ target: "coder", path: [1] }, /path is not a list of at most 64 agent names/],
      [{ target: "coder", path: Array.from({ length: 65 }, (_, i) => `a${i}`) }, /path is not a list of at most 64 agent names/],
      [{ target: "coder", path: Array.from({ length: 65 }, (_, i) => `a${i}`).join(",") }, /path is not a list of at most 64 agent names/],
      [{ target: "coder", path: [], depth: 1.5 }, /depth is not a whole number/],
      [{ target: "coder", path: [], register: "yes" }, /register is not true or false/],
      // An expiry no clock can write is the request's fault, not the server's (it was a 500).
      [{ target: "coder", path: [], session_id: "sess-9", register: true, ttl: 9e15 }, /ttl must be 1 to 31622400 seconds/],
    ] as const) {
      const r = await post(req);
      expect([r.status, r.doc.error.message], JSON.stringify(req)).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it("/v1/runs starts a run from a plan's text and an approval, lists it, and /v1/runs/stop stops it", async () => {
    const k = kit();
    const { url } = await serve(k, { trustedKeys: k.trustedKeys });
    const setup = await resolveSetup({ policy: k.policy }, { cwd: k.workspace } as CliIO);
    const text = readFileSync(k.planFile, "utf8");
    const approval = k.sign(await k.record({ policy_hash: setup.policyHash }));
    // A symlink planted where the plan will be kept is replaced, never written through.
    const decoy = join(k.root, "decoy.txt");
    writeFileSync(decoy, "decoy");
    mkdirSync(join(k.dir, "plans"), { recursive: true });
    symlinkSync(decoy, join(k.dir, "plans", `${sha256Hex(Buffer.from(text))}.json`));
    const started = await call(url, "/v1/runs", JSON.stringify({ text, file: "plan.json", approval, session: "s1" }));
    const doc = JSON.parse(started.body);
    expect([started.status, started.headers["x-plangate-exit"], doc.summary.valid]).toEqual([200, "0", 1]);
    const run = doc.results[0];
    expect(run).toMatchObject({ file: "plan.json", valid: true, stateDir: k.dir, session: "s1", status: "active", step: 0, steps: 3 });
    // The plan's text is kept in the state directory, outside the workspace, owner-only.
    expect(run.plan.startsWith(join(k.dir, "plans") + "/")).toBe(true);
    expect(readFileSync(run.plan, "utf8")).toBe(text);
    expect([lstatSync(run.plan).isFile(), statSync(run.plan).mode & 0o777, readFileSync(decoy, "utf8")]).toEqual([true, 0o600, "decoy"]);
    // The session's calls are decided against it, as for a run started by the CLI.
    const allow = await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, "read_file", { path: "in.txt" }));
    expect(decision(allow.body)).toBe("allow");
    const listed = await call(url, "/v1/runs");
    const status = await cli(["guard", "status", "--state-dir", k.dir, "--no-policy", "-o", "json"], { cwd: k.workspace });
    expect([listed.status, JSON.parse(listed.body)]).toEqual([200, JSON.parse(status.stdout)]);
    expect(JSON.parse(listed.body).runs[0]).toMatchObject({ run: run.run, status: "active", step: 1 });
    // Single-use: the same approval again is refused with the approval's rule.
    const replay = await call(url, "/v1/runs", JSON.stringify({ text, file: "plan.json", approval }));
    expect([replay.status, replay.headers["x-plangate-exit"], JSON.parse(replay.body).results[0].diagnostics.map((d: { rule: string }) => d.rule)]).toEqual([200, "1", ["approval-consumed"]]);
    // Another text under the approval: refused, no run.
    const other = await call(url, "/v1/runs", JSON.stringify({ text: text.replace("in.txt", "secret.txt"), file: "plan.json", approval }));
    expect(JSON.parse(other.body).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toContain("approval-plan-mismatch");
    // Stopped by session (audited); later calls are denied.
    const stop = await call(url, "/v1/runs/stop", JSON.stringify({ session: "s1", reason: "operator" }));
    expect([stop.status, JSON.parse(stop.body)]).toEqual([200, expect.objectContaining({ ok: true, run: run.run, status: "stopped", stop_reason: "operator" })]);
    expect(decision((await call(url, "/v1/hooks/claude-code", hookInput("s1", k.workspace, "write_file", { path: "out.txt", content: "ok" }))).body)).toBe("deny");
    for (const [path, req, status, message] of [
      ["/v1/runs/stop", { run: "0".repeat(32) }, 404, /does not exist/],
      ["/v1/runs/stop", { session: "nobody" }, 404, /has no run/],
      ["/v1/runs/stop", { run: "../x" }, 400, /not a run id/],
      ["/v1/runs/stop", {}, 400, /one of them/],
      ["/v1/runs/stop", { session: "s1", reason: "x".repeat(1001) }, 400, /reason is at most 1000 characters/],
      ["/v1/runs", { text, file: "plan.txt", approval }, 400, /must end in .json, .yaml, .yml or .md/],
      ["/v1/runs", { text, file: "plan.json" }, 400, /has no approval/],
    ] as const) {
      const r = await call(url, path, JSON.stringify(req));
      expect([r.status, JSON.parse(r.body).error.message], JSON.stringify(req)).toEqual([status, expect.stringMatching(message)]);
    }
    expect((await call(url, "/v1/runs", undefined, { method: "PUT" })).headers.allow).toBe("GET, POST");
    // A text whose approval does not check out (another plan's, unsigned, not an approval) is never written:
    // a client cannot fill the state directory with plans nobody approved.
    for (const bad of [approval, JSON.stringify(await k.record({ policy_hash: setup.policyHash })), "{}"]) {
      const r = await call(url, "/v1/runs", JSON.stringify({ text: text.replace("in.txt", `x${Math.random()}.txt`), file: "plan.md", approval: bad }));
      expect([r.status, r.headers["x-plangate-exit"]]).toEqual([200, "1"]);
    }
    expect(readdirSync(join(k.dir, "plans"))).toEqual([basename(run.plan)]);
  });

  it("a request that changes state is not abandoned half done: its answer says what happened, however long it took", async () => {
    const k = kit();
    // A deadline shorter than any run start: a check would time out; a start, a stop, a registration finish.
    const { url } = await serve(k, { trustedKeys: k.trustedKeys, requestTimeoutMs: 1 });
    const setup = await resolveSetup({ policy: k.policy }, { cwd: k.workspace } as CliIO);
    const text = readFileSync(k.planFile, "utf8");
    const approval = k.sign(await k.record({ policy_hash: setup.policyHash }));
    const started = await call(url, "/v1/runs", JSON.stringify({ text, file: "plan.json", approval, session: "slow" }));
    expect([started.status, JSON.parse(started.body).results?.[0]?.status]).toEqual([200, "active"]);
    const stopped = await call(url, "/v1/runs/stop", JSON.stringify({ session: "slow" }));
    expect([stopped.status, JSON.parse(stopped.body).status]).toEqual([200, "stopped"]);
    const registered = await call(url, "/v1/delegations", JSON.stringify({ target: "coder", path: [], session_id: "slow-1", register: true }));
    expect([registered.status, registered.headers["x-plangate-exit"]]).toEqual([200, "0"]);
  });

  it("/v1/runs/stop answers 404 only for a run or session the store does not have: a store that fails is 409, whatever its message says", async () => {
    const k = kit();
    mkdirSync(k.dir, { recursive: true });
    const down = new StoreUnavailableError("the store postgres://db/x is unavailable: the database does not exist (3D000: database \"x\" does not exist); every call that needs it is denied until it is back");
    const failing = new Proxy(new FileStore(k.dir), {
      get(target, prop, receiver) {
        if (prop === "withRun" || prop === "boundRun") return async () => Promise.reject(down);
        const v = Reflect.get(target, prop, receiver);
        return typeof v === "function" ? v.bind(target) : v;
      },
    });
    const { url } = await serve(k, { store: failing });
    for (const req of [{ run: "a".repeat(32) }, { session: "s1" }]) {
      const r = await call(url, "/v1/runs/stop", JSON.stringify(req));
      expect([r.status, JSON.parse(r.body).error.code], JSON.stringify(req)).toEqual([409, "state"]);
    }
    // A session named like a missing run is still the session's own answer.
    const healthy = await serve({ ...k, dir: join(k.root, "state2") });
    const r = await call(healthy.url, "/v1/runs/stop", JSON.stringify({ session: "the run x does not exist" }));
    expect([r.status, JSON.parse(r.body).error.code]).toEqual([404, "not-found"]);
  });

  it("/v1/approve is off without a key, needs its own token, and signs what the CLI would", async () => {
    const k = kit();
    const off = await serve(k);
    const none = await call(off.url, "/v1/approve", JSON.stringify({ text: "[]", file: "plan.json" }));
    expect([none.status, JSON.parse(none.body).error.message]).toEqual([404, expect.stringMatching(/approvals are off.*--approve-key/)]);
    const token = "s".repeat(40);
    const approveToken = "a".repeat(40);
    expect(() => createService({ ...({} as Parameters<typeof createService>[0]), approveToken } as Parameters<typeof createService>[0])).toThrow(/go together/);
    const { url } = await serve(k, { trustedKeys: k.trustedKeys, token, approveToken, approver: { signer: loadSigner(k.keys.privateFile), keyFile: k.keys.privateFile } });
    const text = readFileSync(k.planFile, "utf8");
    const body = JSON.stringify({ text, file: "plan.json", ttl: "1h" });
    // The server's token does not approve; the approval token does (and only it, whole).
    for (const auth of [undefined, `Bearer ${token}`, `Bearer ${approveToken}x`]) {
      const r = await call(url, "/v1/approve", body, { headers: auth ? { authorization: auth } : {} });
      expect([r.status, JSON.parse(r.body).error.message], auth).toEqual([401, expect.stringMatching(/approval token/)]);
    }
    const signed = await call(url, "/v1/approve", body, { headers: { authorization: `Bearer ${approveToken}` } });
    expect([signed.status, signed.headers["x-plangate-exit"]]).toEqual([200, "0"]);
    const envelope = JSON.parse(signed.body);
    expect(envelope.payloadType).toBe("application/vnd.plangate.approval+json");
    // It verifies against the server's policy and key, and starts a run.
    const auth = { authorization: `Bearer ${token}` };
    const v = await call(url, "/v1/verify", JSON.stringify({ text, file: "plan.json", approval: signed.body }), { headers: auth });
    expect(JSON.parse(v.body).results[0].valid).toBe(true);
    const r = await call(url, "/v1/runs", JSON.stringify({ text, file: "plan.json", approval: signed.body }), { headers: auth });
    expect(JSON.parse(r.body).results[0]).toMatchObject({ valid: true, status: "pending" });
    // A reusable approval needs a lifetime ("ttl"), or "never" said on purpose.
    const approveAuth = { headers: { authorization: `Bearer ${approveToken}` } };
    const forEver = await call(url, "/v1/approve", JSON.stringify({ text, file: "plan.json", reusable: true }), approveAuth);
    expect([forEver.status, JSON.parse(forEver.body).error.message]).toEqual([400, expect.stringMatching(/a reusable approval needs a lifetime.*"ttl": "1d".*"ttl": "never"/)]);
    const reusable = await call(url, "/v1/approve", JSON.stringify({ text, file: "plan.json", reusable: true, ttl: "1d" }), approveAuth);
    expect(JSON.parse(Buffer.from(JSON.parse(reusable.body).payload, "base64").toString("utf8"))).toMatchObject({ single_use: false, expires_at: expect.any(String) });
    const never = await call(url, "/v1/approve", JSON.stringify({ text, file: "plan.json", reusable: true, ttl: "never" }), approveAuth);
    expect(never.status).toBe(200);
    // An invalid plan is the validation report, exit 1; no record.
    const badPlan = await call(url, "/v1/approve", JSON.stringify({ text: JSON.stringify([{ tool: "rm_rf", params: {} }]), file: "plan.json" }), { headers: { authorization: `Bearer ${approveToken}` } });
    expect([badPlan.status, badPlan.headers["x-plangate-exit"], JSON.parse(badPlan.body).results[0].valid]).toEqual([200, "1", false]);
  });

  it.skipIf(!built)("serve takes the approval key and its token together, a key outside the workspace, another token than the server's", async () => {
    const k = kit();
    const run = (args: string[]) => cli(["serve", "--no-policy", "--state-dir", k.dir, "--listen", "127.0.0.1:0", ...args], { cwd: k.workspace });
    const tokenFile = join(k.root, "approve-token");
    writeFileSync(tokenFile, "a".repeat(40));
    chmodSync(tokenFile, 0o600);
    expect((await run(["--approve-key", k.keys.privateFile])).stderr).toMatch(/go together/);
    expect((await run(["--approve-token-file", tokenFile])).stderr).toMatch(/go together/);
    expect((await run(["--approve-key", k.keys.privateFile, "--approve-token-file", tokenFile, "--token-file", tokenFile])).stderr).toMatch(/another token than --token-file/);
    writeFileSync(join(k.workspace, "key.pem"), readFileSync(k.keys.privateFile));
    const inside = await run(["--approve-key", join(k.workspace, "key.pem"), "--approve-token-file", tokenFile]);
    expect([inside.code, inside.stderr]).toEqual([2, expect.stringMatching(/--approve-key: .*workspace/)]);
  });
});

describe("plangate serve: the process", () => {
  it.skipIf(!built)("starts, answers on loopback, and stops on SIGTERM with exit 0", async () => {
    const k = kit();
    mkdirSync(k.dir);
    const p = spawn(process.execPath, [bin, "serve", "--listen", "127.0.0.1:0", "--policy", k.policy, "--state-dir", k.dir, "--trusted-keys", k.keys.publicFile], { cwd: k.workspace });
    let stderr = "";
    const port = await new Promise<number>((done, fail) => {
      p.stderr.on("data", (c) => {
        stderr += c;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(stderr);
        if (m) done(Number(m[1]));
      });
      p.on("close", () => fail(new Error(stderr)));
    });
    const url = `http://127.0.0.1:${port}`;
    // The server is stopped whatever the assertions say.
    onTestFinished(() => {
      if (p.exitCode === null && p.signalCode === null) p.kill("SIGKILL");
    });
    expect(JSON.parse((await call(url, "/healthz")).body).ok).toBe(true);
    const r = await call(url, "/v1/hooks/claude-code", hookInput("nobody", k.workspace, "read_file", { path: "in.txt" }));
    expect(JSON.parse(r.body).hookSpecificOutput.permissionDecision).toBe("deny");
    // --trusted-keys: an approval signed by the kit's key, under the server's policy, verifies (no expiry: the real clock does not matter).
    const setup = await resolveSetup({ policy: k.policy }, { cwd: k.workspace } as CliIO);
    const approval = k.sign(await k.record({ policy_hash: setup.policyHash }));
    const v = await call(url, "/v1/verify", JSON.stringify({ text: readFileSync(k.planFile, "utf8"), file: "plan.json", approval }));
    expect([v.status, JSON.parse(v.body).results[0].valid, JSON.parse(v.body).results[0].diagnostics]).toEqual([200, true, []]);
    const code = await new Promise<number | null>((done) => {
      p.on("close", (c) => done(c));
      p.kill("SIGTERM");
    });
    expect(code).toBe(0);
  }, 30_000);
});

describe("the README's Service section", () => {
  const root = join(import.meta.dirname, "..");
  it("shows examples/claude-code/settings.http.json byte for byte, an http hook with onFailure block on each event", () => {
    const readme = readFileSync(join(root, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("### plangate serve"));
    const lines = section.split("\n");
    const start = lines.indexOf("```json");
    const fence = lines.slice(start + 1, lines.indexOf("```", start + 1)).join("\n") + "\n";
    const file = readFileSync(join(root, "examples/claude-code/settings.http.json"), "utf8");
    expect(fence).toBe(file);
    const settings = JSON.parse(file) as { hooks: Record<string, { matcher: string; hooks: Record<string, unknown>[] }[]> };
    for (const event of ["PreToolUse", "PermissionRequest", "PostToolUse", "PostToolUseFailure"])
      for (const h of settings.hooks[event]!.flatMap((m) => m.hooks)) expect(h).toMatchObject({ type: "http", url: "http://127.0.0.1:8790/v1/hooks/claude-code", onFailure: "block" });
  });
});
