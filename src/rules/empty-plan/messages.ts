import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of empty-plan, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // Shape (src/dialects/shape.ts)
  emptyList: { message: "{{what}} is empty: a plan needs at least one step.", hint: "add the steps to run, or do not submit an empty plan" },
} as const satisfies RuleMessages;
