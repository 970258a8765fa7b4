import type { RuleMessages } from "../../core/rule.js";

/** The missing-field sentence; ids that share it differ in their hint, which says what the field holds. */
const MISSING = '{{what}} is missing the required field "{{field}}".';

/**
 * The messages of missing-field, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // Shape (src/dialects/shape.ts): `what` names the object, `field` the key it lacks.
  missingField: { message: MISSING, hint: 'add "{{field}}"' },
  // scQC
  scqcTool: { message: MISSING, hint: 'add "tool" with the name of a registered tool' },
  // iKOMA
  ikomaStep: { message: MISSING, hint: "add \"step\" with the step's number: 1 for the first step, 2 for the second…" },
  ikomaToolName: { message: MISSING, hint: 'add "tool_name" with the name of a tool from the registry' },
  ikomaArgs: { message: MISSING, hint: "add \"args\" with the tool's arguments, {} when it takes none" },
  ikomaDescription: { message: MISSING, hint: 'add "description": one sentence on what the step accomplishes' },
  ikomaWrapper: { message: MISSING, hint: 'wrap the list of steps as {"plan": [ …steps… ], "reasoning": "why this plan achieves the goal"}' },
  ikomaReasoning: { message: MISSING, hint: "add \"reasoning\": why this plan will achieve the user's goal" },
  ikomaPlan: { message: MISSING, hint: 'add "plan": [{"step": 1, "tool_name": "…", "args": {…}, "description": "…"}]' },
  // intake
  intakeSteps: { message: MISSING, hint: "add steps: [{tool, arguments, intent}, …]" },
  intakeTool: { message: MISSING, hint: "add tool: with the name of one allowed tool" },
  intakeArguments: { message: MISSING, hint: "add arguments: {…} (write arguments: {} for a tool that takes none)" },
  // `seal` (src/ops/seal.ts): an envelope whose "plan" cannot be located.
  envelopeNoPlan: 'The envelope has no "plan".',
} as const satisfies RuleMessages;
