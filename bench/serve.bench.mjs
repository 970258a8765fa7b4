// `plangate serve`: start-up to the first answer, and the hook endpoint's latency on loopback at about
// 200 calls/s (POST /v1/hooks/claude-code, each an allowed step of a bound run: find the run, lock,
// check the audit trail's end, re-hash the plan, match, append an fsync'd audit line, write the run),
// with the file store and, when PLANGATE_TEST_DATABASE_URL names a PostgreSQL server, with a database
// store. Wall time per call (p50/p99) and the server's own CPU time per call (from /proc, user +
// system), and the same decision in-process (answerHook) in CPU time: the machine is shared and noisy.
// Then POST /v1/validate against validating in-process, and an MCP `validate_plan` round trip (stdio
// and /mcp), medians of interleaved runs.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { benchKit, policyHash } from "./approval-kit.mjs";
import { startRun } from "../dist/store/runs.js";
import { answerHook } from "../dist/cli/hook-answer.js";
import { loadPolicy } from "../dist/node/policy.js";

const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
const { tools, base, root, keys, trustedKeys, now, approvalOf } = benchKit("serve");
const dir = join(root, "state");
const STEPS = 200;

/** A workspace with a STEPS-step plan and a run bound to `session` in `stateDir`. */
async function prepared(tag, stateDir) {
  const ws = join(root, `ws-${tag}`);
  mkdirSync(join(ws, "data"), { recursive: true });
  const plan = Array.from({ length: STEPS }, (_, i) => ({ tool: i % 2 ? "write_file" : "read_file", description: `step ${i + 1}`, params: { path: `data/file-${i}.txt`, content: "lorem ipsum ".repeat(8) } }));
  const planFile = join(ws, "plan.json");
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
  const approval = await approvalOf(planFile, ws, STEPS, { ttlMs: 3600_000 });
  const session = `session-${tag}`;
  await startRun(stateDir, { plan: planFile, approval, workspace: ws, policyHash, tools, trustedKeys, session, now: () => now });
  return plan.map((s) => JSON.stringify({ session_id: session, cwd: ws, hook_event_name: "PreToolUse", tool_name: s.tool, tool_input: s.params }));
}

const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
};

function post(port, body) {
  return postTo(port, "/v1/hooks/claude-code", body);
}
function postTo(port, path, body) {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const req = request({ host: "127.0.0.1", port, path, method: "POST", agent: keepAlive, headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.on("data", (c) => (text += c));
      res.on("end", () => done({ ms: Number(process.hrtime.bigint() - t0) / 1e6, text }));
    });
    req.on("error", fail);
    req.end(body);
  });
}
const { Agent } = await import("node:http");
const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });

