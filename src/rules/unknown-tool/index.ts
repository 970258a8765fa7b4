import { closest, type HintBudget } from "../../core/tools.js";

/** Characters and table cells the hints of one validation may compare (about a fifth of a second). */
const MAX_HINT_WORK = 20_000_000;
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { defineRule } from "../../core/rule.js";
import { globMatcher } from "../../core/glob.js";

export default defineRule({
  meta: {
    id: "unknown-tool",
    input: "plan",
    defaultSeverity: "error",
    dialects: TOOL_CALL_DIALECTS,
    phase: "step",
    messages: {
      unchecked: { message: "Tool names were not checked: no tool registry or allow list is in force, so any tool would be accepted.", hint: 'pass --tools FILE (one tool a line, or an MCP tools/list result) or set tools.allow / tools.registry in plangate.yaml; to accept every tool on purpose, write tools.allow: ["*"] (approve and guard start refuse until one is set)' },
      unknownToolNear: { message: "Step {{step}}: unknown tool \"{{tool}}\"; did you mean \"{{near}}\"?", hint: "did you mean \"{{near}}\"?" },
      unknownTool: { message: "Step {{step}}: unknown tool \"{{tool}}\" (not in {{source}})", hint: "use a tool listed in {{source}}, or add \"{{tool}}\" there" },
      // `approve`, `guard start` and plan mode refuse a plan whose tools nothing constrains (src/approval/record.ts).
      unconstrained: {
        message: "No tool registry or allow list is in force, so the plan's tool names were not checked: an approved plan could call any tool.",
        hint: 'pass --tools FILE, or set tools.allow, tools.allowFile or tools.registry in plangate.yaml; to accept every tool on purpose, write tools.allow: ["*"]',
      },
      // A plan compiled to a host's calls (src/host/profile.ts): steps no call of the host can match.
      hostNoTool: { message: "Step {{step}} has no tool, so no host call can be matched to it.", hint: "give every step a tool" },
      hostNotATool: { message: 'Step {{step}}: "{{tool}}" is not a {{host}} tool, so the host can never make this call.', hint: "use one of the host's tools ({{tools}})" },
      hostUnknownInput: {
        message: 'Step {{step}}: "{{input}}" is not an input of the {{host}} {{tool}} tool ({{inputs}}), so the host would refuse or ignore it and the call run would not be the one approved.',
        hint: "drop it, or say it in an input the tool has (a folder: cd DIR && … in the command)",
      },
      hostPathRefused: { message: 'Step {{step}}: the {{tool}} path "{{key}}" {{why}}, so no call of the host can match it.', hint: "write a path relative to the workspace, inside it" },
      teddyNoCall: { message: "Step {{step}}: the {{action}} action maps to no {{host}} tool call, so it cannot be enforced.", hint: "use an action the {{host}} profile maps ({{actions}})" },
      teddyUntitledNoCall: { message: "Step {{step}}: the untitled action maps to no {{host}} tool call, so it cannot be enforced.", hint: "use an action the {{host}} profile maps ({{actions}})" },
      teddyUrlNoCall: { message: "Step {{step}}: a {{action}} of a URL maps to no {{host}} tool call.", hint: "see the host profile's teddy mapping" },
      teddyFileNoCall: { message: "Step {{step}}: a {{action}} of a file path maps to no {{host}} tool call.", hint: "see the host profile's teddy mapping" },
      teddyIgnoredSetting: {
        message: 'Step {{step}}: "{{key}}" is not a setting TeDDy reads for {{action}}, and no {{host}} call carries it, so the reviewer would read a setting that nothing applies.',
        hint: "drop it, or say it where it takes effect (a folder: cd DIR && … in the command)",
      },
      teddyUnbound: { message: 'Step {{step}}: the {{action}} action sets "{{key}}", which a {{host}} {{tool}} call cannot carry, so the call cannot be enforced.', hint: "fold it into the command (cd DIR && …), or drop it" },
      teddyNoEdits: { message: "Step {{step}}: the {{action}} action has no FIND/REPLACE pair, so it makes no call to match.", hint: "complete the action" },
      teddyNoQuery: { message: "Step {{step}}: the {{action}} action has no query, so it makes no call to match.", hint: "complete the action" },
      teddyNoValue: { message: "Step {{step}}: the {{action}} action gives no {{source}} for {{tool}}.{{key}}, so the call cannot be enforced.", hint: "complete the action" },
      teddyEmptyFind: { message: "Step {{step}}: a FIND of the {{action}} action is empty; as {{tool}}.{{key}} it would not be an edit of the text the reviewer saw.", hint: "put the exact text to replace in the FIND block" },
      teddyPathRefused: { message: 'Step {{step}}: the {{tool}} {{key}} "{{value}}" {{why}}, so no call of the host can match it.', hint: "write a path relative to the workspace, inside it" },
    },
    summary: "A step calls a tool that is not in the registry or allow list.",
    docs: {
      description:
        "Reports a step whose tool is not in the tool registry (`--tools FILE`, policy tools.allow / allowFile / registry). Names are compared exactly; the hint names the closest known tool. Without any registry or allow list the tools are unconstrained: one warning per plan says so, and `approve` and `guard start` refuse the plan until the policy names its tools or says `tools.allow: [\"*\"]` explicitly.",
      rationale: "A tool that does not exist fails mid-plan at best; at worst a look-alike name resolves to something else (scQC check 7, tool whitelist).",
      fix: "Use a tool from the registry (see the hint), or add the tool to the registry if it is legitimate.",
      bad: "# tools.txt: plot_qc\nsteps:\n  - {tool: plot_qcc, arguments: {}, intent: plot the QC metrics}",
      good: "# tools.txt: plot_qc\nsteps:\n  - {tool: plot_qc, arguments: {}, intent: plot the QC metrics}",
    },
  },
  check(plan, ctx) {
    const tools = ctx.tools;
    if (!tools) {
      // Once per plan, as a warning: nothing constrains the tools. approve and guard start refuse such a plan.
      ctx.report({
        at: plan.stepsAt,
        atMost: "warning",
        messageId: "unchecked",
      });
      return;
    }
    const patterns = tools.patterns.map(globMatcher);
    // The hints of one validation compare names up to a bound: thousands of unknown tools against a
    // registry of thousands took minutes. Past it the steps are still reported, without a hint.
    const hints: HintBudget = { left: MAX_HINT_WORK };
    for (let s = 0, steps = plan.steps; s < steps.length; s++) {
      const step = steps[s]!;
      if (step.tool === undefined) continue;
      if (tools.names.has(step.tool) || patterns.some((p) => p.test(step.tool!))) continue;
      const near = closest(step.tool, tools.names, hints);
      ctx.report({
        at: step.toolAt,
        step: step.position,
        messageId: near ? "unknownToolNear" : "unknownTool",
        data: { step: step.position, tool: step.tool, near: near ?? "", source: tools.source },
        actual: step.tool,
      });
    }
  },
});
