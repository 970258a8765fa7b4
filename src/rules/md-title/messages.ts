import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of md-title, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  missing: { message: "The plan has no `# Title` (H1) heading.", hint: "start the plan with one line `# <what this plan does>`" },
  second: { message: 'Line {{line}}: a second H1 heading "{{text}}"; a plan has exactly one `# Title`.', hint: "make it a lower-level heading (`##`), or put it inside a code block" },
} as const satisfies RuleMessages;
