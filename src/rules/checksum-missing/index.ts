import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "checksum-missing",
    input: "plan",
    defaultSeverity: "warning",
    dialects: ["scqc-envelope"],
    phase: "integrity",
    messages: {
      empty: { message: "The envelope's checksum is empty: the plan has no integrity protection.", hint: "run `plangate seal FILE --in-place` to add one" },
      absent: { message: "The envelope has no checksum: the plan has no integrity protection.", hint: "run `plangate seal FILE --in-place` to add one" },
    },
    summary: "The envelope has no checksum, so nothing protects its integrity.",
    docs: {
      description:
        "Reports a v1.0 envelope whose `checksum` is absent, empty or null. scQC's own loader silently skips the checksum check then; plangate does not. `plan.requireChecksum: true` makes it an error.",
      rationale: "Without a checksum, a manual edit or a corrupted step goes unnoticed.",
      fix: "Run `plangate seal FILE --in-place` to add the checksum.",
      bad: '{"version": "1.0", "plan": [{"tool": "plot_qc"}]}',
      good: '{"version": "1.0", "checksum": "<sha256 of the plan>", "plan": [{"tool": "plot_qc"}]}',
    },
  },
  check(plan, ctx) {
    const has = Object.hasOwn(plan.meta, "checksum");
    const stored = plan.meta.checksum;
    if (has && typeof stored === "string" && stored.trim() !== "") return;
    if (has && stored !== null && typeof stored !== "string") return; // invalid-type reports it
    ctx.report({
      at: has ? "/checksum" : "",
      key: has,
      messageId: has ? "empty" : "absent",
    });
  },
});
