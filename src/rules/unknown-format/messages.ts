import type { RuleMessages } from "../../core/rule.js";

/** How an accepted plan-mode plan is written so that it can be enforced: the end of the plan-mode hints. */
export const HOW_TO_WRITE =
  "write the plan either as a TeDDy plan (`# Title`, `## Rationale`, `## Action Plan` with `### CREATE` / `### EDIT` / `### READ` / `### EXECUTE` actions) or as prose plus exactly one top-level ```json (or ```yaml) block holding the intake plan (`steps`); no HTML, comments, reference definitions or invisible characters";

/**
 * The messages of unknown-format, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  unknownDialect: { message: 'The plan looks like the "{{dialect}}" dialect, which this build of plangate cannot read.', hint: "use one of the dialects ({{dialects}}), or pass --dialect to see what is missing" },
  notAPlan: { message: "The document is not a plan plangate knows: expected {{shapes}}.", hint: "use one of the dialects ({{dialects}}), or pass --dialect to see what is missing" },
  wrongSyntax: { message: 'The "{{dialect}}" dialect is written in {{syntaxes}}, not {{syntax}}.', hint: "write the plan as {{syntaxes}}, or choose another --dialect" },
  // Claude Code's plan mode (src/node/plan-mode.ts): an accepted plan that holds no one enforceable plan.
  planModeNoText: { message: "ExitPlanMode carried no plan text (tool_input.plan is missing or empty).", hint: HOW_TO_WRITE },
  planModeHeadings: { message: "The plan has {{count}} Action Plan headings (lines {{lines}}); only one can be enforced.", hint: "keep one `## Action Plan` section; " + HOW_TO_WRITE },
  planModeHeadingForm: { message: 'Line {{line}}: the heading "{{text}}" looks like an action plan but is not a top-level `## Action Plan`.', hint: "write it exactly as `## Action Plan` at the top level, or rename it; " + HOW_TO_WRITE },
  planModeNestedBlock: { message: "Line {{line}}: the ```{{lang}} block is inside a list or a quote; the plan block must stand at the top level.", hint: "move the block out of the list or quote; " + HOW_TO_WRITE },
  planModeLookalikeBlock: { message: "Line {{line}}: a ```{{lang}} block is not read as a plan; only ```json, ```yaml and ```yml blocks are.", hint: "label the plan block ```json or ```yaml, and other blocks with another language; " + HOW_TO_WRITE },
  planModeNoPlan: { message: "The plan holds no enforceable plan: neither a `## Action Plan` section nor a ```json / ```yaml block.", hint: HOW_TO_WRITE },
  planModeCandidates: { message: "The plan holds {{count}} candidate plans: {{where}}; exactly one can be enforced.", hint: "keep one; show examples as prose or in blocks of another language (```text); " + HOW_TO_WRITE },
  // `seal` and `migrate` (src/ops/seal.ts): the file is not the scQC form the command edits.
  sealLegacy: { message: "This is a legacy plan (a bare list): it has no envelope to seal.", hint: "run `plangate migrate FILE` to wrap it in a sealed v1.0 envelope" },
  sealNotEnvelope: { message: "This is not a scQC v1.0 envelope.", hint: 'seal works on {"version": "1.0", …, "plan": [...]} envelopes' },
  migrateEnvelope: { message: "This plan is already a v1.0 envelope.", hint: "run `plangate seal FILE` to recompute its checksum" },
  migrateNotLegacy: { message: "This is not a legacy scQC plan (a JSON array of steps).", hint: 'migrate takes a JSON array of {"tool", …} steps' },
  migrateNotLegacyObject: { message: "This is not a legacy scQC plan (a JSON array of steps).", hint: "run `plangate seal FILE` to recompute its checksum" },
} as const satisfies RuleMessages;
