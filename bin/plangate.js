#!/usr/bin/env node
// `plangate guard` (not `guard start`) is a PreToolUse hook: the host reads exit 0 as "allow", so any
// failure, even one loading the program, must exit 2 ("block"), never 1.
const hook = process.argv[2] === "guard" && process.argv[3] !== "start";
const failCode = hook ? 2 : 1;
if (hook) {
  process.exitCode = 2;
  process.on("uncaughtException", (err) => {
    process.stderr.write(`plangate guard: blocked: internal error: ${err?.message ?? err} [guard-failure]\n`);
    process.exit(2);
  });
}

try {
  const { main } = await import("../dist/cli/main.js");
  const { processIO } = await import("../dist/cli/io.js");
  const code = await main(process.argv.slice(2), processIO());
  process.exitCode = code;
  // A hook's pending stdin read (after a timeout) must not keep the process alive past its answer.
  if (hook) process.exit(code);
} catch (err) {
  process.stderr.write(`plangate: internal error: ${err?.message ?? err}\n`);
  process.exitCode = failCode;
  if (hook) process.exit(failCode);
}
