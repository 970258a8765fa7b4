import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of unknown-format, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  unknownDialect: { message: 'The plan looks like the "{{dialect}}" dialect, which this build of plangate cannot read.', hint: "use one of the dialects ({{dialects}}), or pass --dialect to see what is missing" },
  notAPlan: { message: "The document is not a plan plangate knows: expected {{shapes}}.", hint: "use one of the dialects ({{dialects}}), or pass --dialect to see what is missing" },
  wrongSyntax: { message: 'The "{{dialect}}" dialect is written in {{syntaxes}}, not {{syntax}}.', hint: "write the plan as {{syntaxes}}, or choose another --dialect" },
} as const satisfies RuleMessages;
