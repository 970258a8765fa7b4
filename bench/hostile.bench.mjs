// Time and peak memory for hostile or oversized input: each case runs in its own process so memory numbers do not
// mix; prints a Markdown table (case, input size, time, peak resident memory, what plangate answered).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "plangate-hostile-"));
const step = (i) => JSON.stringify({ tool: "plot_qc", description: `plot batch ${i}`, params: { batch: i, path: `data/b${i}.h5ad` } });

function jsonPlan(bytes) {
  const one = step(0).length + 2;
  return `[${Array.from({ length: Math.floor(bytes / one) }, (_, i) => step(i)).join(",\n")}]`;
}

function yamlPlan(bytes) {
  const item = (i) => `  - tool: read_file\n    arguments: {path: src/f${i}.ts}\n    intent: read file ${i}\n`;
  let out = "steps:\n";
  for (let i = 0; out.length + 60 < bytes; i++) out += item(i);
  return out;
}

function aliasesPlan(bytes) {
  let out = "s: &s {tool: read_file, arguments: {path: a.txt}, intent: read}\nsteps:\n";
  while (out.length + 6 < bytes) out += "- *s\n";
  return out;
}

function laughs(levels) {
  let t = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n";
  for (let i = 1; i < levels; i++) t += `a${i}: &a${i} [${Array(10).fill(`*a${i - 1}`).join(", ")}]\n`;
  return `${t}steps: *a${levels - 1}\n`;
}

function constraintPlan(steps, glob) {
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, i) => ({ tool: "write_file", arguments: { path: { $glob: glob(i) }, content: "x" }, intent: `write ${i}` })) });
}
function deepWrites(steps) {
  const path = Array.from({ length: 2000 }, () => "a").join("/");
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, i) => ({ tool: "write_file", arguments: { path, content: `${i}` }, intent: `write ${i}` })) });
}
function commandPlan(steps, line) {
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, i) => ({ tool: "run_command", arguments: { command: line(i) }, intent: `run ${i}` })) });
}
const CONSTRAINTS = "tools:\n  allow: [write_file]\nplan:\n  constraints: allow\n";
const MANY_PROTECTED = `${CONSTRAINTS}paths:\n  protected:\n${Array.from({ length: 10_000 }, (_, i) => `    - "d${i}/**/*.k${i}"`).join("\n")}\n`;

