import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of step-numbering, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // A nested step, numbered within its list (src/dialects/ikoma/steps.ts)
  nested: { message: "{{what}} is numbered {{number}}; nested steps are numbered 1, 2, 3… within their list, so this one is {{expected}}.", hint: 'set "step": {{expected}}' },
  // A top-level step whose number is not its position (the rule's own check of the plan)
  repeats: { message: 'Step {{step}}: "step" is {{number}}, which repeats step {{earlier}}\'s number; steps are numbered 1, 2, 3… in order, so this one is {{step}}.', hint: 'set "step": {{step}}' },
  skips: { message: 'Step {{step}}: "step" is {{number}}, which skips to {{number}}; steps are numbered 1, 2, 3… in order, so this one is {{step}}.', hint: 'set "step": {{step}}' },
  outOfOrder: { message: 'Step {{step}}: "step" is {{number}}, which is out of order; steps are numbered 1, 2, 3… in order, so this one is {{step}}.', hint: 'set "step": {{step}}' },
} as const satisfies RuleMessages;
