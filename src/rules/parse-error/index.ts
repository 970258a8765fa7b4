import { commandFindings, prepareCommandRule } from "../../commands/report.js";
import { planContext, reportFacts } from "../../core/input/read.js";
import { defineRule } from "../../core/rule.js";
import { findingData } from "../command-findings.js";
import { messages } from "./messages.js";

/**
 * A rule of one input kind, "read": the readers record the faults of the bytes, the syntax and the
 * TeDDy action blocks as facts, and once reading has produced a plan the read input carries it, so the
 * same rule also reports the command lines the shell parser cannot read. A command is read as the plan
 * is, and one id with two kinds of input would need two runners and two orders.
 */
export default defineRule({
  meta: {
    id: "parse-error",
    input: "read",
    messages,
    defaultSeverity: "error",
    phase: "read",
    summary: "The file is not well-formed JSON, YAML or Markdown, or not UTF-8.",
    docs: {
      description:
        "Reports the first syntax error of a JSON or YAML plan, at the position of the fault, and files that are not UTF-8 text. A `.json` file must be JSON: it is not re-read as YAML. Also reports a command line (a `command`, `cmd` or `script` argument, a Markdown EXECUTE block) that the shell parser cannot read or that holds syntax plangate does not follow: a syntax error, a function definition, a backslash-newline inside a word, control characters, arithmetic with substitutions, a command over 16 KiB, one of more than 1,024 pipes or one the parser would go back over more than 16 times, the command lines of a plan past 128 KiB of distinct lines or 16,384 programs they run, and those past 16 KiB of lines the parser could not read.",
      rationale:
        "A corrupted or truncated plan must be rejected before any step is interpreted (scQC check 2); guessing at a broken document is how two tools come to disagree on what a plan says.",
      fix: "Fix the syntax at the reported line and column (a missing comma or quote, a trailing comma, an unclosed bracket), and save the file as UTF-8.",
      bad: '[{"tool": "plot_qc",}]',
      good: '[{"tool": "plot_qc"}]',
    },
  },
  async prepare(input, context) {
    if (input.normalized) await prepareCommandRule(input.normalized.plan, planContext(input.normalized, context));
  },
  check(input, context) {
    reportFacts("parse-error", input, context);
    if (!input.normalized) return;
    const { plan, facts } = planContext(input.normalized, context);
    for (const { at, step, actual, finding, where } of commandFindings(plan, facts, "parse-error"))
      context.report({ at, step, messageId: finding.messageId, data: { ...findingData(finding), ...where }, actual });
  },
});
