import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { closest, editDistance, type HintBudget } from "./tools.js";

/** Levenshtein distance, the whole table. */
function plain(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) cur.push(Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    prev = cur;
  }
  return prev[b.length]!;
}

describe("editDistance", () => {
  it("is Levenshtein's distance up to the bound, and the bound plus one past it", () => {
    const word = fc.array(fc.constantFrom("a", "b", "c", "_"), { maxLength: 12 }).map((p) => p.join(""));
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 6 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(plain(a, b), max + 1));
      }),
      { numRuns: 3000 },
    );
  });

  it("computes only the cells near the diagonal: a pair costs (2 max + 1) cells a character, not the product", () => {
    const budget: HintBudget = { left: 1_000_000 };
    const a = "tool_" + "x".repeat(1000);
    expect(editDistance(a, "tuul_" + "x".repeat(1000), 4, budget)).toBe(2);
    expect(1_000_000 - budget.left).toBeLessThanOrEqual(a.length * 9);
  });
});

describe("closest", () => {
  it("names the nearest candidate within the bound, and stops comparing when its budget is spent", () => {
    const names = Array.from({ length: 20_000 }, (_, i) => `tool_${"x".repeat(50)}${i}`);
    expect(closest(`tuul_${"x".repeat(50)}7`, names.slice(0, 10))).toBe(`tool_${"x".repeat(50)}7`);
    const budget: HintBudget = { left: 2_000_000 };
    closest(`tuul_${"x".repeat(50)}19999`, names, budget);
    // Every candidate compared costs its length and its cells: 20,000 of them would cost some 12 million.
    expect(budget.left).toBeLessThanOrEqual(0);
    expect(budget.left).toBeGreaterThan(-2_000);
    expect(closest("plot_qcc", ["plot_qc", "read_file"], { left: 0 })).toBeUndefined();
  });
});
