import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of unknown-key, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // Shape (src/dialects/shape.ts)
  unknownKey: { message: '{{what}}: unknown key "{{key}}"', hint: "remove it; the known keys are {{known}}" },
  unknownKeyNear: { message: '{{what}}: unknown key "{{key}}"; did you mean "{{near}}"?', hint: 'rename it to "{{near}}"' },
} as const satisfies RuleMessages;
