import type { RuleMessages } from "../../core/rule.js";

/** The generic wrong-type sentence; ids that share it differ in their hint, which shows the right form. */
const WRONG_TYPE = "{{what}} must be {{expected}}, not {{actual}}.";

/**
 * The messages of invalid-type, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // Shape (src/dialects/shape.ts): `what` names the place, `expected` the type it must have.
  wrongType: { message: "{{what}} must be {{expected}}, not {{actual}}.", hint: "write {{what}} as {{expected}}" },
  badRepeat: { message: '{{what}}: "repeat" must be an integer from 1 to {{max}}, not {{actual}}.', hint: 'write the number of times the call runs in a row, 1 to {{max}}, or leave "repeat" out' },
  stepsNotSubagent: { message: '{{what}}: only a {{tools}} step (a subagent) may have nested "steps"; this step\'s tool is "{{tool}}".', hint: "move these steps to the top level of the plan, or make this step a Task step" },
  stepsNotSubagentUnknownTool: { message: '{{what}}: only a {{tools}} step (a subagent) may have nested "steps"; this step\'s tool is not known.', hint: "move these steps to the top level of the plan, or make this step a Task step" },
  // scQC (src/dialects/scqc)
  unsupportedVersion: { message: 'Unsupported envelope version "{{version}}": plangate reads version {{supported}}.', hint: 'set "version": "1.0", or migrate the plan with a plangate that knows this version' },
  badCreatedAt: { message: '"created_at" must be an ISO 8601 timestamp such as "2025-10-05T15:40:20.123456", not {{actual}}.', hint: "write the creation time as YYYY-MM-DDTHH:MM:SS[.ffffff][Z]" },
  legacyNotArray: { message: "A legacy scQC plan must be a JSON array of steps, not {{actual}}.", hint: 'write [{"tool": "…"}, …]' },
  scqcPlanList: { message: WRONG_TYPE, hint: 'write "plan": [{"tool": "…"}, …]' },
  scqcStep: { message: WRONG_TYPE, hint: 'write the step as {"tool": "…", "description": "…", "params": {…}}' },
  // iKOMA (src/dialects/ikoma)
  ikomaStep: { message: WRONG_TYPE, hint: 'write the step as {"step": {{position}}, "tool_name": "…", "args": {…}, "description": "…"}' },
  ikomaArgs: { message: WRONG_TYPE, hint: 'write "args" as an object, {} when the tool takes none' },
  ikomaCitations: { message: WRONG_TYPE, hint: 'write "citations": [1, 2], or leave it out' },
  ikomaPlanList: { message: WRONG_TYPE, hint: 'write "plan": [{"step": 1, "tool_name": "…", …}, …]' },
  ikomaStepNotPositive: { message: "{{what}} must be a positive integer (1 or more), not {{value}}.", hint: 'set "step": {{position}}' },
  ikomaStepNotIntegerShown: { message: "{{what}} must be a positive integer, not {{actual}} ({{value}}).", hint: 'set "step": {{position}}' },
  ikomaStepNotInteger: { message: "{{what}} must be a positive integer, not {{actual}}.", hint: 'set "step": {{position}}' },
  ikomaCitationNotPositive: { message: "{{what}} must be a positive integer (1 or more), not {{value}}.", hint: "cite sources by their number, starting at 1" },
  ikomaCitationNotIntegerShown: { message: "{{what}} must be a positive integer, not {{actual}} ({{value}}).", hint: "cite sources by their number, starting at 1" },
  ikomaCitationNotInteger: { message: "{{what}} must be a positive integer, not {{actual}}.", hint: "cite sources by their number, starting at 1" },
  // intake (src/dialects/intake)
  intakeSteps: { message: WRONG_TYPE, hint: "write steps: [{tool, arguments, intent}, …]" },
  intakeStep: { message: WRONG_TYPE, hint: "write the step as {tool: …, arguments: {…}, intent: …}" },
  intakeArguments: { message: WRONG_TYPE, hint: "write arguments as a mapping of names to values" },
} as const satisfies RuleMessages;
