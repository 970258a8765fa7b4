import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of file-not-found, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  missing: { message: "Plan file not found: {{path}} does not exist.", hint: "check the path" },
  notAFile: { message: "Plan file not found: {{path}} is {{kind}}.", hint: "check the path" },
  unreadable: { message: "Plan file not found: {{path}} cannot be read ({{code}}).", hint: "check the path" },
} as const satisfies RuleMessages;
