import { defaultPolicy } from "../../policy/defaults.js";
import { tools } from "../../../test/helpers.js";
import { type InvalidCase, ruleTester } from "../../../test/rule-tester.js";

const plan = (...names: string[]) => JSON.stringify({ steps: names.map((tool) => ({ tool, arguments: {}, intent: "do it" })) });
const deny = (...globs: string[]) => {
  const policy = defaultPolicy("/ws");
  policy.tools.deny.push(...globs);
  return { policy };
};

/** The host planning and thinking tools, each in several spellings: every spelling is denied. */
const spellings = [
  ["ExitPlanMode", "exit_plan_mode", "exit-plan-mode", "EXITPLANMODE"],
  ["EnterPlanMode", "enter_plan_mode", "Enter.Plan.Mode"],
  ["plan_mode", "PlanMode", "plan-mode", "plan mode"],
  ["think", "THINK", "t_h_i_n_k"],
  ["sequential-thinking", "sequential_thinking", "sequentialthinking", "SequentialThinking", "sequential.thinking"],
  ["mcp__sequential-thinking__sequentialthinking", "mcp__sequential_thinking__sequential_thinking", "MCP__Sequential-Thinking__SequentialThinking", "mcp:sequential-thinking/sequentialthinking"],
];
const hostTools: InvalidCase[] = spellings.map((names) => {
  const code = plan("read_file", ...names);
  // Each at its name's string, on the one line.
  const at = (name: string) => code.indexOf(`"tool":${JSON.stringify(name)}`) + '"tool":'.length + 1;
  return {
    name: `the host planning and thinking tool ${names[0]} in every spelling`,
    code,
    errors: names.map((name, i) => ({ line: 1, column: at(name), endLine: 1, endColumn: at(name) + JSON.stringify(name).length, step: i + 2, pointer: `/steps/${i + 1}/tool`, messageId: "denied" })),
  };
});

ruleTester("disallowed-tool", {
  valid: [
    { name: "names that merely contain a denied word", code: plan("read_file", "planets", "rethink_cache", "exit", "thinking_cap_store") },
    { name: "plain allowed tools", code: plan("read_file", "plan_route", "write_file"), options: { tools: tools("read_file", "write_file", "plan_route") } },
    { name: "an invisible character without a tool it imitates (unsafe-value's finding alone)", code: plan("odd\u200d_tool") },
  ],
  invalid: [
    {
      name: "reasoning and planning tools, denied by default",
      code: plan("read_file", "think", "sequential_thinking"),
      errors: [
        {
          line: 1, column: 72, endLine: 1, endColumn: 79,
          step: 2,
          pointer: "/steps/1/tool",
          messageId: "denied",
          message: 'Step 2: the tool "think" is denied by the policy (reasoning and planning tools, and tools.deny, may not run in an approved plan).',
        },
        { line: 1, column: 121, endLine: 1, endColumn: 142, step: 3, pointer: "/steps/2/tool", messageId: "denied" },
      ],
    },
    {
      name: "case and homoglyph variants of a denied name",
      code: plan("Think", "th\u0456nk", "pl\u200ban"),
      errors: [
        { line: 1, column: 19, endLine: 1, endColumn: 26, step: 1, messageId: "denied" },
        { line: 1, column: 68, endLine: 1, endColumn: 75, step: 2, messageId: "denied" },
        { line: 1, column: 117, endLine: 1, endColumn: 124, step: 3, messageId: "denied" },
      ],
    },
    ...hostTools,
    {
      name: "the policy's globs, with separators folded",
      code: plan("mcp__memory__store", "mcp-memory-store", "MCP.Memory.Forget", "mcp__files__read"),
      options: deny("mcp__memory__*"),
      errors: [
        { line: 1, column: 19, endLine: 1, endColumn: 39, step: 1, messageId: "denied" },
        { line: 1, column: 81, endLine: 1, endColumn: 99, step: 2, messageId: "denied" },
        { line: 1, column: 141, endLine: 1, endColumn: 160, step: 3, messageId: "denied" },
      ],
    },
    {
      name: "the policy's deny list, globs included",
      code: plan("rm_rf", "shell", "read_file"),
      options: deny("rm_*", "shell"),
      errors: [
        { line: 1, column: 19, endLine: 1, endColumn: 26, step: 1, messageId: "denied" },
        { line: 1, column: 68, endLine: 1, endColumn: 75, step: 2, messageId: "denied" },
      ],
    },
    {
      name: "a mixed-script look-alike of a known tool",
      code: plan("r\u0435ad_file"),
      options: { tools: tools("read_file") },
      errors: [{ line: 1, column: 19, endLine: 1, endColumn: 30, message: /mixes scripts \(Cyrillic and Latin\).*of "read_file"/, messageId: "lookalikeOf" }],
    },
    { name: "an invisible character disguising a known tool", code: plan("read\u200d_file"), options: { tools: tools("read_file") }, errors: [{ line: 1, column: 19, endLine: 1, endColumn: 31, message: /holds invisible or bidi control characters of "read_file"/, messageId: "lookalikeOf" }] },
    { name: "full-width letters", code: plan("\uff52ead_file"), errors: [{ line: 1, column: 19, endLine: 1, endColumn: 30, message: /compatibility characters/, messageId: "lookalike" }] },
    { name: "an all-Cyrillic spelling of a known tool", code: plan("\u0455\u04bb\u0435ll"), options: { tools: tools("shell") }, errors: [{ line: 1, column: 19, endLine: 1, endColumn: 26, message: /of "shell"/, messageId: "lookalikeOf" }] },
    {
      name: "a registered tool whose own name mixes scripts",
      code: plan("r\u0435ad_file"),
      options: { tools: tools("r\u0435ad_file") },
      errors: [{ step: 1, messageId: "lookalikeKnown", message: 'Step 1: the tool name "r\u0435ad_file" mixes scripts (Cyrillic and Latin).', hint: 'write the name as "r\u0435ad_file" in plain characters' }],
    },
    {
      name: "a command line that runs a program decided at run time",
      code: JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "$X foo" }, intent: "run" }] }),
      errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId: "commandNotAllowed", message: 'Step 1: the command in "command" runs a program decided at run time ($X).', hint: "write the program's name literally, so that the policy can check it" }],
    },
    {
      name: "a command constraint that does not fix the program",
      code: JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: { $glob: "*" } }, intent: "run" }] }),
      options: (() => {
        const policy = defaultPolicy("/ws");
        policy.plan.constraints = "allow";
        return { policy };
      })(),
      errors: [{ step: 1, pointer: "/steps/0/arguments/command/$glob", messageId: "unprovableCommand", message: /^Step 1: the command constraint in "command" cannot be shown to run allowed programs only: the \$glob does not start with a literal program name/ }],
    },
    { name: "scQC steps too", code: '[{"tool": "think"}]', errors: [{ line: 1, column: 11, endLine: 1, endColumn: 18, pointer: "/0/tool", messageId: "denied" }] },
  ],
  docs: { file: "plan.yaml" },
});
