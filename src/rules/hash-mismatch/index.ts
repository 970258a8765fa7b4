import { reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { messages } from "./messages.js";

/** The engine records the fact when an expected hash is given and neither the plan hash nor the file's SHA-256 is it. */
export default defineRule({
  meta: {
    id: "hash-mismatch",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "integrity",
    summary: "The plan's hash differs from --expected-hash.",
    docs: {
      description:
        "With `--expected-hash H`, reports a plan whose plan hash (sha256: of the RFC 8785 canonical JSON; for Markdown, of the text with \\n line endings) and whose raw-file SHA-256 both differ from H.",
      rationale: "The hash is the plan's identity: a plan that differs from the one the caller expects must not be run (the intake protocol §2).",
      fix: "Validate the plan you meant, or compute its hash with `plangate hash FILE` and pass that.",
      bad: "# --expected-hash: the hash of the approved plan, which read a.txt\nsteps:\n  - {tool: read_file, arguments: {path: b.txt}, intent: read b}",
      good: "# --expected-hash: the hash of the approved plan, which read a.txt\nsteps:\n  - {tool: read_file, arguments: {path: a.txt}, intent: read a}",
    },
  },
  check(input, context) {
    reportFacts("hash-mismatch", input, context);
  },
});
