import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";
import { type InvalidCase, ruleTester } from "../../../test/rule-tester.js";

const plan = (tool: unknown, args: Record<string, unknown> = {}) => JSON.stringify({ steps: [{ tool, arguments: args, intent: "do it" }] });
const compound = defaultPolicy("/ws");
compound.commands = { allow: [], deny: ["rm"], allowCompound: true };

const compoundCommands = [
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
];
/** A compound command is reported at the command argument's string (twice when it is compound for two reasons). */
const atCommand = (command: string): InvalidCase => {
  const code = plan("run_command", { command });
  const column = code.indexOf(JSON.stringify(command)) + 1;
  const at = { line: 1, column, endLine: 1, endColumn: column + JSON.stringify(command).length, step: 1, pointer: "/steps/0/arguments/command" };
  const messages: [RegExp, string][] =
    command === "bash -c 'ls; id'"
      ? [
          [/hands a command line to "bash"/, "handsCommandLine"],
          [/runs more than one command \(";"\)/, "compoundCommand"],
        ]
      : [[/^Step 1: the command in "command" /, /^(?:sh -c|eval) /.test(command) ? "handsCommandLine" : /^(?:xargs|find|env|timeout|nohup|sudo|command|exec|time) /.test(command) ? "runsThroughWrapper" : "compoundCommand"]];
  return { name: `the compound command ${JSON.stringify(command)}`, code, errors: messages.map(([message, messageId]) => ({ ...at, message, messageId })) };
};
const singleCommands = [
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
];

ruleTester("multiple-tools", {
  valid: [
    ...singleCommands.map((command) => ({ name: `the single command ${JSON.stringify(command)}`, code: plan("run_command", { command }) })),
    { name: "separators in a tool's non-command argument", code: plan("read_file", { pattern: "a;b|c" }) },
    { name: "a compound command with commands.allowCompound", code: plan("run_command", { command: "make && make install" }), options: { policy: compound } },
  ],
  invalid: [
    {
      name: "a list of tools",
      code: plan(["read_file", "write_file"]),
      errors: [{ line: 1, column: 19, endLine: 1, endColumn: 45, step: 1, pointer: "/steps/0/tool", message: 'Step 1: "tool" lists 2 tools; a step runs exactly one.', messageId: "toolList" }],
    },
    ...["read_file && write_file", "a; b", "a, b", "a | b", "read then write"].map((tool) => ({
      name: `the joined tool name ${JSON.stringify(tool)}`,
      code: plan(tool),
      errors: [{ line: 1, column: 19, endLine: 1, endColumn: 19 + JSON.stringify(tool).length, step: 1, pointer: "/steps/0/tool", messageId: "joinedTools" }],
    })),
    ...compoundCommands.map(atCommand),
    { name: "a command under cmd", code: plan("run_command", { cmd: "a && b" }), errors: [{ line: 1, column: 52, endLine: 1, endColumn: 60, pointer: "/steps/0/arguments/cmd", message: /runs more than one command \("&&"\)/, messageId: "compoundCommand" }] },
    { name: "a command under script", code: plan("run_command", { script: "a; b" }), errors: [{ line: 1, column: 55, endLine: 1, endColumn: 61, pointer: "/steps/0/arguments/script", message: /runs more than one command \(";"\)/, messageId: "compoundCommand" }] },
    { name: "a program with its args", code: plan("run_command", { program: "xargs", args: ["rm"] }), errors: [{ line: 1, column: 56, endLine: 1, endColumn: 63, pointer: "/steps/0/arguments/program", message: /runs "rm" through "xargs"/, messageId: "runsThroughWrapper" }] },
    { name: "an argument vector", code: plan("run_command", { command: ["sh", "-c", "a; b"] }),
      errors: [
        { line: 1, column: 56, endLine: 1, endColumn: 74, pointer: "/steps/0/arguments/command", message: /hands a command line to "sh"/, messageId: "handsCommandLine" },
        { line: 1, column: 56, endLine: 1, endColumn: 74, pointer: "/steps/0/arguments/command", message: /runs more than one command \(";"\)/, messageId: "compoundCommand" },
      ] },
    { name: "a program whose args are a compound line", code: plan("run_command", { cmd: "git", args: "a | b" }),
      // At args, where the operator is: the line is cmd and args joined, and each piece keeps its place.
      errors: [{ line: 1, column: 65, endLine: 1, endColumn: 72, pointer: "/steps/0/arguments/args", message: /runs more than one command \("\|"\)/, messageId: "compoundCommand" }] },
    { name: "scQC steps", code: '[{"tool": "plot_qc && run_scar"}]', errors: [{ line: 1, column: 11, endLine: 1, endColumn: 32, pointer: "/0/tool", message: /joins several tools/, messageId: "joinedTools" }] },
  ],
  docs: { file: "plan.yaml" },
});

describe("multiple-tools beside the other rules", () => {
  it("is the rule for a list of tools, not invalid-type", async () => {
    expect(await diagnosticsOf("invalid-type", plan(["read_file", "write_file"]))).toEqual([]);
  });
  it("still checks each program of an allowed compound command", async () => {
    expect(await diagnosticsOf("disallowed-tool", plan("run_command", { command: "make && rm -f x" }), { policy: compound })).toHaveLength(1);
  });
});
