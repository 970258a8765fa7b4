#!/usr/bin/env node
// Exit codes: 0 accepted, 1 rejected, 2 usage or internal error. A crash, even one loading the program,
// is exit 2, never 1 ("rejected"). `plangate guard` (not `guard start`) is a PreToolUse hook: the host
// reads exit 0 as "allow", so every failure there is exit 2 ("block"); with `--output claude` the host
// reads the JSON on stdout instead, so a crash prints a deny and exits 0.
// CommonJS (bin/package.json): the ES module loader is not started unless a command needs it.
const { join } = require("node:path");
const argv = process.argv.slice(2);
// As isHookCall in src/cli/main.ts: a subcommand's name anywhere (`guard --state-dir D status`) is no hook.
const hook = argv[0] === "guard" && !argv.slice(1).some((a) => ["start", "status", "stop", "repair"].includes(a));
// The hook's answer form, as the command line parser reads it: the last --output wins, so
// `--output claude --output exit` is the exit-code form, whose host reads exit 0 as "allow".
const claude =
  hook &&
  (() => {
    let mode = "exit";
    for (let i = 0; i < argv.length; i++) {
      if (argv[i] === "--") break;
      if (argv[i] === "--output" && i + 1 < argv.length) mode = argv[++i];
      else if (argv[i].startsWith("--output=")) mode = argv[i].slice("--output=".length);
    }
    return mode === "claude";
  })();
const INTERNAL = 2;
const json = (() => {
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--") break;
    if ((argv[i] === "--output" || argv[i] === "-o") && argv[i + 1] === "json") return true;
    if (argv[i] === "--output=json" || argv[i] === "-ojson") return true;
  }
  return false;
})();

function crash(err) {
  const message = String(err?.message ?? err);
  if (hook) {
    process.stderr.write(`plangate guard: blocked: internal error: ${message} [guard-failure]\n`);
    if (claude)
      process.stdout.write(
        JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: `plangate: internal error: ${message} [guard-failure]` } }) + "\n",
      );
  }
  else {
    process.stderr.write(`plangate: internal error: ${message}\n`);
    if (json) process.stdout.write(JSON.stringify({ version: 1, error: { code: "internal", message } }, null, 2) + "\n");
  }
}

process.exitCode = INTERNAL;
const failed = () => (claude ? 0 : INTERNAL);
// A hook stopped by a signal (a terminal's Ctrl-C, a supervisor's SIGTERM, a closed terminal) has decided
// nothing: it exits 2, which every host reads as "block", rather than dying by the signal, whose exit
// status a host may read as a mere error of the hook and let the call run. (SIGKILL cannot be caught:
// keep the host's hook timeout above --timeout.)
if (hook)
  for (const signal of ["SIGTERM", "SIGINT", "SIGHUP"])
    process.on(signal, () => {
      try {
        process.stderr.write(`plangate guard: blocked: stopped by ${signal} before a decision was delivered [guard-failure]\n`);
      } finally {
        process.exit(INTERNAL);
      }
    });
process.on("uncaughtException", (err) => {
  crash(err);
  process.exit(failed());
});

(async () => {
  try {
    // The bundled CLI (npm run build), compiled with its build-time code cache when this Node can use it.
    const { useCodeCache } = require("./load-bundle.js");
    const { main, processIO } = useCodeCache(join(__dirname, "..", "dist", "bundle"), undefined, hook ? ".hook.cache" : ".cache")("./cli.cjs");
    const code = await main(argv, processIO());
    process.exitCode = code;
    // A hook's pending stdin read (after a timeout or an oversized input) must not keep the process alive past its answer.
    if (hook) process.exit(code);
  } catch (err) {
    crash(err);
    process.exitCode = failed();
    if (hook) process.exit(failed());
  }
})();
