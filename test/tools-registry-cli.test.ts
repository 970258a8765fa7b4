/** A broken tool registry is the operator's input: a usage error (exit 2) naming the places, never a crash or a hang. */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cli } from "./cli-io.js";
import { cpuBound } from "./cpu-time.js";

const dir = mkdtempSync(join(tmpdir(), "plangate-registry-cli-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const write = (name: string, text: string) => writeFileSync(join(dir, name), text);
write("plan.json", JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: "a.txt" }, intent: "read" }] }));

describe("tool registries the CLI refuses", () => {
  it.each([
    ["a whitelist with a tool twice", "dup.txt", "read_file\nwrite_file\nread_file\n", ["the tool \"read_file\" is listed twice: dup.txt:1 and dup.txt:3"]],
    ["an MCP list with a near-duplicate", "dup.json", JSON.stringify({ tools: [{ name: "read_file" }, { name: "Read-File" }] }), ['dup.json tools[0] ("read_file") and dup.json tools[1] ("Read-File")']],
    ["a backreference", "backref.json", JSON.stringify({ tools: [{ name: "read_file", inputSchema: { properties: { path: { pattern: "^(.)\\1$" } } } }] }), ["/properties/path/pattern", "backreference", "RE2"]],
  ])("--tools with %s: exit 2", async (_name, file, text, says) => {
    write(file, text);
    const r = await cli(["validate", "plan.json", "--tools", file], { cwd: dir });
    expect(r.code).toBe(2);
    for (const s of says) expect(r.stderr).toContain(s);
    expect(r.stderr).not.toContain("internal error");
  });

  it("a tool in both the policy's allowFile and registry: exit 2, naming both files", async () => {
    const ws = mkdtempSync(join(dir, "ws-"));
    writeFileSync(join(ws, "tools.txt"), "plot_qc\nread_file\n");
    writeFileSync(join(ws, "tools.json"), JSON.stringify({ tools: [{ name: "write_file" }, { name: "read_file", inputSchema: { type: "object" } }] }));
    writeFileSync(join(ws, "plangate.yaml"), "tools:\n  allowFile: tools.txt\n  registry: tools.json\n");
    writeFileSync(join(ws, "plan.json"), JSON.stringify({ steps: [{ tool: "read_file", arguments: {}, intent: "read" }] }));
    for (const command of [["validate", "plan.json"], ["approve", "plan.json"]]) {
      const r = await cli(command, { cwd: ws });
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('tools.txt:2 and tools.json tools[1] ("read_file")');
    }
  });

  it("a catastrophic pattern loads, and the step is judged at once", async () => {
    write("redos.json", JSON.stringify({ tools: [{ name: "read_file", inputSchema: { properties: { path: { type: "string", pattern: "^(a+)+$" } } } }] }));
    write("redos-plan.json", JSON.stringify({ steps: [{ tool: "read_file", arguments: { path: `${"a".repeat(40)}!` }, intent: "read" }] }));
    const start = process.cpuUsage();
    const r = await cli(["validate", "redos-plan.json", "--tools", "redos.json"], { cwd: dir });
    const used = process.cpuUsage(start);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[tool-arguments]");
    expect((used.user + used.system) / 1000).toBeLessThan(cpuBound(3000));
  });
});
