// Time and peak memory for hostile or oversized input: each case runs in its own process so memory numbers do not
// mix; prints a Markdown table (case, input size, time, peak resident memory, what plangate answered).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
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
/** A step whose command line names `paths` paths and whose arguments name `folders` folders (`dirs: [{cwd}]`). */
function folderCommands(steps, folders, paths) {
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, i) => ({ tool: "run_command", arguments: { command: "cat " + Array.from({ length: paths }, (_, j) => `s${i}p${j}/q`).join(" "), dirs: Array.from({ length: folders }, (_, j) => ({ cwd: `f${j}` })) }, intent: "w" })) });
}
/** Steps of `paths` relative paths each, read from `folders` folders each. */
function folderPaths(steps, folders, paths) {
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, s) => ({ tool: "write_file", arguments: { content: "x", files: Array.from({ length: paths }, (_, i) => ({ path: `s${s}/p${i}` })), dirs: Array.from({ length: folders }, (_, j) => ({ cwd: `s${s}f${j}` })) }, intent: "w" })) });
}
/** Steps of `n` names and `n` extensions given apart. */
function namesAndExtensions(steps, n) {
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, s) => ({ tool: "write_file", arguments: { path: "out.txt", content: "x", ext: Array.from({ length: n }, (_, i) => ({ ext: `e${s}x${i}` })), names: Array.from({ length: n }, (_, i) => `n${s}x${i}`) }, intent: "w" })) });
}
/** Steps of seven arguments, each a JSON list of some 600 paths as text. */
function structuredText(steps) {
  const list = (s, k) => {
    const a = [];
    for (let i = 0; JSON.stringify(a).length < 4000; i++) a.push(`${s}x${k}/${i}`);
    return JSON.stringify(a);
  };
  return JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, s) => ({ tool: "run_x", arguments: Object.fromEntries(Array.from({ length: 7 }, (_, k) => [`opt${k}`, list(s, k)])), intent: "w" })) });
}
/** A TeDDy plan that CREATEs a MiB of `a` and EDITs it with a FIND of 128 KiB of `a` with a `b` in the middle. */
function longFind() {
  const block = (text) => "```text\n" + text + "\n```\n";
  return (
    "# Edit\n\n## Rationale\n" + block("why") + "\n## Action Plan\n\n### `CREATE`\n- **File Path:** [new.txt](/new.txt)\n- **Description:** make it.\n" + block("a".repeat(1 << 20)) +
    "\n---\n\n### `EDIT`\n- **File Path:** [new.txt](/new.txt)\n- **Description:** edit it.\n\n#### `FIND:`\n" + block("a".repeat(65536) + "b" + "a".repeat(65536)) + "#### `REPLACE:`\n" + block("b")
  );
}
/** A workspace of a folder of 4,000 files and 25 folders of 4,000 files each. */
function manyFiles(ws) {
  mkdirSync(join(ws, "d"), { recursive: true });
  for (let i = 0; i < 4000; i++) writeFileSync(join(ws, "d", `file${i}`), "");
  for (let t = 0; t < 25; t++) {
    mkdirSync(join(ws, "t", `${t}`), { recursive: true });
    for (let i = 0; i < 4000; i++) writeFileSync(join(ws, "t", `${t}`, `f${i}`), "");
  }
  return ws;
}
/** A workspace with a link `a` whose target goes down and up 800 times, and `b` to `a`. */
function linkChain(ws) {
  mkdirSync(join(ws, "x"), { recursive: true });
  symlinkSync("x/../".repeat(800) + ".", join(ws, "a"));
  symlinkSync("a", join(ws, "b"));
  return ws;
}
const patternLines = (steps, pattern) =>
  JSON.stringify({ scope: ".", steps: Array.from({ length: steps }, (_, s) => ({ tool: "run_command", arguments: { command: "cat " + Array.from({ length: 1600 }, (_, j) => pattern((s * 3000 + j).toString(36))).join(" ") }, intent: "w" })) });
