import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of md-missing-section, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  noRationale: { message: "The plan has no `## Rationale` section.", hint: "add `## Rationale` after the title, with the reasoning behind the plan" },
  noActionPlan: { message: "The plan has neither an `## Action Plan` nor a `## Message` section.", hint: "add `## Action Plan` with the actions as `### CREATE` / `### EDIT` / `### READ` / `### PRUNE` headings" },
  secondSection: { message: "Line {{line}}: a second `## {{text}}` section (the first is on line {{first}}); a plan has one.", hint: "merge the two sections into one" },
  bothSections: { message: "The plan has both `## Action Plan` and `## Message`; a turn either acts or talks to the user, not both.", hint: "keep one of the two sections" },
} as const satisfies RuleMessages;
