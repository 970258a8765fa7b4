import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../test/helpers.js";

const write = (path: string, content: string) => ({ tool: "write_file", arguments: { path, content }, intent: "write" });
const run = (command: string) => ({ tool: "run_command", arguments: { command }, intent: "run" });

describe("files a plan writes and then runs: bounds", () => {
  it("written scripts that each run all of them are refused within the bound on runs judged", async () => {
    const body = Array.from({ length: 60 }, (_, k) => `./a${k}.sh`).join("\n");
    const plan = JSON.stringify({ steps: [...Array.from({ length: 60 }, (_, i) => write(`a${i}.sh`, body)), run("./a0.sh")] });
    const found = await diagnosticsOf("disallowed-tool", plan);
    expect(found.length).toBeGreaterThan(0);
    // At most one for each file it runs, and one for the bound.
    expect(found.length).toBeLessThanOrEqual(61);
    expect(found.every((d) => d.step === 61 && d.messageId === "writtenUnreadable")).toBe(true);
  });

  it("each run past the bound is refused, one finding a step", async () => {
    const plan = JSON.stringify({ steps: [write("a.sh", "echo hi\n"), ...Array.from({ length: 10_001 }, () => run("./a.sh"))] });
    const found = await diagnosticsOf("disallowed-tool", plan);
    expect(found.map((d) => [d.step, d.messageId])).toEqual([[10_002, "writtenUnreadable"]]);
    expect(found[0]!.message).toMatch(/the plan runs more than 10000 files it writes/);
  });
});
