import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { childPointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import { isObject } from "../../core/type-name.js";
import { commandFindings, prepareCommandRule } from "../../commands/report.js";
import { findingData, inStepCommand } from "../command-findings.js";
import { commandClauses } from "./command-messages.js";
/** Separators that join tool names into one (tested only: no surrounding whitespace to take, which made a long run of spaces quadratic). */
const JOINED = /&&|\|\||[;,|&+]|\s(?:and|then)\s/;

export default defineRule({
  meta: {
    id: "multiple-tools",
    input: "plan",
    defaultSeverity: "error",
    dialects: TOOL_CALL_DIALECTS,
    phase: "step",
    messages: {
      toolList: { message: "Step {{step}}: \"{{field}}\" lists {{count}} tools; a step runs exactly one.", hint: "split it into one step per tool" },
      joinedTools: { message: "Step {{step}}: the tool \"{{tool}}\" joins several tools; a step runs exactly one.", hint: "split it into one step per tool" },
      ...inStepCommand(commandClauses),
    },
    summary: "One step runs more than one tool or command.",
    docs: {
      description:
        "Reports a step whose tool is a list of tools or a name that joins several (`read_file && write_file`, `a; b`, `a, b`), and a command argument (`command`, `cmd`, `script`, `program` with `args`…) that runs more than one command. The command is read by a shell parser (tree-sitter-bash): `;`, `&&`, `||`, `|`, `&`, a newline, `$(…)`, backquotes, `<(…)`, subshells, groups, loops and conditions count, and so do programs that run another program (`xargs`, `find -exec`, `env`, `timeout`, `nohup`, `sudo`, `sh -c`, `eval`…); a package or environment runner (`npx`, `uv run`, `poetry run`, `bundle exec`…) does not, and what it runs is read as the step's command. Operators inside quotes, here-document bodies and redirections such as `2>/dev/null` and `2>&1` do not. `commands.allowCompound: true` allows compound commands (each program is still checked). Markdown EXECUTE actions, where chaining is the documented usage, are not checked.",
      rationale:
        "The intake protocol §6: a single tool per step, no merged operations. A merged step hides operations from the reviewer, and when it half-fails nobody knows which part ran.",
      fix: "Split the step into one step per tool or command, each with its own intent.",
      bad: 'steps: [{tool: run_command, arguments: {command: "make && make install"}, intent: build}]',
      good: 'steps: [{tool: run_command, arguments: {command: make}, intent: build}, {tool: run_command, arguments: {command: "make install"}, intent: install}]',
    },
  },
  prepare: prepareCommandRule,
  check(plan, ctx) {
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      const raw = isObject(step.raw) ? step.raw[plan.fields.tool] : undefined;
      if (Array.isArray(raw)) {
        ctx.report({
          at: childPointer(step.at, plan.fields.tool),
          step: step.position,
          messageId: "toolList",
          data: { step: step.position, field: plan.fields.tool, count: raw.length },
          actual: raw,
        });
        continue;
      }
      if (step.tool !== undefined && JOINED.test(step.tool.trim())) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          messageId: "joinedTools",
          data: { step: step.position, tool: step.tool },
          actual: step.tool,
        });
      }
    }
    for (const { at, step, actual, finding, where } of commandFindings(plan, ctx.facts, "multiple-tools"))
      ctx.report({ at, step, messageId: finding.messageId, data: { ...findingData(finding), ...where }, actual });
  },
});
