// The V8 code caches of the bundled CLI, made at build time in fresh processes: the bundle is loaded and
// run through a few commands in a temporary folder (so what start-up, validations and an allowed guard
// hook call run is compiled, not only the files' top level), then V8's cache of each file it loaded is
// written beside it as <file>.cache. A guard hook call (bin/plangate.js's `hook`) reads <file>.hook.cache
// instead, made by a process that runs that call alone: V8 deserialises every function a cache holds, and
// a hook call, the command that runs most often, then pays for none of the validator's. A cache matches
// this Node's V8 only; bin/load-bundle.js falls back to compiling the file when V8 rejects it.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");

export function makeCodeCache(dir) {
  for (const which of ["all", "hook"]) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), dir, which], { cwd: root, stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) throw new Error(`making the ${which} code caches of ${dir} failed (exit ${r.status})`);
  }
}

/** Runs the commands in this process (`all`), or their set-up in child processes and the hook call alone here (`hook`). */
async function warm(dir, which) {
  const { useCodeCache } = await import("../bin/load-bundle.js");
  const scripts = new Map();
  const require = useCodeCache(dir, (file, script) => scripts.set(file, script));
  const { main } = require("./cli.cjs");
  const tmp = mkdtempSync(join(tmpdir(), "plangate-cache-"));
  const io = (cwd, stdin = "") => ({
    stdout: () => {},
    stderr: () => {},
    readStdin: async () => new TextEncoder().encode(stdin),
    cwd,
    // A per-user state folder: guard start refuses to run without a store of consumed approvals.
    env: { NO_COLOR: "1", XDG_STATE_HOME: join(tmp, "xdg") },
    isTTY: false,
    now: () => new Date(),
  });
  // A guarded run, so that the hook call below is an allowed step: what a hook process runs most.
  const ws = join(tmp, "ws");
  mkdirSync(ws);
  writeFileSync(join(ws, "in.txt"), "x\n");
  writeFileSync(join(ws, "plan.json"), JSON.stringify([{ tool: "read_file", description: "read the input", params: { path: "in.txt" } }]));
  writeFileSync(join(tmp, "tools.txt"), "read_file\n");
  const hook = JSON.stringify({ session_id: "s", transcript_path: "/t", cwd: ws, hook_event_name: "PreToolUse", tool_name: "read_file", tool_input: { path: "in.txt" } });
  const keys = join(tmp, "keys");
  const state = join(tmp, "state");
  // `setup` makes the run the hook call needs; in the hook pass it runs in child processes, so that its
  // code stays out of that pass's caches, and the validations are left out.
  const commands = [
    { argv: ["--version"] },
    { argv: ["validate", "examples/intake.valid.json", "--no-policy"] },
    { argv: ["validate", "examples/scqc-envelope.valid.json", "examples/scqc-envelope.invalid.json", "--tools", "examples/tools.txt", "--output", "json"] },
    { argv: ["validate", "examples/intake.valid.yaml", "examples/teddy.valid.md", "--policy", "examples/plangate.yaml"] },
    { argv: ["keygen", "--out", keys], setup: true },
    { argv: ["approve", "plan.json", "--no-policy", "--tools", join(tmp, "tools.txt"), "--key", join(keys, "plangate.key"), "--out", join(tmp, "approval.json")], cwd: ws, setup: true },
    { argv: ["guard", "start", "plan.json", "--no-policy", "--tools", join(tmp, "tools.txt"), "--approval", join(tmp, "approval.json"), "--trusted-keys", join(keys, "plangate.pub"), "--state-dir", state, "--session", "s"], cwd: ws, setup: true },
    { argv: ["guard", "--state-dir", state, "--no-policy"], cwd: ws, stdin: hook, hook: true },
  ];
  try {
    for (const { argv, cwd = root, stdin, setup, hook: isHook } of commands) {
      if (which === "hook" && !setup && !isHook) continue;
      if (which === "hook" && setup) {
        const r = spawnSync(process.execPath, [join(root, "bin", "plangate.js"), ...argv], { cwd, encoding: "utf8" });
        if (r.status !== 0) throw new Error(`plangate ${argv.join(" ")} exited ${r.status} while setting up the hook call: ${r.stderr}`);
        continue;
      }
      const code = await main(argv, io(cwd, stdin));
      if (code === 2) throw new Error(`plangate ${argv.join(" ")} exited 2 while warming the code caches`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  const suffix = which === "hook" ? ".hook.cache" : ".cache";
  for (const [file, script] of scripts) writeFileSync(file + suffix, script.createCachedData());
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await warm(resolve(process.argv[2]), process.argv[3] === "hook" ? "hook" : "all");
