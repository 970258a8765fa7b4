import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "delegation-cycle",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
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
});
