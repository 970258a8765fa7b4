import { defineRule } from "../../core/rule.js";

/** A "delegation" rule: it judges a delegation as src/orchestration/delegation.ts describes it, outside plan validation. */
export default defineRule({
  meta: {
    id: "delegation-depth",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      tooDeep: {
        message: 'Delegation to "{{target}}" would reach depth {{depth}}, over the maximum of {{max}}.',
        hint: "finish the work at this level or return to the orchestrator; raise delegation.maxDepth only for deliberate deep chains",
      },
    },
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
  check(input, ctx) {
    if (input.depth <= input.maxDepth) return;
    ctx.report({ messageId: "tooDeep", data: { target: input.target, depth: input.depth, max: input.maxDepth }, expected: `<= ${input.maxDepth}`, actual: input.depth });
  },
});