const linkPaths = (n) => JSON.stringify({ scope: ".", steps: Array.from({ length: n }, (_, i) => ({ tool: "read_file", arguments: { path: Array.from({ length: 17 }, (_, j) => ((i >> j) & 1 ? "a" : "b")).join("/") + "/f.txt" }, intent: "r" })) });
const CONSTRAINTS = "tools:\n  allow: [write_file]\nplan:\n  constraints: allow\n";
const MANY_PROTECTED = `${CONSTRAINTS}paths:\n  protected:\n${Array.from({ length: 4_000 }, (_, i) => `    - "d${i}/**/*.k${i}"`).join("\n")}\n`;

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
  ["Policy: 4,000 protected globs, 100 writes with a $glob", "protected.json", () => constraintPlan(100, (i) => `src/**/f${i}*.txt`), MANY_PROTECTED],
  ["Commands: 100 distinct 16 KB lines of extended globs", "extglob.json", () => commandPlan(100, (i) => `rm x${i} ` + "@(a|b)".repeat(2660))],
  ["Commands: 3,900 distinct 16 KB lines of 8,000 commands", "chained.json", () => commandPlan(3_900, (i) => `x${i};` + "a;".repeat(7995))],
  ["Commands: 3,000 steps of one 16 KB line of */ patterns", "patterns.json", () => commandPlan(3_000, () => "rm " + "*/".repeat(7998))],
  ["Paths: 60 writes of 1 MiB paths", "long-paths.json", () => JSON.stringify({ scope: ".", steps: Array.from({ length: 60 }, (_, i) => ({ tool: "write_file", arguments: { path: `d${i}/` + "a/".repeat(520_000), content: "x" }, intent: "w" })) })],
  ["Policy: protected globs with three runs, 100 writes of 4 KB paths", "runs.json", () => deepWrites(100), `${CONSTRAINTS}paths:\n  protected: ["**/a/**/a/**/b", "**/*a*a*a*b"]\n`],
  // The rows below are bounded per validation (src/core/work.ts); the last two read a workspace of their own.
  ["Work: 40 steps of 1,000 command paths in 64 folders", "folder-commands.json", () => folderCommands(40, 64, 1000)],
  ["Work: 1,000 steps of one line of 1,600 paths", "repeated-line.json", () => commandPlan(1000, () => "cat " + Array.from({ length: 1600 }, (_, j) => `p${j}/q`).join(" "))],
  ["Work: 200 steps of 450 paths in 63 folders", "folder-paths.json", () => folderPaths(200, 63, 450)],
  ["Work: 100 steps of 1,000 names and 1,000 extensions", "extensions.json", () => namesAndExtensions(100, 1000)],
  ["Work: 2,000 steps of structured text, 11 million values", "structured.json", () => structuredText(2000)],
  ["Work: 700 patches of 4,096 file names", "patches.json", () => JSON.stringify({ scope: ".", steps: Array.from({ length: 700 }, (_, s) => ({ tool: "apply_patch", arguments: { patch: Array.from({ length: 4100 }, (_, i) => `+++ ${s}/${i}`).join("\n") }, intent: "w" })) })],
  ["Work: one diff --git line of a MiB of spaces", "git-line.json", () => JSON.stringify({ scope: ".", steps: [{ tool: "apply_patch", arguments: { patch: "diff --git " + "a ".repeat(520_000) }, intent: "w" }] })],
  ["Work: a FIND of 128 KiB against a MiB the plan creates", "long-find.md", longFind],
  ["Work: a million values, half a million distinct paths", "distinct-paths.json", () => JSON.stringify({ scope: ".", steps: Array.from({ length: 75_000 }, (_, s) => ({ tool: "write_file", arguments: { content: "x", files: Array.from({ length: 7 }, (_, i) => `s${s}/d${i}/p`) }, intent: "w" })) })],
  ["Work: 16 lines of 1,600 patterns, 100,000 files", "patterns.json", () => patternLines(16, (x) => `t/*/*${x}`), undefined, manyFiles],
  ["Work: 2,000 paths through a chain of links", "links.json", () => linkPaths(2000), undefined, linkChain],
  // The rows below pair a policy at its bounds with a plan that makes each of its entries work.
  ["Bombs: 1,024 deny entries naming one program, 16 lines of 8,000 words", "deny-words.json", () => commandPlan(16, (i) => "a" + " b".repeat(8000) + ` x${i}`), `commands:\n  deny:\n${Array.from({ length: 1024 }, (_, i) => `    - "a ${"b ".repeat(100)}c${i}"`).join("\n")}\n`],
  ["Bombs: 1,024 allow entries of 127 words, 16 lines of 62 such commands", "allow-words.json", () => commandPlan(16, (i) => `a x${i}` + (";a" + " b".repeat(127)).repeat(62)), `commands:\n  allow:\n${Array.from({ length: 1024 }, (_, i) => `    - "a ${"b ".repeat(125)}c${i % 10}"`).join("\n")}\n`],
  ["Bombs: 16 lines of 5,330 stray ')'", "parens.json", () => commandPlan(16, (i) => `x${i};` + "a);".repeat(5330))],
  ["Bombs: 16 lines of a pipeline of 8,000 ending with '|'", "pipes.json", () => commandPlan(16, (i) => `x${i}|` + "a|".repeat(8000))],
  ["Bombs: 127 lines of a pipeline of 1,020 ending with '|'", "pipes-short.json", () => commandPlan(127, (i) => `x${i}|` + "a|".repeat(1020))],
  ["Bombs: 250 writes of paths 1,300 folders deep, 4,000 protected globs", "deep-writes.json", () => JSON.stringify({ scope: ".", steps: Array.from({ length: 250 }, (_, i) => ({ tool: "write_file", arguments: { path: `s${i}/` + "ab/".repeat(1300), content: "" }, intent: "w" })) }), `paths:\n  protected:\n${Array.from({ length: 4000 }, (_, i) => `    - "**/ab/**/*.k${i}"`).join("\n")}\n`],
];

