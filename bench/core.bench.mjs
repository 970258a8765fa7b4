// Full validation of scQC envelopes of 10 to 10,000 steps beside the floor (read + JSON.parse +
// SHA-256 of the same bytes). The CLI's start-up and 400 files in one CLI call beside CPython are in
// bench/startup.bench.mjs (CPU time).
import { envelope, TOOLS } from "./scqc-envelope.mjs";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { validateFile } from "../dist/node/validate-file.js";
import { defaultPolicy } from "../dist/policy/defaults.js";
import { parseToolsText } from "../dist/node/tools-file.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-bench-"));
const tools = parseToolsText(TOOLS.join("\n"), "tools.txt");
writeFileSync(join(dir, "tools.txt"), TOOLS.join("\n") + "\n");
const NOW = new Date("2026-11-22T12:00:00Z");


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
