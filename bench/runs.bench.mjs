// Hook latency against plan length: one PreToolUse decision in a run (find the session's run, lock,
// check the audit trail's end, compare the plan's raw bytes, match the call, append an audit line,
// write the run) for a 10-step and a 1,000-step plan, at the plan's middle step. CPU time of this
// process (user + system), the two sizes interleaved, medians: the machine is shared and noisy. The
// first call of each run reads and hashes the plan; later ones find its stamp unchanged.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { benchKit, policyHash } from "./approval-kit.mjs";
import { decideHook, readRun, startRun, writeRun } from "../dist/store/runs.js";
import { createFileProbe } from "../dist/node/file-probe.js";

const { tools, base, root, trustedKeys, now, approvalOf } = benchKit("runs");
const dir = join(root, "state");

function planOf(n) {
  return Array.from({ length: n }, (_, i) => ({ tool: i % 2 ? "write_file" : "read_file", description: `step ${i + 1}`, params: { path: `data/file-${i}.txt`, content: "lorem ipsum ".repeat(8) } }));
}

/** A workspace with an n-step plan and a run bound to a session, advanced to the plan's middle. */
async function prepared(n, tag) {
  const ws = join(root, `ws-${tag}`);
  mkdirSync(join(ws, "data"), { recursive: true });
  const plan = planOf(n);
  const planFile = join(ws, "plan.json");
  writeFileSync(planFile, JSON.stringify(plan, null, 2));
  const approval = await approvalOf(planFile, ws, n);
  const session = `session-${tag}`;
  const started = await startRun(dir, { plan: planFile, approval, workspace: ws, policyHash, tools, trustedKeys, session, now: () => now });
  // The plan file as it stands two minutes after it was written: its stamp may be remembered (a
  // plan changed within a minute of a check is read again on every call).
  const ctx = { now, mode: "claude", noRunPolicy: async () => { throw new Error("unused"); }, fsNow: () => Date.now() + 120_000, files: createFileProbe };
  const call = (i) => decideHook(dir, { session, cwd: ws, tool: plan[i].tool, args: plan[i].params }, ctx);
  const middle = Math.floor(n / 2);
  // Placed at the middle directly (a decision's cost does not depend on how the cursor got there).
  const run = readRun(dir, started.run_id);
  run.progress = { cursor: { index: middle - 1, count: 1 } };
  writeRun(dir, run);
  return { n, next: middle, plan, call };
}

// Warm-up (not measured): the first decisions in a process load and compile the code they run.
{
  const w = await prepared(400, "warm-up");
  for (let i = w.next; i < w.plan.length; i++) await w.call(i);
}
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const cpuMs = (c) => (c.user + c.system) / 1000;
const samples = { 10: [], 1000: [] };
for (let r = 0; r < ROUNDS; r++) {
  // Fresh runs per round, so each sample decides the middle step of its plan.
  const runs = [await prepared(10, `10-${r}`), await prepared(1000, `1000-${r}`)];
  for (let k = 0; k < 5; k++)
    for (const run of r % 2 ? runs.reverse() : runs) {
      if (run.next >= run.plan.length) continue;
      const t0 = process.cpuUsage();
      const a = await run.call(run.next);
      samples[run.n].push(cpuMs(process.cpuUsage(t0)));
      if (a.decision !== "allow") throw new Error(`step refused: ${a.reason}`);
      run.next++;
    }
}
rmSync(root, { recursive: true, force: true });

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};
console.log(`\n### Hook decision in a run, CPU time (plan's middle step, interleaved, files in ${base})\n`);
console.log("| plan | samples | median CPU ms |");
console.log("|---|---|---|");
for (const n of [10, 1000]) console.log(`| ${n} steps | ${samples[n].length} | ${median(samples[n]).toFixed(3)} |`);
const ratio = median(samples[1000]) / median(samples[10]);
console.log(`\n1,000-step / 10-step median: ${ratio.toFixed(2)}× (target: flat, under 2×)`);
