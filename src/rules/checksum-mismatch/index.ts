import { pythonChecksum } from "../../core/canonical/python-json.js";
import type { PlanFacts } from "../../core/facts.js";
import type { Plan } from "../../core/plan.js";
import { defineRule } from "../../core/rule.js";

/** Strips an optional `sha256:` prefix (any case) and lower-cases the hex. */
export function normaliseChecksum(text: string): string {
  const t = text.trim();
  return (t.toLowerCase().startsWith("sha256:") ? t.slice(7) : t).toLowerCase();
}

const CHECKSUM = Symbol("scqc-checksum");

/** The checksum of the envelope's plan, as Python's json.dumps prints it, once per validation; undefined without a stored one. */
function actualChecksum(plan: Plan, facts: PlanFacts): string | undefined {
  return facts.derive(CHECKSUM, plan, () => {
    const stored = plan.meta.checksum;
    if (typeof stored !== "string" || stored.trim() === "") return undefined;
    const root = plan.source.value as Record<string, unknown>;
    const numbers = plan.source.numbers;
    // The plan is a sub-value: its own lexeme (if it is a bare number) is stored under its parent.
    return pythonChecksum(root.plan, { get: numbers.get.bind(numbers), rootLexeme: numbers.get(root, "plan") });
  });
}

export default defineRule({
  meta: {
    id: "checksum-mismatch",
    input: "plan",
    defaultSeverity: "error",
    dialects: ["scqc-envelope"],
    phase: "integrity",
    messages: {
      mismatch: { message: "Plan integrity check failed: the checksum does not match the plan; the plan was modified after it was sealed.", hint: "review the change, then run `plangate seal FILE --in-place` to recompute the checksum, or restore the sealed plan" },
    },
    summary: "The envelope's checksum does not match its plan.",
    docs: {
      description:
        "Computes SHA-256 of Python's json.dumps(plan, sort_keys=True) (byte for byte, from the source text) and compares it with the envelope's `checksum` (with or without a `sha256:` prefix). `expected` is the stored checksum, `actual` the computed one.",
      rationale:
        "A mismatch means the plan was edited after the checksum was taken: a manual modification or a corrupted file (scQC check 4). Executing it would run steps nobody sealed.",
      fix: "If the edit was intended, review it and run `plangate seal FILE --in-place` to recompute the checksum; otherwise restore the plan.",
      bad: '{"version": "1.0", "checksum": "78ce8af9b3d22fd689c3236558740edd0b32a81c59be70190622f42052fa2a3c", "plan": [{"tool": "run_scar"}]}',
      good: '{"version": "1.0", "checksum": "78ce8af9b3d22fd689c3236558740edd0b32a81c59be70190622f42052fa2a3c", "plan": [{"tool": "plot_qc"}]}',
    },
  },
  // The checksum is worked out in prepare, before the rules' facts fill the heap: the text it hashes, made
  // in chunks, is garbage a collection then sweeps without copying them along.
  async prepare(plan, ctx) {
    actualChecksum(plan, ctx.facts);
  },
  check(plan, ctx) {
    const stored = plan.meta.checksum;
    if (typeof stored !== "string" || stored.trim() === "") return;
    const actual = actualChecksum(plan, ctx.facts)!;
    const expected = normaliseChecksum(stored);
    if (expected !== actual) {
      ctx.report({
        at: "/checksum",
        messageId: "mismatch",
        expected: stored,
        actual,
      });
    }
  },
});
