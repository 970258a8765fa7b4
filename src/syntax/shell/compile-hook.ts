/**
 * What runs around the compilation of the WebAssembly shell parser: the process may tune the engine for
 * it. plangate asks V8 for its baseline compiler only (node/wasm-compiler.ts): otherwise the optimising
 * compiler spends about a second of CPU in background threads on the grammar's lexer, Node waits for it
 * before the process exits, and one command line made a CLI run or a hook call take 1.2 s of CPU
 * instead of 0.2 s; the baseline code also reads commands faster. The hook returns what undoes it.
 */
export type CompileHook = () => Promise<(() => void) | undefined>;

let hook: CompileHook | undefined;

/** Sets what runs before the shell parser compiles (once per process, at its first use). */
export function beforeShellCompile(fn: CompileHook | undefined): void {
  hook = fn;
}

/** Runs the hook, if any (by the shell reader, before it compiles); returns what to run once compiled. */
export async function runBeforeShellCompile(): Promise<(() => void) | undefined> {
  return hook?.();
}
