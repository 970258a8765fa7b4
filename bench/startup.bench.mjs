// Start-up and one-process throughput of the CLI, in CPU time (user + system of the child, from wait4,
// through bench/cputime.py), the compared commands interleaved and the medians of several runs taken,
// since this machine is shared: the CLI's cold start (a 100-step scQC plan) and one guard hook call
// (a Claude Code PreToolUse call that is the run's next approved step) beside `node -e 0`, and 400
// 100-step scQC files through one CLI process beside CPython running scQC's own checks.
import { envelope, TOOLS } from "./scqc-envelope.mjs";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const python = spawnSync("python3", ["--version"]).status === 0;
if (!python) {
  console.log("\n### Start-up (CPU time)\n\nskipped: python3 (which measures the children's CPU time) not found");
  process.exit(0);
}
// PLANGATE_BIN: another build's bin/plangate.js, to compare.
const bin = process.env.PLANGATE_BIN ?? new URL("../bin/plangate.js", import.meta.url).pathname;
const cputime = new URL("./cputime.py", import.meta.url).pathname;
const dir = realpathSync(mkdtempSync(join(tmpdir(), "plangate-startup-bench-")));
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
/** CPU seconds of each command, run in the order given. */
function cpu(commands) {
  const r = spawnSync("python3", [cputime], { input: JSON.stringify(commands), maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(String(r.stderr));
  return JSON.parse(String(r.stdout));
}
/** Runs each named command `rounds` times, interleaved (a, b, c, a, b, c, …); the CPU times by name. */
function interleaved(named, rounds) {
  const names = Object.keys(named);
  const list = [];
  for (let k = 0; k < rounds; k++) for (const n of names) list.push(named[n]);
  const t = cpu(list);
  const by = Object.fromEntries(names.map((n) => [n, []]));
  t.forEach((s, i) => by[names[i % names.length]].push(s * 1000));
  return by;
}
const node = (...args) => ({ argv: [process.execPath, ...args], cwd: dir });
const cli = (args, more = {}) => ({ argv: [process.execPath, bin, ...args], cwd: dir, ...more });

// scQC envelopes of 100 steps, as bench/core.bench.mjs makes them.
writeFileSync(join(dir, "tools.txt"), TOOLS.join("\n") + "\n");
const one = join(dir, "plan-100.json");
writeFileSync(one, envelope(100));

// A guarded run: an approved plan of identical read_file steps, so each hook call is the next step.
const RUNS = 21;
const ws = join(dir, "ws");
mkdirSync(ws);
writeFileSync(join(ws, "in.txt"), "x\n");
const steps = Array.from({ length: RUNS * 5 + 10 }, () => ({ tool: "read_file", description: "read the input", params: { path: "in.txt" } }));
writeFileSync(join(ws, "plan.json"), JSON.stringify(steps, null, 2));
writeFileSync(join(dir, "guard-tools.txt"), "read_file\n");
const run = (args, cwd = dir) => {
  const r = spawnSync(process.execPath, [bin, ...args], { cwd });
  if (r.status !== 0) throw new Error(`plangate ${args.join(" ")}: ${r.stdout}${r.stderr}`);
};
run(["keygen", "--out", join(dir, "keys")]);
run(["approve", "plan.json", "--no-policy", "--tools", join(dir, "guard-tools.txt"), "--key", join(dir, "keys", "plangate.key"), "--out", join(dir, "approval.json")], ws);
const state = join(dir, "state");
run(["guard", "start", "plan.json", "--no-policy", "--tools", join(dir, "guard-tools.txt"), "--approval", join(dir, "approval.json"), "--trusted-keys", join(dir, "keys", "plangate.pub"), "--state-dir", state, "--session", "s"], ws);
const hookInput = join(dir, "hook.json");
writeFileSync(hookInput, JSON.stringify({ session_id: "s", transcript_path: "/t", cwd: ws, hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: { path: "in.txt" } }));

const start = interleaved(
  {
    empty: node("-e", "0"),
    validate: cli(["validate", one, "--tools", join(dir, "tools.txt")]),
    hook: cli(["guard", "--state-dir", state, "--no-policy"], { stdin: hookInput, cwd: ws }),
    hookPipe: cli(["guard", "--state-dir", state, "--no-policy"], { stdin: hookInput, feed: "pipe", cwd: ws }),
    hookSocket: cli(["guard", "--state-dir", state, "--no-policy"], { stdin: hookInput, feed: "socket", cwd: ws }),
  },
  RUNS,
);
const e = median(start.empty);
console.log(`\n### Start-up (CPU time, median of ${RUNS}, interleaved)\n`);
console.log("| command | CPU time | ratio to `node -e 0` |");
console.log("|---|---|---|");
console.log(`| node -e 0 | ${e.toFixed(1)} ms | 1.00x |`);
console.log(`| plangate validate (100-step scQC plan) | ${median(start.validate).toFixed(1)} ms | ${(median(start.validate) / e).toFixed(2)}x |`);
console.log(`| plangate guard (one hook call, allowed) | ${median(start.hook).toFixed(1)} ms | ${(median(start.hook) / e).toFixed(2)}x |`);
console.log(`| the same call through a pipe | ${median(start.hookPipe).toFixed(1)} ms | ${(median(start.hookPipe) / e).toFixed(2)}x |`);
console.log(`| the same call through a socket (as Node's child_process gives it) | ${median(start.hookSocket).toFixed(1)} ms | ${(median(start.hookSocket) / e).toFixed(2)}x |`);

// 400 files of 100 steps, one process each side.
const many = [];
for (let i = 0; i < 400; i++) {
  const f = join(dir, `many-${i}.json`);
  writeFileSync(f, envelope(100));
  many.push(f);
}
const ROUNDS = 5;
const bulk = interleaved(
  {
    plangate: cli(["validate", "--tools", join(dir, "tools.txt"), "--output", "json", ...many]),
    python: { argv: ["python3", new URL("./scqc_checks.py", import.meta.url).pathname, join(dir, "tools.txt"), ...many], cwd: dir },
  },
  ROUNDS,
);
const p = median(bulk.plangate);
const y = median(bulk.python);
console.log(`\n### 400 files of 100 steps, one process (CPU time, median of ${ROUNDS}, interleaved)\n`);
console.log("| tool | CPU time | ratio to plangate |");
console.log("|---|---|---|");
console.log(`| plangate validate --output json (incl. start-up) | ${p.toFixed(0)} ms | 1.00x |`);
console.log(`| CPython, scQC's own checks (incl. start-up) | ${y.toFixed(0)} ms | ${(y / p).toFixed(2)}x |`);
rmSync(dir, { recursive: true, force: true });