const child = `
  const { validateFile } = await import(${JSON.stringify(new URL("../dist/index.js", import.meta.url).href)});
  const { parseToolsText } = await import(${JSON.stringify(new URL("../dist/node/tools-file.js", import.meta.url).href)});
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const r = await validateFile(process.argv[1], { now: new Date(0), workspace: process.argv[2], tools: parseToolsText("plot_qc\\nread_file", "t") });
  const ms = performance.now() - t0;
  const c = process.cpuUsage(c0);
  const cpu = (c.user + c.system) / 1000;
  // Peak resident memory of the whole process (Node itself is ~45 MB): sampling the heap from a timer
  // would miss the peak, which happens inside synchronous parsing.
  const rss = process.resourceUsage().maxRSS * 1024;
  const rules = [...new Set(r.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule))];
  console.log(JSON.stringify({ ms, cpu, rss, rules, n: r.diagnostics.length }));
`;

console.log("| case | input | time | peak RSS | answer |");
console.log("|---|---:|---:|---:|---|");
for (const [name, file, make, policy, workspace] of CASES.filter(([n]) => !ONLY || n.includes(ONLY))) {
  let path = join(dir, file);
  const ws = workspace ? workspace(join(dir, `${file}.ws`)) : "/tmp";
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
  const out = spawnSync(process.execPath, ["--expose-gc", "--max-old-space-size=1024", "--input-type=module", "-e", child, path, ws], { encoding: "utf8" });
  if (out.status !== 0) {
    console.log(`| ${name} | ${mb(size)} | crashed | | ${out.stderr.split("\n").find((l) => l.trim()) ?? ""} |`);
    continue;
  }
  const r = JSON.parse(out.stdout);
  const answer = r.rules.length ? r.rules.map((x) => `\`${x}\``).join(", ") + (r.n > 1 ? ` (${r.n} diagnostics)` : "") : "valid";
  // Wall time, and CPU time (user + system) of the validation: on a busy machine the second is the measure.
  console.log(`| ${name} | ${mb(size)} | ${Math.round(r.ms)} ms (CPU ${Math.round(r.cpu)} ms) | ${mb(r.rss)} | ${answer} |`);
}
rmSync(dir, { recursive: true, force: true });

function mb(n) {
  return n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${(n / 1024).toFixed(0)} KB`;
}
