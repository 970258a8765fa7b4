// Full validation of scQC envelopes of 10 to 10,000 steps beside the floor (read + JSON.parse +
// SHA-256 of the same bytes), 400 files in one CLI call beside CPython running scQC's checks,
// and the CLI's cold start beside `node -e 0`.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pythonChecksum } from "../dist/core/canonical/python-json.js";
import { validateFile } from "../dist/node/validate-file.js";
import { defaultPolicy } from "../dist/policy/defaults.js";
import { parseToolsText } from "../dist/node/tools-file.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-bench-"));
const TOOLS = ["load_data", "compute_qc_metrics", "plot_qc", "apply_qc_filters", "quick_graph", "run_scar"];
const tools = parseToolsText(TOOLS.join("\n"), "tools.txt");
writeFileSync(join(dir, "tools.txt"), TOOLS.join("\n") + "\n");
const NOW = new Date("2026-11-22T12:00:00Z");

function envelope(n) {
  const plan = [];
  for (let i = 0; i < n; i++)
    plan.push({
      tool: TOOLS[i % TOOLS.length],
      description: `Step ${i + 1}: run ${TOOLS[i % TOOLS.length]} on batch ${i} (µ=0.5)`,
      params: { species: i % 2 ? "human" : "mouse", min_genes: 200 + i, max_pct_mt: 20.5, file_path: `data/batch_${i}.h5ad`, flags: [true, null, 1e-5] },
    });
  return JSON.stringify(
    { version: "1.0", created_at: "2026-11-20T10:00:00.000000", message: "bench", intent: "compute_qc", checksum: pythonChecksum(plan), plan },
    null,
    2,
  );
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

async function time(fn, minMs = 300, minRuns = 5) {
  const samples = [];
  const start = performance.now();
  while (samples.length < minRuns || performance.now() - start < minMs) {
    const t = performance.now();
    await fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const policy = defaultPolicy(dir);
const rows = [];
const perPlan = {};
for (const n of [10, 100, 1000, 10000]) {
  const file = join(dir, `plan-${n}.json`);
  writeFileSync(file, envelope(n));
  const floor = await time(() => {
    const b = readFileSync(file);
    JSON.parse(b.toString("utf8"));
    createHash("sha256").update(b).digest("hex");
  });
  const full = await time(async () => {
    const r = await validateFile(file, { policy, tools, now: NOW });
    if (!r.valid) throw new Error(JSON.stringify(r.diagnostics));
  });
  perPlan[n] = full;
  rows.push(`| ${n} | ${(readFileSync(file).length / 1024).toFixed(0)} KB | ${floor.toFixed(3)} ms | ${full.toFixed(3)} ms | ${(full / floor).toFixed(2)}x |`);
}
console.log("\n### scQC envelope validation (in-process, median)\n");
console.log("| steps | size | floor (read + JSON.parse + SHA-256) | plangate validate | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\n10,000 steps / 100 steps: ${(perPlan[10000] / perPlan[100]).toFixed(1)}x (linear would be 100x)`);

// 400 files of 100 steps, one process each side.
const many = [];
for (let i = 0; i < 400; i++) {
  const f = join(dir, `many-${i}.json`);
  writeFileSync(f, envelope(100));
  many.push(f);
}
const bin = new URL("../bin/plangate.js", import.meta.url).pathname;
const runs = [];
for (let k = 0; k < 3; k++) {
  const t = performance.now();
  const r = spawnSync(process.execPath, [bin, "validate", "--tools", join(dir, "tools.txt"), "--output", "json", ...many], { cwd: dir, maxBuffer: 1 << 28 });
  runs.push(performance.now() - t);
  if (r.status !== 0) throw new Error(`plangate exited ${r.status}: ${r.stderr}`);
}
const plangateMany = median(runs);
const py = spawnSync("python3", ["--version"]);
console.log("\n### 400 files of 100 steps, one call (wall time, median of 3)\n");
console.log("| tool | time | vs plangate |");
console.log("|---|---|---|");
console.log(`| plangate validate (CLI, incl. start-up) | ${plangateMany.toFixed(0)} ms | 1.00x |`);
if (py.status === 0) {
  const script = new URL("./scqc_checks.py", import.meta.url).pathname;
  const pyRuns = [];
  for (let k = 0; k < 3; k++) {
    const t = performance.now();
    const r = spawnSync("python3", [script, join(dir, "tools.txt"), ...many], { maxBuffer: 1 << 26 });
    pyRuns.push(performance.now() - t);
    if (r.status !== 0) throw new Error(String(r.stderr));
  }
  const pyMany = median(pyRuns);
  const ratio = pyMany / plangateMany;
  const verdict = ratio >= 1 ? `${ratio.toFixed(2)}x slower than plangate` : `${(1 / ratio).toFixed(2)}x faster than plangate`;
  console.log(`| CPython, scQC's own checks (incl. start-up) | ${pyMany.toFixed(0)} ms | ${verdict} |`);
} else {
  console.log("| CPython | skipped: python3 not found | |");
}

// Cold start: one 100-step plan through the CLI vs an empty node.
const one = join(dir, "plan-100.json");
const cold = [];
const empty = [];
for (let k = 0; k < 15; k++) {
  let t = performance.now();
  spawnSync(process.execPath, ["-e", "0"]);
  empty.push(performance.now() - t);
  t = performance.now();
  const r = spawnSync(process.execPath, [bin, "validate", one, "--tools", join(dir, "tools.txt")], { cwd: dir });
  cold.push(performance.now() - t);
  if (r.status !== 0) throw new Error(String(r.stdout));
}
console.log("\n### CLI cold start (wall time, median of 15)\n");
console.log("| command | time | ratio |");
console.log("|---|---|---|");
console.log(`| node -e 0 | ${median(empty).toFixed(1)} ms | 1.00x |`);
console.log(`| plangate validate (100 steps) | ${median(cold).toFixed(1)} ms | ${(median(cold) / median(empty)).toFixed(2)}x |`);
