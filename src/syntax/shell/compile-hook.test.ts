import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { beforeShellCompile, runBeforeShellCompile } from "./compile-hook.js";
import { loadShellReader } from "./parse.js";
import { cpuBound } from "../../../test/cpu-time.js";

describe("the shell parser's compile hook", () => {
  it("runs once, before the parser compiles, and what it returns once the parser is compiled", async () => {
    const seen: string[] = [];
    beforeShellCompile(async () => {
      seen.push("before");
      return () => seen.push("after");
    });
    const reader = await loadShellReader();
    await loadShellReader();
    expect(seen).toEqual(["before", "after"]);
    expect(reader.parse("ls -la").commands).toHaveLength(1);
    beforeShellCompile(undefined);
  });

  it("is set by the library's entry point and by the CLI's process", async () => {
    beforeShellCompile(undefined);
    expect(await runBeforeShellCompile()).toBeUndefined();
    await import("../../index.js");
    const undo = await runBeforeShellCompile();
    expect(typeof undo).toBe("function");
    undo!();
    beforeShellCompile(undefined);
    const { processIO } = await import("../../cli/io.js");
    processIO();
    const again = await runBeforeShellCompile();
    expect(typeof again).toBe("function");
    again!();
    beforeShellCompile(undefined);
  });

  // Whole-process CPU time (wait4, through bench/cputime.py): V8's optimising compiler spent about a
  // second on the grammar's lexer in background threads, which Node waits for before it exits.
  const python = spawnSync("python3", ["-c", "import os; os.wait4"]).status === 0;
  it.skipIf(!python)("a CLI run that reads one command line does not wait for V8's optimising compiler (skipped without python3)", () => {
    const bin = new URL("../../../bin/plangate.js", import.meta.url).pathname;
    const example = new URL("../../../examples/teddy.valid.md", import.meta.url).pathname;
    // The examples' policy trusts the Python the example writes and then tests.
    const policy = new URL("../../../examples/plangate.yaml", import.meta.url).pathname;
    const cputime = new URL("../../../bench/cputime.py", import.meta.url).pathname;
    const runs = Array.from({ length: 3 }, () => ({ argv: [process.execPath, bin, "validate", example, "--policy", policy] }));
    const out = spawnSync("python3", [cputime], { input: JSON.stringify(runs), encoding: "utf8" });
    expect(out.status, out.stderr).toBe(0);
    const seconds = (JSON.parse(out.stdout) as number[]).sort((a, b) => a - b);
    // About 0.2 s; 1.2 s when the grammar was compiled by the optimising compiler.
    expect(seconds[1]).toBeLessThan(cpuBound(800) / 1000);
  });
});
