import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of md-action-separator, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  missing: { message: "Step {{step}} ({{word}}) is not separated from step {{previous}} by a `---` line.", hint: "put a line `---` (with blank lines around it) between the two actions, or set markdown.requireSeparators: false" },
} as const satisfies RuleMessages;
