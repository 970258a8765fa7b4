import { defineRule } from "../../core/rule.js";
import { normaliseAgent } from "./agent-name.js";

/** A "delegation" rule: it judges a delegation as src/orchestration/delegation.ts describes it, outside plan validation. */
export default defineRule({
  meta: {
    id: "delegation-cycle",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      cycle: {
        message: 'Delegation to "{{target}}" would form a cycle: {{chain}} ("{{agent}}" is already at position {{position}} of the path).',
        hint: "return to the agent already in the path instead of delegating to it again",
      },
    },
    summary: "The target agent is already in the delegation path.",
    docs: {
      description:
        "Reports a delegation to an agent already in `--path`. Names are compared after Unicode NFKC normalisation, case folding, removal of invisible characters and a leading `@` or `/`, with runs of spaces, `_`, `-` and `.` unified, so `Planner`, `planner_agent` and `planner-agent` match their look-alikes.",
      rationale: "A cycle (A → B → A) never ends on its own: each agent hands the work back (the orchestrator validation strategy: \"No cycles in delegation_path\").",
      fix: "Return to the agent already in the path instead of delegating to it again.",
      bad: "plangate check-delegation --target Planner --path orchestrator,planner,researcher",
      good: "plangate check-delegation --target implementer --path orchestrator,planner",
    },
  },
  check(input, ctx) {
    const target = normaliseAgent(input.target);
    const hit = input.path.findIndex((p) => normaliseAgent(p) === target);
    if (hit < 0) return;
    const chain = [...input.path, input.target].join(" → ");
    ctx.report({ messageId: "cycle", data: { target: input.target, chain, agent: input.path[hit]!, position: hit + 1 }, actual: chain });
  },
});
