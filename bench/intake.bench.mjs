// Intake plan validation: a 100-step plan with a registry of 50 tools with inputSchemas, every rule on,
// against the floor (read + JSON.parse + SHA-256) and, for YAML, the yaml package's own parse.
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { interleaved } from "./cpu.mjs";
import { parse as yamlParse, stringify as yamlStringify } from "yaml";
import { validatePlan } from "../dist/node/validate-plan.js";
import { createFileProbe } from "../dist/node/file-probe.js";
import { parseToolsText } from "../dist/node/tools-file.js";
import { defaultPolicy } from "../dist/policy/defaults.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-bench-"));
mkdirSync(join(dir, "data"));
const tools = Array.from({ length: 50 }, (_, i) => ({
  name: `tool_${i}`,
  inputSchema: {
    ...(i % 2 ? { $schema: "http://json-schema.org/draft-07/schema#" } : {}),
    type: "object",
    properties: {
      path: { type: "string", format: "path" },
      mode: { enum: ["fast", "full"] },
      count: { type: "integer", minimum: 0 },
      content: { type: "string" },
    },
    required: ["path"],
    additionalProperties: false,
  },
}));
const registry = parseToolsText(JSON.stringify({ tools }), "tools.json");
// The same registry with three patterns per schema: they run on RE2 (re2js), not on the backtracking engine.
const patterned = parseToolsText(
  JSON.stringify({
    tools: tools.map((t) => ({
      ...t,
      inputSchema: {
        ...t.inputSchema,
        properties: {
          ...t.inputSchema.properties,
          path: { type: "string", format: "path", pattern: "^[A-Za-z0-9_./-]{1,255}$" },
          mode: { enum: ["fast", "full"], pattern: "^(fast|full)$" },
          content: { type: "string", pattern: "^[^\\u0000]*$" },
        },
      },
    })),
  }),
  "tools-patterns.json",
);
const plan = {
  scope: ".",
  steps: Array.from({ length: 100 }, (_, i) => ({
    tool: `tool_${i % 50}`,
    arguments: { path: `data/file-${i}.csv`, mode: i % 2 ? "fast" : "full", count: i, content: `# part ${i}\n`.repeat(5) },
    intent: `Process part ${i} of the input`,
    timeout: 60,
  })),
};
const jsonFile = join(dir, "plan.json");
const yamlFile = join(dir, "plan.yaml");
writeFileSync(jsonFile, JSON.stringify(plan, null, 2));
writeFileSync(yamlFile, yamlStringify(plan));
const policy = defaultPolicy(dir);
const files = createFileProbe();
const options = (file) => ({ file, policy, tools: registry, files, now: new Date("2026-11-22T12:00:00Z") });

// Warm-up and a correctness check: the plan is valid, and both spellings have one hash.
const a = await validatePlan(readFileSync(jsonFile), options("plan.json"));
const b = await validatePlan(readFileSync(yamlFile), options("plan.yaml"));
const c = await validatePlan(readFileSync(jsonFile), { ...options("plan.json"), tools: patterned });
if (!c.valid) throw new Error(`bench plan not valid with patterns: ${JSON.stringify(c.diagnostics.slice(0, 3))}`);
if (!a.valid || !b.valid || a.planHash !== b.planHash) throw new Error(`bench plan not valid: ${JSON.stringify(a.diagnostics.slice(0, 3))}`);

// CPU time, every task interleaved in rounds, medians (ms of CPU per call).
const tasks = {
  "floor: read + JSON.parse + SHA-256": () => {
    const buf = readFileSync(jsonFile);
    JSON.parse(buf.toString("utf8"));
    createHash("sha256").update(buf).digest("hex");
  },
  "validate JSON (all rules)": () => validatePlan(readFileSync(jsonFile), options("plan.json")),
  "validate JSON (all rules, 3 schema patterns a tool, RE2)": () => validatePlan(readFileSync(jsonFile), { ...options("plan.json"), tools: patterned }),
  "yaml package: read + parse": () => yamlParse(readFileSync(yamlFile, "utf8")),
  "validate YAML (all rules)": () => validatePlan(readFileSync(yamlFile), options("plan.yaml")),
};
const cpu = await interleaved(tasks, { rounds: 15, batch: 20, warmup: 50 });
rmSync(dir, { recursive: true, force: true });

const floor = cpu["floor: read + JSON.parse + SHA-256"];
const yamlFloor = cpu["yaml package: read + parse"];
console.log(`\n### Intake plan: 100 steps, 50 tools with inputSchemas (${JSON.stringify(plan).length} bytes of JSON)\n`);
console.log("| task | CPU time, median (ms) | vs. its floor | target |");
console.log("|---|---:|---:|---|");
for (const [name, m] of Object.entries(cpu)) {
  const base = name.includes("YAML") ? yamlFloor : floor;
  const ratio = name.startsWith("validate") ? `${(m / base).toFixed(2)}x` : "1x";
  const target = name.startsWith("validate") ? (m / base <= 3 ? "≤ 3x: met" : "≤ 3x: **missed**") : "";
  console.log(`| ${name} | ${m.toFixed(3)} | ${ratio} | ${target} |`);
}
