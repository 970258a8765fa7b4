import { pythonChecksum } from "../../core/canonical/python-json.js";
import { defineRule } from "../../core/rule.js";

/** Strips an optional `sha256:` prefix (any case) and lower-cases the hex. */
export function normaliseChecksum(text: string): string {
  const t = text.trim();
  return (t.toLowerCase().startsWith("sha256:") ? t.slice(7) : t).toLowerCase();
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
  check(plan, ctx) {
    const stored = plan.meta.checksum;
    if (typeof stored !== "string" || stored.trim() === "") return;
    const root = plan.source.value as Record<string, unknown>;
    const numbers = plan.source.numbers;
    // The plan is a sub-value: its own lexeme (if it is a bare number) is stored under its parent.
    const actual = pythonChecksum(root.plan, { get: numbers.get.bind(numbers), rootLexeme: numbers.get(root, "plan") });
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
