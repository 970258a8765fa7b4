// The V8 code caches of the bundled CLI, made at build time in a fresh process: the bundle is loaded and
// run through a few commands (so what start-up, a validation and a guard call run is compiled), then
// V8's cache of each file it loaded is written beside it as <file>.cache. A cache matches this Node's V8
// only; bin/load-bundle.js falls back to compiling the file when V8 rejects it.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function makeCodeCache(dir) {
  const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), dir], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
  if (r.status !== 0) throw new Error(`making the code cache of ${dir} failed (exit ${r.status})`);
}

async function warm(dir) {
  const { useCodeCache } = await import("../bin/load-bundle.js");
  const scripts = new Map();
  const require = useCodeCache(dir, (file, script) => scripts.set(file, script));
  const { main } = require("./cli.cjs");
  const tmp = mkdtempSync(join(tmpdir(), "plangate-cache-"));
  const hook = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: join(tmp, "x") }, cwd: tmp, session_id: "s" });
  const io = (stdin = "") => ({
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => new TextEncoder().encode(stdin),
    cwd: root,
    env: { NO_COLOR: "1" },
    isTTY: false,
    now: () => new Date(),
  });
  try {
    for (const [argv, stdin] of [
      [["--version"]],
      [["validate", "examples/intake.valid.json", "--no-policy"]],
      [["validate", "examples/scqc-envelope.valid.json", "examples/scqc-envelope.invalid.json", "--no-policy", "--output", "json"]],
      [["guard", "--state", join(tmp, "state")], hook],
    ])
      await main(argv, io(stdin));
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  for (const [file, script] of scripts) writeFileSync(`${file}.cache`, script.createCachedData());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await warm(resolve(process.argv[2]));
