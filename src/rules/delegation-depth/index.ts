import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "delegation-depth",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
    summary: "The delegation would go deeper than delegation.maxDepth.",
    docs: {
      description:
        "Reports a delegation whose child depth (hops from the root: an orchestrator's direct child has depth 1, so the child of the path `orchestrator,a,b` has depth 3) exceeds `delegation.maxDepth` (default 3, `--max-depth`). `--depth N` gives the depth the orchestrator tracks and wins over the count from `--path`.",
      rationale: "Unbounded delegation chains are how agent systems loop and hang (the orchestrator validation strategy: prevents infinite loops); a fixed ceiling stops them early.",
      fix: "Do the work at the current level or return to the orchestrator; raise delegation.maxDepth only for deliberately deep chains.",
      bad: "plangate check-delegation --target d --path orchestrator,a,b,c",
      good: "plangate check-delegation --target c --path orchestrator,a,b",
    },
  },
});