/** Starts `plangate serve` with these flags; resolves with its port once it listens. */
function startServer(flags) {
  const child = spawn(process.execPath, [bin, "serve", "--no-policy", "--listen", "127.0.0.1:0", ...flags], { cwd: srv, stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  const port = new Promise((done, fail) => {
    child.stderr.on("data", (c) => {
      err += c;
      const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
      if (m) done(Number(m[1]));
    });
    child.on("close", () => fail(new Error(err)));
  });
  return { child, port };
}

/** Four sessions (four agents), each calling its next step every 20 ms: 200 calls/s in all. */
async function paced(port, pid, sessions) {
  const total = sessions.reduce((n, c) => n + c.length, 0);
  const wall = [];
  const cpu0 = cpuOf(pid);
  const started = performance.now();
  await Promise.all(
    sessions.map(async (list, s) => {
      for (let i = 0; i < list.length; i++) {
        const wait = started + s * 5 + i * 20 - performance.now();
        if (wait > 0) await sleep(wait);
        const r = await post(port, list[i]);
        if (!r.text.includes('"allow"')) throw new Error(`call ${i} not allowed: ${r.text}`);
        wall.push(r.ms);
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  return { wall, total, rate: total / elapsed, cpuPerCall: (cpuOf(pid) - cpu0) / total };
}

// The server's workspace (its cwd, no policy) is a folder beside the state directory, not above it.
const srv = join(root, "srv");
mkdirSync(srv);

// Start-up: spawn to the first /healthz answer.
const SESSIONS = 4;
const sessions = [];
for (let s = 0; s < SESSIONS; s++) sessions.push((await prepared(`s${s}`, dir)).slice(0, 100));
const t0 = process.hrtime.bigint();
const { child, port: portP } = startServer(["--state-dir", dir, "--trusted-keys", keys.publicFile]);
const port = await portP;
await new Promise((done) => request({ host: "127.0.0.1", port, path: "/healthz" }, (res) => res.resume().on("end", done)).end());
const startup = Number(process.hrtime.bigint() - t0) / 1e6;

// Warm-up (not measured): the first decisions compile the code they run.
const warm = await prepared("warm", dir);
for (const c of warm.slice(0, 50)) await post(port, c);
const fileRun = await paced(port, child.pid, sessions);

// POST /v1/validate of a 100-step plan against validatePlan in-process, interleaved, medians.
const planText = readFileSync(join(root, "ws-s0", "plan.json"), "utf8");
const validateBody = JSON.stringify({ text: planText, file: "plan.json" });
const { validatePlan } = await import("../dist/index.js");
const planBytes = Buffer.from(planText);
const httpValidate = [];
const inprocValidate = [];
for (let i = 0; i < 20; i++) await postTo(port, "/v1/validate", validateBody);
for (let i = 0; i < 60; i++) {
  httpValidate.push((await postTo(port, "/v1/validate", validateBody)).ms);
  const t = process.hrtime.bigint();
  await validatePlan(planBytes, { file: "plan.json" });
  inprocValidate.push(Number(process.hrtime.bigint() - t) / 1e6);
}

// MCP validate_plan round trips: stdio (`plangate mcp`) and /mcp of the server.
const mcp = await mcpRoundTrips(port, planText);
child.kill("SIGTERM");

// The same paced calls against a PostgreSQL store (a database of its own, migrated, dropped after).
const pg = await postgresRun();
keepAlive.destroy();

// The same decision in-process (no HTTP), CPU time of this process.
const dir2 = join(root, "state2");
const inproc = [];
const loaded = await loadPolicy({ file: false, cwd: srv });
const settings = { output: "claude", timeoutMs: 5000, now: () => new Date(), cwd: srv, env: {}, policy: async () => loaded, store: async () => ({ dir: dir2, maxInputBytes: loaded.policy.guard.maxInputBytes }) };
const more = [...(await prepared("c", dir2)), ...(await prepared("d", dir2))];
for (const c of more.slice(STEPS - 50, STEPS)) await answerHook(async () => Buffer.from(c), settings);
for (const c of more.slice(STEPS)) {
  const t = process.cpuUsage();
  const out = await answerHook(async () => Buffer.from(c), settings);
  inproc.push((process.cpuUsage(t).user + process.cpuUsage(t).system) / 1000);
  if (out.outcome.decision !== "allow") throw new Error(out.stdout);
}
rmSync(root, { recursive: true, force: true });

async function mcpRoundTrips(port, text) {
  let sdk;
  try {
    sdk = {
      Client: (await import("@modelcontextprotocol/sdk/client/index.js")).Client,
      Stdio: (await import("@modelcontextprotocol/sdk/client/stdio.js")).StdioClientTransport,
      Http: (await import("@modelcontextprotocol/sdk/client/streamableHttp.js")).StreamableHTTPClientTransport,
    };
  } catch {
    return undefined; // the SDK is an optional peer dependency
  }
  const stdio = new sdk.Client({ name: "bench", version: "1" });
  await stdio.connect(new sdk.Stdio({ command: process.execPath, args: [bin, "mcp", "--no-policy"], cwd: srv, stderr: "ignore" }));
  const http = new sdk.Client({ name: "bench", version: "1" });
  await http.connect(new sdk.Http(new URL(`http://127.0.0.1:${port}/mcp`)));
  const times = { stdio: [], http: [] };
  const once = async (client, into) => {
    const t = process.hrtime.bigint();
    const r = await client.callTool({ name: "validate_plan", arguments: { text, file: "plan.json" } });
    if (r.isError) throw new Error(JSON.stringify(r.content));
    into?.push(Number(process.hrtime.bigint() - t) / 1e6);
  };
  for (let i = 0; i < 10; i++) {
    await once(stdio);
    await once(http);
  }
  for (let i = 0; i < 40; i++) {
    await once(stdio, times.stdio);
    await once(http, times.http);
  }
  await stdio.close();
  await http.close();
  return times;
}

async function postgresRun() {
  const url = process.env.PLANGATE_TEST_DATABASE_URL;
  if (!url) return undefined;
  const { default: postgres } = await import("postgres");
  const name = `plangate_bench_${process.pid}`;
  const admin = postgres(url, { max: 1, onnotice: () => {} });
  await admin.unsafe(`CREATE DATABASE ${name}`);
  const u = new URL(url);
  u.pathname = `/${name}`;
  const db = u.toString();
  try {
    const { openPostgres } = await import("../dist/store/open.js");
    const store = await openPostgres(db, { max: 4 });
    await store.migrate();
    const lists = [];
    for (let s = 0; s < SESSIONS; s++) lists.push((await prepared(`pg${s}`, store)).slice(0, 100));
    const warmPg = await prepared("pgwarm", store);
    await store.close();
    const { child: c, port: p } = startServer(["--store", db]);
    const pgPort = await p;
    for (const w of warmPg.slice(0, 50)) await post(pgPort, w);
    const r = await paced(pgPort, c.pid, lists);
    c.kill("SIGTERM");
    await new Promise((done) => c.on("close", done));
    return r;
  } finally {
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await admin.end();
  }
}

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
console.log(`\n### plangate serve (files in ${base})\n`);
console.log("| measure | value |");
console.log("|---|---|");
console.log(`| start-up to the first /healthz answer | ${startup.toFixed(0)} ms |`);
console.log(`| hook endpoint, file store, ${fileRun.total} allowed steps at ${fileRun.rate.toFixed(0)} calls/s: wall p50 / p99 | ${q(fileRun.wall, 0.5).toFixed(2)} / ${q(fileRun.wall, 0.99).toFixed(2)} ms |`);
console.log(`| the server's CPU time per call (user + system), file store | ${fileRun.cpuPerCall.toFixed(2)} ms |`);
if (pg) {
  console.log(`| hook endpoint, PostgreSQL store, ${pg.total} allowed steps at ${pg.rate.toFixed(0)} calls/s: wall p50 / p99 | ${q(pg.wall, 0.5).toFixed(2)} / ${q(pg.wall, 0.99).toFixed(2)} ms |`);
  console.log(`| the server's CPU time per call (user + system), PostgreSQL store | ${pg.cpuPerCall.toFixed(2)} ms |`);
} else console.log("| hook endpoint, PostgreSQL store | not measured: set PLANGATE_TEST_DATABASE_URL (scripts/pg-test-server.sh start) |");
console.log(`| the decision in-process (answerHook), CPU p50 / p99 | ${q(inproc, 0.5).toFixed(2)} / ${q(inproc, 0.99).toFixed(2)} ms |`);
console.log(`| validate a 100-step plan: POST /v1/validate (wall) / in-process (wall), median | ${q(httpValidate, 0.5).toFixed(2)} / ${q(inprocValidate, 0.5).toFixed(2)} ms |`);
if (mcp) console.log(`| MCP validate_plan round trip (the same plan), median: stdio / streamable HTTP | ${q(mcp.stdio, 0.5).toFixed(2)} / ${q(mcp.http, 0.5).toFixed(2)} ms |`);
else console.log("| MCP validate_plan round trip | not measured: the MCP SDK (an optional peer dependency) is not installed |");
