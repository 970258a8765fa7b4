// iKOMA plan of 100 steps: plangate's validatePlan in-process vs iKOMA's own Pydantic v2 models
// (Plan.model_validate_json, iKOMA's contract) in one Python process. The Python row is skipped without pydantic.
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Compile } from "typebox/compile";
import { validatePlan } from "../dist/node/validate-plan.js";
import { parseToolsText } from "../dist/node/tools-file.js";
import { IkomaPlanSchema } from "../dist/schemas/ikoma.js";
import { interleaved } from "./cpu.mjs";

const STEPS = 100;
const toolNames = ["search_web", "create_text_file", "read_text_file", "list_sandbox_files"];
const plan = {
  plan: Array.from({ length: STEPS }, (_, i) => ({
    step: i + 1,
    tool_name: toolNames[i % toolNames.length],
    args: { query: `question ${i}`, filename_and_content: `notes_${i}.txt|||line ${i}` },
    description: `Step ${i + 1}: gather and record finding ${i} [[1]]`,
    citations: [1, 2],
  })),
  reasoning: "Collect the facts one by one and write each down.",
};
const text = JSON.stringify(plan, null, 2);
const tools = parseToolsText(toolNames.join("\n"), "tools.txt");
const now = new Date("2026-01-01T00:00:00Z");
// The in-memory probe keeps file-system time out of the comparison (iKOMA's models do no I/O either).
const files = { kind: () => "missing", size: () => undefined, realpath: () => undefined, readlink: () => undefined, readText: () => undefined };

const first = await validatePlan(text, { file: "plan.json", tools, now, files });
if (!first.valid) throw new Error(`benchmark plan rejected: ${JSON.stringify(first.diagnostics)}`);
const rows = [];
const check = Compile(IkomaPlanSchema);
// CPU time, the two interleaved, medians of the rounds (ms per call, shown in µs).
const cpu = await interleaved({
  full: () => validatePlan(text, { file: "plan.json", tools, now, files }),
  schema: () => check.Check(JSON.parse(text)),
});
rows.push(["plangate validatePlan (read, dialect, every rule)", cpu.full * 1000]);
rows.push(["plangate schema only (JSON.parse + compiled ikoma schema)", cpu.schema * 1000]);

const py = spawnSync("python3", ["-c", "import pydantic"], { encoding: "utf8" });
if (py.status === 0) {
  const dir = mkdtempSync(join(tmpdir(), "plangate-bench-"));
  writeFileSync(join(dir, "plan.json"), text);
  writeFileSync(join(dir, "tools.txt"), toolNames.join("\n"));
  const r = spawnSync("python3", [new URL("./ikoma_models.py", import.meta.url).pathname, join(dir, "plan.json"), join(dir, "tools.txt"), "3000"], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(r.stderr);
  const out = JSON.parse(r.stdout);
  rows.push([`Pydantic ${out.pydantic} Plan.model_validate_json (iKOMA's models)`, out.ns_per_plan / 1000]);
} else {
  console.error("python3 with pydantic not found: the Pydantic row is skipped");
}

console.log(`\n### iKOMA plan, ${STEPS} steps (${text.length} bytes), Node ${process.versions.node}\n`);
console.log("| validator | µs of CPU per plan (median) | plans per CPU second |");
console.log("|---|---:|---:|");
for (const [name, us] of rows) console.log(`| ${name} | ${us.toFixed(1)} | ${Math.round(1e6 / us).toLocaleString("en-US")} |`);
