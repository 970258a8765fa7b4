// Markdown plans: a plan.md of 200 actions against a real workspace of 200 files × 2,000 lines,
// validated in-process (target: under 50 ms), and a count of file reads (each target read once).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Bench } from "tinybench";
// The library's entry point: importing it sets how the shell parser compiles (src/node/wasm-compiler.ts).
import "../dist/index.js";
import { validatePlan } from "../dist/node/validate-plan.js";
import { createFileProbe } from "../dist/node/file-probe.js";
import { defaultPolicy } from "../dist/policy/defaults.js";

const FILES = 200;
const LINES = 2000;
const ACTIONS = 200;

const ws = mkdtempSync(join(tmpdir(), "plangate-bench-teddy-"));
mkdirSync(join(ws, "src"));
for (let f = 0; f < FILES; f++) {
  const lines = [];
  for (let l = 0; l < LINES; l++) lines.push(`def fn_${f}_${l}(x):  # line ${l} of module ${f}`);
  writeFileSync(join(ws, "src", `m${f}.py`), lines.join("\n") + "\n");
}

// EDITs spread over every file (two pairs each), plus READs, CREATEs and EXECUTEs.
const actions = [];
for (let i = 0; i < ACTIONS; i++) {
  const f = i % FILES;
  const path = `src/m${f}.py`;
  if (i % 10 === 7) actions.push(`### \`READ\`\n- **Resource:** [${path}](/${path})`);
  else if (i % 10 === 8) actions.push(`### \`CREATE\`\n- **File Path:** [new/n${i}.py](/new/n${i}.py)\n\`\`\`\`python\nprint(${i})\n\`\`\`\``);
  else if (i % 10 === 9) actions.push("### `EXECUTE`\n- **Description:** test\n````shell\npytest -q\n````");
  else {
    const a = (i * 37) % LINES;
    const b = (a + 900) % LINES;
    const pair = (l) =>
      `#### \`FIND:\`\n\`\`\`\`python\ndef fn_${f}_${l}(x):  # line ${l} of module ${f}\n\`\`\`\`\n#### \`REPLACE:\`\n\`\`\`\`python\ndef fn_${f}_${l}(y):  # line ${l} of module ${f}\n\`\`\`\``;
    actions.push(`### \`EDIT\`\n- **File Path:** [${path}](/${path})\n- **Description:** rename x\n\n${pair(a)}\n${pair(b)}`);
  }
}
const plan = `# Bench plan\n\n## Rationale\n\`\`\`\`text\nMany edits.\n\`\`\`\`\n\n## Action Plan\n\n${actions.join("\n\n---\n\n")}\n`;
const context = Array.from({ length: FILES }, (_, f) => `src/m${f}.py`);
const policy = defaultPolicy(ws);
// The plan edits Python and runs its tests, which load that code: the policy trusts it, as a coding agent's does.
policy.commands.writtenCode = ["python"];
const now = new Date("2026-11-22T12:00:00Z");

// Each validation gets a fresh probe, as a CLI run does: no file is cached across runs.
const reads = new Map();
function countingProbe() {
  const probe = createFileProbe();
  const count = (p) => reads.set(p, (reads.get(p) ?? 0) + 1);
  return {
    ...probe,
    readText(p) {
      count(p);
      return probe.readText(p);
    },
    readBytes(p, options) {
      count(p);
      return probe.readBytes(p, options);
    },
  };
}
const once = await validatePlan(plan, { file: "plan.md", policy, workspace: ws, context, now, files: countingProbe() });
if (!once.valid || once.steps !== ACTIONS) {
  console.error(once.diagnostics.slice(0, 5));
  throw new Error("the benchmark plan should be valid");
}
const maxReads = Math.max(...reads.values());

const bench = new Bench({ time: 2000, warmupTime: 300 });
bench.add(`validate plan.md: ${ACTIONS} actions, ${FILES} files × ${LINES} lines`, async () => {
  await validatePlan(plan, { file: "plan.md", policy, workspace: ws, context, now, files: createFileProbe() });
});
await bench.run();

// CPU time per validation: on a shared machine wall time mostly measures the other processes.
const RUNS = 20;
const cpu0 = process.cpuUsage();
for (let i = 0; i < RUNS; i++) await validatePlan(plan, { file: "plan.md", policy, workspace: ws, context, now, files: createFileProbe() });
const cpu = process.cpuUsage(cpu0);
const cpuMs = (cpu.user + cpu.system) / 1000 / RUNS;
rmSync(ws, { recursive: true, force: true });

console.log("\n### Markdown plans (TeDDy)\n");
console.log("| case | min | median | mean | p99 | target |");
console.log("|---|---|---|---|---|---|");
for (const t of bench.tasks) {
  const r = t.result;
  const mean = r.latency?.mean ?? r.mean;
  const p99 = r.latency?.p99 ?? r.p99;
  const min = r.latency?.min ?? r.min;
  const p50 = r.latency?.p50 ?? r.p50 ?? mean;
  console.log(`| ${t.name} | ${min.toFixed(1)} ms | ${p50.toFixed(1)} ms | ${mean.toFixed(1)} ms | ${p99.toFixed(1)} ms | < 50 ms |`);
}
console.log(`\nCPU time per validation (user + system): ${cpuMs.toFixed(1)} ms. Plan: ${(plan.length / 1024).toFixed(0)} KiB; files read per validation: ${reads.size}, each at most ${maxReads} time(s).`);
