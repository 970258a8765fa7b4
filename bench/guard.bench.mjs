// Per-step overhead of the execution guard, in-process: re-read and re-hash a 100-step plan, compare
// the call with the next approved step, append an fsync'd audit line. Target: under 1 ms per step.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AuditLog, APPROVAL_PAYLOAD_TYPE, createRecord, ExecutionGuard, generateKeyFiles, keyId, loadPrivateKey, loadTrustedKeys, parseToolsText, planHash, signEnvelope, toolsHash } from "../dist/index.js";
import { decideStep } from "../dist/node/guard.js";

// Approval requires a tool registry: the plan's two tools.
const tools = parseToolsText("read_file\nwrite_file\n", "tools.txt");

// BENCH_DIR picks the file system (e.g. /dev/shm, or a disk); the default is the OS temp folder.
const base = process.env.BENCH_DIR ?? tmpdir();
const root = realpathSync(mkdtempSync(join(base, "plangate-guard-bench-")));
const ws = join(root, "ws");
mkdirSync(ws);
const plan = Array.from({ length: 100 }, (_, i) => ({
  tool: i % 2 ? "write_file" : "read_file",
  description: `step ${i + 1}: ${"x".repeat(40)}`,
  params: { path: `data/file-${i}.txt`, content: "lorem ipsum ".repeat(8), mode: i },
}));
const planFile = join(ws, "plan.json");
writeFileSync(planFile, JSON.stringify(plan, null, 2));
const keys = generateKeyFiles(join(root, "keys"));
const key = loadPrivateKey(keys.privateFile);
const policyHash = "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a";
const now = new Date();
const record = createRecord({ planHash: await planHash(readFileSync(planFile), { file: planFile }), scope: ws, policyHash, toolsHash: toolsHash(tools), steps: 100, now, singleUse: false, neverExpires: true, keyid: keyId(key) });
const approval = JSON.stringify(signEnvelope(APPROVAL_PAYLOAD_TYPE, Buffer.from(JSON.stringify(record)), key, keyId(key)));
const trustedKeys = loadTrustedKeys(keys.publicFile);

const RUNS = 20;
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { mean: s.reduce((a, b) => a + b, 0) / s.length, p50: q(0.5), p99: q(0.99) };
};
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

// Whole step: ExecutionGuard.before (read + hash + compare + audit append with fdatasync).
const whole = [];
for (let r = 0; r < RUNS; r++) {
  const guard = await ExecutionGuard.open({ plan: planFile, approval, workspace: ws, policyHash, tools, trustedKeys, consumedDir: join(root, "consumed"), audit: join(root, `audit-${r}.log`), now: () => now });
  for (const step of plan) {
    const t0 = process.hrtime.bigint();
    const d = await guard.before(step.tool, step.params);
    whole.push(ms(t0));
    if (!d.allow) throw new Error(d.diagnostic.message);
  }
}

// Parts: the decision alone (re-read, re-hash, compare) and the audit append alone.
const decide = [];
const guard = await ExecutionGuard.open({ plan: planFile, approval, workspace: ws, policyHash, tools, trustedKeys, consumedDir: join(root, "consumed"), audit: join(root, "audit-x.log"), now: () => now });
for (let r = 0; r < RUNS; r++)
  for (let i = 0; i < plan.length; i++) {
    const t0 = process.hrtime.bigint();
    await decideStep(guard.plan, i, readFileSync(planFile), plan[i].tool, plan[i].params, now);
    decide.push(ms(t0));
  }
const append = [];
const log = new AuditLog(join(root, "audit-append.log"));
for (let i = 0; i < RUNS * plan.length; i++) {
  const t0 = process.hrtime.bigint();
  log.append({ ts: now.toISOString(), event: "allow", plan_hash: record.plan_hash, nonce: record.nonce, step: (i % 100) + 1, tool: "read_file" });
  append.push(ms(t0));
}
// What a changed-but-equivalent file costs: a full re-parse and canonical hash of the 100-step plan.
const rehash = [];
const bytes = readFileSync(planFile);
for (let i = 0; i < RUNS * 10; i++) {
  const t0 = process.hrtime.bigint();
  await planHash(bytes, { file: planFile });
  rehash.push(ms(t0));
}
rmSync(root, { recursive: true, force: true });

const row = (name, xs) => {
  const s = stats(xs);
  return `| ${name} | ${xs.length} | ${s.mean.toFixed(3)} | ${s.p50.toFixed(3)} | ${s.p99.toFixed(3)} |`;
};
const w = stats(whole);
console.log(`\n### Execution guard, per step (100-step plan, ${plan.length * RUNS} steps, files in ${base})\n`);
console.log("| measure | samples | mean ms | p50 ms | p99 ms |");
console.log("|---|---|---|---|---|");
console.log(row("guard.before: read + sha256 + compare + audit append (fdatasync)", whole));
console.log(row("decision only: read + sha256 + compare", decide));
console.log(row("audit append with fdatasync only", append));
console.log(row("full re-parse + canonical plan hash (file changed)", rehash));
console.log(`\ntarget < 1 ms per step (mean): ${w.mean < 1 ? "met" : "NOT met"}`);
