// Full validation of scQC envelopes of 10 to 10,000 steps beside the floor (read + JSON.parse +
// SHA-256 of the same bytes). The CLI's start-up and 400 files in one CLI call beside CPython are in
// bench/startup.bench.mjs (CPU time).
import { envelope, TOOLS } from "./scqc-envelope.mjs";
import { interleaved } from "./cpu.mjs";
import { spawnSync } from "node:child_process";
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


const policy = defaultPolicy(dir);
const rows = [];
const perPlan = {};
for (const n of [10, 100, 1000, 10000]) {
  const file = join(dir, `plan-${n}.json`);
  writeFileSync(file, envelope(n));
  // CPU time, the floor and the full validation interleaved, medians of the rounds.
  const fewer = n >= 1000 ? { rounds: 9, batch: n >= 10000 ? 2 : 10, warmup: n >= 10000 ? 3 : 20 } : {};
  const { floor, full } = await interleaved(
    {
      floor: () => {
        const b = readFileSync(file);
        JSON.parse(b.toString("utf8"));
        createHash("sha256").update(b).digest("hex");
      },
      full: async () => {
        const r = await validateFile(file, { policy, tools, now: NOW });
        if (!r.valid) throw new Error(JSON.stringify(r.diagnostics));
      },
    },
    fewer,
  );
  perPlan[n] = full;
  rows.push(`| ${n} | ${(readFileSync(file).length / 1024).toFixed(0)} KB | ${floor.toFixed(3)} ms | ${full.toFixed(3)} ms | ${(full / floor).toFixed(2)}x |`);
}
console.log("\n### scQC envelope validation (in-process, CPU time, interleaved, median)\n");
console.log("| steps | size | floor (read + JSON.parse + SHA-256) | plangate validate | ratio |");
console.log("|---|---|---|---|---|");
for (const r of rows) console.log(r);
console.log(`\n10,000 steps / 100 steps: ${(perPlan[10000] / perPlan[100]).toFixed(1)}x (linear would be 100x; each size's median on its own)`);

// The same ratio measured in pairs: each round validates the 100-step plan 100 times and the 10,000-step
// plan twice, back to back, and the ratio is taken within the round; the median and the range of the
// rounds' ratios. Load that comes and goes then falls on both sizes of a pair alike. But the 100-step
// validations right after a 10,000-step one run slower than in steady state (1.2 to 3 ms against 0.8 to
// 1 ms on the machine the README's figures come from), so this ratio understates the cost: the target is
// judged on the ratio of each size's median on its own, above.
{
  const small = join(dir, "plan-100.json");
  const large = join(dir, "plan-10000.json");
  const run = async (file, times) => {
    // Each batch starts from a collected heap (run.mjs gives --expose-gc), so that no batch pays for the
    // garbage of the one before it; a validation's own collections still count.
    globalThis.gc?.();
    const t0 = process.cpuUsage();
    for (let i = 0; i < times; i++) await validateFile(file, { policy, tools, now: NOW });
    const d = process.cpuUsage(t0);
    return (d.user + d.system) / 1000 / times;
  };
  await run(small, 50);
  await run(large, 2);
  const ratios = [];
  const ROUNDS = 21;
  for (let r = 0; r < ROUNDS; r++) {
    const a = await run(small, 100);
    const b = await run(large, 2);
    ratios.push(b / a);
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const mid = (ROUNDS - 1) / 2;
  console.log(`10,000 steps / 100 steps, in pairs: ${sorted[mid].toFixed(1)}x (median of ${ROUNDS} rounds; ${sorted[0].toFixed(1)}x to ${sorted[ROUNDS - 1].toFixed(1)}x, middle half ${sorted[Math.floor(ROUNDS / 4)].toFixed(1)}x to ${sorted[Math.ceil((3 * ROUNDS) / 4) - 1].toFixed(1)}x)`);
}

// Peak memory of one 10,000-step validation, in a process of its own beside one that only loads plangate
// and reads the same file (so the difference is what validation holds at its peak).
const peak = (validate) => {
  const code = `
    const { readFileSync } = await import("node:fs");
    const { validateFile } = await import(${JSON.stringify(new URL("../dist/node/validate-file.js", import.meta.url).href)});
    const { defaultPolicy } = await import(${JSON.stringify(new URL("../dist/policy/defaults.js", import.meta.url).href)});
    const file = ${JSON.stringify(join(dir, "plan-10000.json"))};
    readFileSync(file);
    if (${validate}) await validateFile(file, { policy: defaultPolicy(${JSON.stringify(dir)}), now: new Date("2026-11-22T12:00:00Z") });
    process.stdout.write(String(process.resourceUsage().maxRSS));`;
  const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  return Number(r.stdout) / 1024;
};
const base = peak(false);
const withValidation = peak(true);
console.log(`\nPeak resident memory, 10,000 steps (${(readFileSync(join(dir, "plan-10000.json")).length / 1024 / 1024).toFixed(1)} MB): ${withValidation.toFixed(0)} MB, ${(withValidation - base).toFixed(0)} MB above loading plangate and reading the file (${base.toFixed(0)} MB).`);
