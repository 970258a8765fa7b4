import { beforeShellCompile } from "../syntax/shell/compile-hook.js";

/**
 * V8's baseline compiler (Liftoff) only, for as long as the shell parser's WebAssembly compiles: a module
 * keeps the setting it was compiled under, so the host's other WebAssembly is left as it was (unless it
 * compiles in the same few milliseconds). Without it, V8's optimising compiler spends about a second of
 * CPU on the bash grammar's lexer in background threads, which Node waits for before the process exits,
 * and the baseline code reads commands about twice as fast anyway (`bench/shell.bench.mjs`).
 */
export async function baselineCompilerOnly(): Promise<() => void> {
  const { setFlagsFromString } = await import("node:v8");
  setFlagsFromString("--liftoff-only");
  return () => {
    // A process started with the flag keeps it.
    if (!process.execArgv.some((a) => /^--liftoff[-_]only$/.test(a))) setFlagsFromString("--no-liftoff-only");
  };
}

/** Compiles the shell parser with the baseline compiler (the library and the CLI both do). */
export function useBaselineCompilerForShell(): void {
  beforeShellCompile(baselineCompilerOnly);
}