const ONLY = process.env.BENCH_ONLY;
const CASES = [
  ["50 MB JSON plan (490k steps; limit 100k)", "big.json", () => jsonPlan(50 * 1024 * 1024)],
  ["YAML plan at the 1 MiB YAML limit", "limit.yaml", () => yamlPlan(1024 * 1024 - 100)],
  ["YAML plan just over the YAML limit", "over.yaml", () => yamlPlan(1024 * 1024 + 100)],
  ["JSON nested 100,000 deep", "deep.json", () => "[".repeat(100_000) + "]".repeat(100_000)],
  ["YAML nested 100,000 deep", "deep.yaml", () => `steps: ${"[".repeat(100_000)}${"]".repeat(100_000)}`],
  ["YAML billion laughs (10^9 nodes)", "laughs.yaml", () => laughs(9)],
  ["YAML 40,000 aliases of one step in 120 KB", "aliases.yaml", () => `s: &s {tool: read_file, arguments: {path: a.txt}, intent: read}\nsteps: [${Array(40_000).fill("*s").join(",")}]\n`],
  ["YAML 1 MiB of aliases at the YAML limit", "aliases-1mib.yaml", () => aliasesPlan(1024 * 1024 - 100)],
  ["JSON: a legacy list of two million numbers", "ones.json", () => `[${Array(2 * 1024 * 1024).fill("1").join(",")}]`],
  ["JSON: 8 MiB of unclosed brackets", "brackets.json", () => "[".repeat(8 * 1024 * 1024)],
  ["JSON: one object of 838,000 keys", "keys.json", () => `{${Array.from({ length: 838_000 }, (_, i) => `"k${i}":1`).join(",")}}`],
  ["Markdown: 1 MiB of setext headings", "setext.md", () => "a\n=\n".repeat(262_144)],
  ["Markdown: 1 MiB of ATX headings", "atx.md", () => "# a\n".repeat(262_144)],
  ["Markdown: 60 MiB of empty lines", "lines.md", () => "\n".repeat(60 * 1024 * 1024)],
  ["20,000 unknown tools, every one located", "unknown.json", () => JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ tool: `tool_${i}` })))],
  ["a 2 MiB string (limit 1 MiB)", "string.json", () => `[{"tool": "plot_qc", "description": "${"a".repeat(2 << 20)}"}]`],
  ["a 1 GiB sparse file (limit 64 MiB)", "sparse.json", null],
  ["JSON: 2 MiB of duplicate keys on one line", "dups.json", () => `{${Array.from({ length: 349_525 }, (_, i) => `"k":${i % 10}`).join(",")}}`],
  ["JSON: 16 MiB of numbers whose lexemes matter (1e5)", "lexemes.json", () => `[{"tool": "plot_qc", "params": {"x": [${"1e5,".repeat(4 << 20)}1]}}]`],
  ["Markdown: one paragraph of 16 MiB of '['", "brackets.md", () => "# Plan\n\n## Action Plan\n\n" + "[".repeat(16 << 20) + "\n"],
  // The rows below read the policy (plangate.yaml) written beside the plan.
  ["Policy: 1,000 writes with 1024-character $glob constraints", "globs.json", () => constraintPlan(1_000, (i) => "[a-z]*".repeat(170) + i), CONSTRAINTS],
  ["Policy: 10,000 writes with short $glob constraints", "short-globs.json", () => constraintPlan(10_000, (i) => `src/d${i}/**/*.py`), CONSTRAINTS],
  ["Policy: 10,000 protected globs, 100 writes with a $glob", "protected.json", () => constraintPlan(100, (i) => `src/**/f${i}*.txt`), MANY_PROTECTED],
  ["Commands: 100 distinct 16 KB lines of extended globs", "extglob.json", () => commandPlan(100, (i) => `rm x${i} ` + "@(a|b)".repeat(2660))],
  ["Commands: 3,900 distinct 16 KB lines of 8,000 commands", "chained.json", () => commandPlan(3_900, (i) => `x${i};` + "a;".repeat(7995))],
  ["Commands: 3,000 steps of one 16 KB line of */ patterns", "patterns.json", () => commandPlan(3_000, () => "rm " + "*/".repeat(7998))],
  ["Paths: 60 writes of 1 MiB paths", "long-paths.json", () => JSON.stringify({ scope: ".", steps: Array.from({ length: 60 }, (_, i) => ({ tool: "write_file", arguments: { path: `d${i}/` + "a/".repeat(520_000), content: "x" }, intent: "w" })) })],
  ["Policy: protected globs with three runs, 100 writes of 4 KB paths", "runs.json", () => deepWrites(100), `${CONSTRAINTS}paths:\n  protected: ["**/a/**/a/**/b", "**/*a*a*a*b"]\n`],
];

const child = `
  const { validateFile } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
  const { parseToolsText } = await import(${JSON.stringify(new URL("../dist/node/tools-file.js", import.meta.url).href)});
  const t0 = performance.now();
  const r = await validateFile(process.argv[1], { now: new Date(0), workspace: "/tmp", tools: parseToolsText("plot_qc\\nread_file", "t") });
  const ms = performance.now() - t0;
  // Peak resident memory of the whole process (Node itself is ~45 MB): sampling the heap from a timer
  // would miss the peak, which happens inside synchronous parsing.
  const rss = process.resourceUsage().maxRSS * 1024;
  const rules = [...new Set(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule))];
  console.log(JSON.stringify({ ms, rss, rules, n: r.diagnostics.length }));
`;

console.log("| case | input | time | peak RSS | answer |");
console.log("|---|---:|---:|---:|---|");
for (const [name, file, make, policy] of CASES.filter(([n]) => !ONLY || n.includes(ONLY))) {
  let path = join(dir, file);
  if (policy) {
    mkdirSync(join(dir, file + ".d"));
    writeFileSync(join(dir, file + ".d", "plangate.yaml"), policy);
    path = join(dir, file + ".d", file);
  }
  let size;
  if (make) {
    const text = make();
    writeFileSync(path, text);
    size = Buffer.byteLength(text);
  } else {
    writeFileSync(path, "");
    size = 1024 ** 3;
    truncateSync(path, size);
  }
  const out = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=1024", "--input-type=module", "-e", child, path], { encoding: "utf8" });
  if (out.status !== 0) {
    console.log(`| ${name} | ${mb(size)} | crashed | | ${out.stderr.split("\n").find((l) => l.trim()) ?? ""} |`);
    continue;
  }
  const r = JSON.parse(out.stdout);
  const answer = r.rules.length ? r.rules.map((x) => `\`${x}\``).join(", ") + (r.n > 1 ? ` (${r.n} diagnostics)` : "") : "valid";
  console.log(`| ${name} | ${mb(size)} | ${Math.round(r.ms)} ms | ${mb(r.rss)} | ${answer} |`);
}
rmSync(dir, { recursive: true, force: true });

function mb(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(0)} KB`;
}
