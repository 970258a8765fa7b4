import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "hash-mismatch",
    defaultSeverity: "error",
    phase: "integrity",
    summary: "The plan's hash differs from --expected-hash.",
    docs: {
      description:
        "With `--expected-hash H`, reports a plan whose plan hash (sha256: of the RFC 8785 canonical JSON; for Markdown, of the text with \\n line endings) and whose raw-file SHA-256 both differ from H.",
      rationale: "The hash is the plan's identity: a plan that differs from the one the caller expects must not be run (the intake protocol §2).",
      fix: "Validate the plan you meant, or compute its hash with `plangate hash FILE` and pass that.",
      bad: "plangate validate plan.json --expected-hash sha256:0000…",
      good: "plangate validate plan.json --expected-hash $(plangate hash plan.json)",
    },
  },
});
