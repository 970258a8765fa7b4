import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";

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
  it.each([
    "make && make install",
    "cd src; ls",
    "cat a | grep b",
    "sleep 1 &",
    "echo a\necho b",
    "false || true",
    "echo $(id)",
    "echo `id`",
    "diff <(ls a) <(ls b)",
    "(cd a && make)",
    "{ ls; }",
    "if true; then ls; fi",
    "for f in a b; do ls $f; done",
    "bash -c 'ls; id'",
    "sh -c ls",
    "eval ls",
    "xargs rm",
    "find . -exec rm {} +",
    "env FOO=1 make",
    "timeout 5 make",
    "nohup make",
    "sudo make install",
    "command ls",
    "exec ls",
    "time make",
    "cat <<EOF\n$(id)\nEOF",
  ])("reports the compound command %j at the argument", async (command) => {
    const d = await diagnosticsOf("multiple-tools", plan("run_command", { command }));
    expect(d.length).toBeGreaterThanOrEqual(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/arguments/command", line: 1 });
    expect(d[0]!.column).toBe(JSON.stringify({ steps: [{ tool: "run_command", arguments: { command } }] }).indexOf(JSON.stringify(command)) + 1);
  });
  it.each([
    "make install",
    "grep 'a|b' file.txt",
    'echo "x && y"',
    "make 2>&1",
    "make 2>/dev/null",
    "make > build.log 2>&1",
    "ls\n",
    "ls ;",
    "echo a\\;b",
    "echo 'a;b' \"c|d\" # x; y",
    "cat <<'EOF'\na && b; c | d\nEOF",
    "cat <<EOF\n$HOME; rm x\nEOF",
    "git commit -m 'fix: a || b'",
    "FOO=1 make",
  ])("accepts the single command %j", async (command) => {
    expect(await diagnosticsOf("multiple-tools", plan("run_command", { command }))).toEqual([]);
    expect(await diagnosticsOf("multiple-tools", plan("read_file", { pattern: "a;b|c" }))).toEqual([]);
  });
  it("reports the same commands under cmd, script, program + args and argument vectors", async () => {
    for (const args of [{ cmd: "a && b" }, { script: "a; b" }, { program: "xargs", args: ["rm"] }, { command: ["sh", "-c", "a; b"] }, { cmd: "git", args: "a | b" }])
      expect(await diagnosticsOf("multiple-tools", plan("run_command", args)), JSON.stringify(args)).not.toEqual([]);
  });
  it("allows compound commands with commands.allowCompound, still checking each program", async () => {
    const policy = defaultPolicy("/workspace");
    policy.commands = { allow: [], deny: ["rm"], allowCompound: true };
    const text = plan("run_command", { command: "make && make install" });
    expect(await diagnosticsOf("multiple-tools", text, { policy })).toEqual([]);
    expect(await diagnosticsOf("disallowed-tool", plan("run_command", { command: "make && rm -f x" }), { policy })).toHaveLength(1);
  });
  it("applies to scQC steps", async () => {
    expect(await diagnosticsOf("multiple-tools", '[{"tool": "plot_qc && run_scar"}]')).toHaveLength(1);
  });
});
