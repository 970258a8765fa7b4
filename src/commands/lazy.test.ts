import { describe, expect, it } from "vitest";
import { NOW, run } from "../../test/helpers.js";
import { shellReaderRequested } from "../syntax/shell/parse.js";

// Its own file: vitest gives each test file a fresh module graph, so no other test has loaded the parser.
describe("the shell parser loads lazily", () => {
  it("is not loaded for plans without command arguments, and is for the first one with", async () => {
    const plan = (args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "run_command", arguments: args, intent: "run it" }] });
    await run(plan({ path: "a.txt", pattern: "a && b; c | d" }), { now: NOW });
    await run('[{"tool": "plot_qc", "params": {"file_path": "data/a.h5ad", "flags": [1, 2]}}]', { now: NOW });
    expect(shellReaderRequested()).toBe(false);
    const report = await run(plan({ command: "make && make install" }), { now: NOW });
    expect(shellReaderRequested()).toBe(true);
    expect(report.diagnostics.map((d) => d.rule)).toContain("multiple-tools");
  });
});
