// `plangate serve`: start-up to the first answer, and the hook endpoint's latency on loopback at about
// 200 calls/s (POST /v1/hooks/claude-code, each an allowed step of a bound run: find the run, lock,
// check the audit trail's end, re-hash the plan, match, append an fsync'd audit line, write the run).
// Wall time per call (p50/p99) and the server's own CPU time per call (from /proc, user + system), and
// the same decision in-process (answerHook) in CPU time: the machine is shared and noisy.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { join } from "node:path";
import { APPROVAL_PAYLOAD_TYPE, createRecord, generateKeyFiles, keyId, loadPrivateKey, loadTrustedKeys, parseToolsText, planHash, signEnvelope, toolsHash } from "../dist/index.js";
import { startRun } from "../dist/approval/runs.js";
import { answerHook } from "../dist/cli/hook-answer.js";
import { loadPolicy } from "../dist/node/policy.js";

const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
const tools = parseToolsText("read_file\nwrite_file\n", "tools.txt");
const base = process.env.BENCH_DIR ?? tmpdir();
const root = realpathSync(mkdtempSync(join(base, "plangate-serve-bench-")));
const keys = generateKeyFiles(join(root, "keys"));
const key = loadPrivateKey(keys.privateFile);
const trustedKeys = loadTrustedKeys(keys.publicFile);
const policyHash = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
const now = new Date();
const dir = join(root, "state");
const STEPS = 200;

/** A workspace with a STEPS-step plan and a run bound to `session` in `stateDir`. */
async function prepared(tag, stateDir) {
  const ws = join(root, `ws-${tag}`);
  mkdirSync(join(ws, "data"), { recursive: true });
  const plan = Array.from({ length: STEPS }, (_, i) => ({ tool: i % 2 ? "write_file" : "read_file", description: `step ${i + 1}`, params: { path: `data/file-${i}.txt`, content: "lorem ipsum ".repeat(8) } }));
  const planFile = join(ws, "plan.json");
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
  const record = createRecord({ planHash: await planHash(readFileSync(planFile), { file: planFile }), scope: ws, policyHash, toolsHash: toolsHash(tools), steps: STEPS, now, ttlMs: 3600_000, singleUse: true, keyid: keyId(key) });
  const approval = JSON.stringify(signEnvelope(APPROVAL_PAYLOAD_TYPE, Buffer.from(JSON.stringify(record)), key, keyId(key)));
  const session = `session-${tag}`;
  await startRun(stateDir, { plan: planFile, approval, workspace: ws, policyHash, tools, trustedKeys, session, now: () => now });
  return plan.map((s) => JSON.stringify({ session_id: session, cwd: ws, hook_event_name: "PreToolUse", tool_name: s.tool, tool_input: s.params }));
}

const cpuOf = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100; // utime + stime, clock ticks of 10 ms
};

function post(port, body) {
  return new Promise((done, fail) => {
    const t0 = process.hrtime.bigint();
    const req = request({ host: "127.0.0.1", port, path: "/v1/hooks/claude-code", method: "POST", agent: keepAlive, headers: { "content-type": "application/json" } }, (res) => {
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

// Start-up: spawn to the first /healthz answer.
// Four sessions (four agents), each calling its next step every 20 ms once the previous one was answered.
const SESSIONS = 4;
const sessions = [];
for (let s = 0; s < SESSIONS; s++) sessions.push((await prepared(`s${s}`, dir)).slice(0, 100));
const total = sessions.reduce((n, c) => n + c.length, 0);
const t0 = process.hrtime.bigint();
// The server's workspace (its cwd, no policy) is a folder beside the state directory, not above it.
const srv = join(root, "srv");
mkdirSync(srv);
const child = spawn(process.execPath, [bin, "serve", "--no-policy", "--listen", "127.0.0.1:0", "--state-dir", dir], { cwd: srv, stdio: ["ignore", "ignore", "pipe"] });
let err = "";
const port = await new Promise((done, fail) => {
  child.stderr.on("data", (c) => {
    err += c;
    const m = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(err);
    if (m) done(Number(m[1]));
  });
  child.on("close", () => fail(new Error(err)));
});
await new Promise((done) => request({ host: "127.0.0.1", port, path: "/healthz" }, (res) => res.resume().on("end", done)).end());
const startup = Number(process.hrtime.bigint() - t0) / 1e6;

// Warm-up (not measured): the first decisions compile the code they run.
const warm = await prepared("warm", dir);
for (const c of warm.slice(0, 50)) await post(port, c);

// Paced at 200 calls/s in all: each session's call i is due at i × 20 ms (staggered by 5 ms between sessions).
const wall = [];
const cpu0 = cpuOf(child.pid);
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
const serverCpuPerCall = (cpuOf(child.pid) - cpu0) / total;
child.kill("SIGTERM");
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

const q = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))];
};
console.log(`\n### plangate serve (files in ${base})\n`);
console.log("| measure | value |");
console.log("|---|---|");
console.log(`| start-up to the first /healthz answer | ${startup.toFixed(0)} ms |`);
console.log(`| hook endpoint, ${total} allowed steps at ${(total / elapsed).toFixed(0)} calls/s: wall p50 / p99 | ${q(wall, 0.5).toFixed(2)} / ${q(wall, 0.99).toFixed(2)} ms |`);
console.log(`| the server's CPU time per call (user + system) | ${serverCpuPerCall.toFixed(2)} ms |`);
console.log(`| the decision in-process (answerHook), CPU p50 / p99 | ${q(inproc, 0.5).toFixed(2)} / ${q(inproc, 0.99).toFixed(2)} ms |`);
