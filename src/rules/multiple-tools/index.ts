import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { childPointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import { isObject } from "../../dialects/shape.js";
import { chainingOperators } from "./shell.js";

/** Arguments that hold one shell command line for a command-running tool. */
const COMMAND_ARGUMENTS = new Set(["command", "cmd", "script", "shell_command", "commandline", "command_line"]);
/** Separators that join tool names into one. */
const JOINED = /\s*(?:&&|\|\||[;,|&+]|\s(?:and|then)\s)\s*/;

export default defineRule({
  meta: {
    id: "multiple-tools",
    defaultSeverity: "error",
    dialects: TOOL_CALL_DIALECTS,
    phase: "step",
    summary: "One step runs more than one tool or command.",
    docs: {
      description:
        "Reports a step whose tool is a list of tools or a name that joins several (`read_file && write_file`, `a; b`, `a, b`), and a command argument (`command`, `cmd`, `script`) that chains several shell commands with `&&`, `||`, `;`, `|`, `&` or a newline outside quotes. (Markdown EXECUTE actions, where chaining is the documented usage, are not checked.)",
      rationale:
        "The intake protocol §6: a single tool per step, no merged operations. A merged step hides operations from the reviewer, and when it half-fails nobody knows which part ran.",
      fix: "Split the step into one step per tool or command, each with its own intent.",
      bad: 'steps: [{tool: run_command, arguments: {command: "make && make install"}, intent: build}]',
      good: 'steps: [{tool: run_command, arguments: {command: make}, intent: build}, {tool: run_command, arguments: {command: "make install"}, intent: install}]',
    },
  },
  check(plan, ctx) {
    for (const step of plan.steps) {
      const s = `Step ${step.position}`;
      const raw = isObject(step.raw) ? step.raw[plan.fields.tool] : undefined;
      if (Array.isArray(raw)) {
        ctx.report({
          at: childPointer(step.at, plan.fields.tool),
          step: step.position,
          message: `${s}: "${plan.fields.tool}" lists ${raw.length} tools; a step runs exactly one.`,
          hint: "split it into one step per tool",
          actual: raw,
        });
        continue;
      }
      if (step.tool !== undefined && JOINED.test(step.tool.trim())) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          message: `${s}: the tool "${step.tool}" joins several tools; a step runs exactly one.`,
          hint: "split it into one step per tool",
          actual: step.tool,
        });
      }
      for (const [name, value] of Object.entries(step.args)) {
        if (!COMMAND_ARGUMENTS.has(name.toLowerCase()) || typeof value !== "string") continue;
        const ops = chainingOperators(value);
        if (ops.length === 0) continue;
        ctx.report({
          at: childPointer(step.argsAt, name),
          step: step.position,
          message: `${s}: the ${name} chains several commands (${[...new Set(ops)].map((o) => (o.length > 2 ? o : `"${o}"`)).join(", ")}); a step runs exactly one.`,
          hint: "split it into one step per command, or quote the operator if it is an argument",
          actual: value,
        });
      }
    }
  },
});
