import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { chainingOperators } from "./shell.js";

const plan = (tool: unknown, args: Record<string, unknown> = {}) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });

describe("multiple-tools", () => {
  it("reports a list of tools (not invalid-type)", async () => {
    const d = await diagnosticsOf("multiple-tools", plan(["read_file", "write_file"]));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/tool" });
    expect(d[0]!.message).toBe('Step 1: "tool" lists 2 tools; a step runs exactly one.');
    expect(await diagnosticsOf("invalid-type", plan(["read_file", "write_file"]))).toEqual([]);
  });
  it.each(["read_file && write_file", "a; b", "a, b", "a | b", "read then write"])("reports the joined tool name %j", async (tool) => {
    expect(await diagnosticsOf("multiple-tools", plan(tool))).toHaveLength(1);
  });
  it.each(["make && make install", "cd src; ls", "cat a | grep b", "sleep 1 &", "echo a\necho b"])("reports the chained command %j", async (command) => {
    const d = await diagnosticsOf("multiple-tools", plan("run_command", { command }));
    expect(d).toHaveLength(1);
    expect(d[0]!.pointer).toBe("/steps/0/arguments/command");
  });
  it("accepts one tool and one command, operators inside quotes and redirections", async () => {
    for (const command of ["make install", "grep 'a|b' file.txt", 'echo "x && y"', "make 2>&1", "ls\n"])
      expect(await diagnosticsOf("multiple-tools", plan("run_command", { command })), command).toEqual([]);
    expect(await diagnosticsOf("multiple-tools", plan("read_file", { pattern: "a;b|c" }))).toEqual([]);
  });
  it("applies to scQC steps", async () => {
    expect(await diagnosticsOf("multiple-tools", '[{"tool": "plot_qc && run_scar"}]')).toHaveLength(1);
  });
  it("finds operators outside quotes only", () => {
    expect(chainingOperators("a && b || c ; d")).toEqual(["&&", "||", ";"]);
    expect(chainingOperators("echo 'a;b' \"c|d\" e\\;f # x; y")).toEqual([]);
  });
});
