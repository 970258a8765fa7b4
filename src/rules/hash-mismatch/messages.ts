import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of hash-mismatch, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  differs: { message: "The plan hash {{planHash}} differs from the expected {{expected}}: this is not the plan you meant to run.", hint: "validate the plan you meant, or compute its hash with `plangate hash FILE`" },
  unreadable: { message: "The plan could not be read, so it cannot have the expected hash {{expected}}.", hint: "validate the plan you meant, or compute its hash with `plangate hash FILE`" },
} as const satisfies RuleMessages;
