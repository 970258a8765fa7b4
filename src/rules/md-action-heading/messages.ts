import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of md-action-heading, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  outsideActionPlan: { message: "Line {{line}}: a {{word}} action outside `## Action Plan`; it would not be checked.", hint: "move the action under `## Action Plan`, or put the text in a code block" },
  strayContent: { message: "Line {{line}}: content under `## Action Plan` that is not under an action heading; every action starts with an H3 such as `### EDIT`.", hint: "put the content under its `### ACTION` heading, or move it to `## Rationale`" },
  level: { message: "Step {{step}}: the {{word}} action is under an H{{level}} heading; actions are H3 (`### {{word}}`).", hint: "write it as `### {{word}}`" },
  unknownType: { message: 'Step {{step}}: unknown action type "{{word}}"', hint: "use one of {{known}}" },
  unknownTypeNear: { message: 'Step {{step}}: unknown action type "{{word}}"; did you mean "{{near}}"?', hint: 'did you mean "{{near}}"?' },
  unknownTypeMessage: { message: 'Step {{step}}: unknown action type "{{word}}"', hint: "a message to the user is a `## Message` section in place of `## Action Plan`, not an action" },
} as const satisfies RuleMessages;
