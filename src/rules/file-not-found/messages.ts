import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of file-not-found, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // Commands that read a plan file (src/node/read-bounded.ts)
  missing: { message: "Plan file not found: {{path}} does not exist.", hint: "check the path" },
  notAFile: { message: "Plan file not found: {{path}} is {{kind}}.", hint: "check the path" },
  unreadable: { message: "Plan file not found: {{path}} cannot be read ({{code}}).", hint: "check the path" },
  failed: { message: "Plan file not found: {{path}} ({{code}}).", hint: "check the path" },
  // `validate` (src/node/validate-file.ts): the plan may not have been written yet.
  missingForValidation: { message: "Plan file not found: {{path}} does not exist.", hint: "check the path, or that the plan was written before validation runs" },
  notAPlanFile: { message: "Plan file not found: {{path}} is {{kind}}, not a plan file.", hint: "check the path, or that the plan was written before validation runs" },
  unreadableForValidation: { message: "Plan file not found: {{path}} cannot be read ({{code}}).", hint: "check the path, or that the plan was written before validation runs" },
} as const satisfies RuleMessages;
