import type { RuleMessages } from "../../core/rule.js";
import { inStepCommand } from "../command-findings.js";
import { commandClauses } from "./command-messages.js";

/**
 * The messages of parse-error, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // JSON (src/syntax/json.ts): terse clauses, which a validation report speaks as sentences.
  jsonUnreadable: "the JSON could not be read ({{reason}})",
  jsonEmpty: { message: "the file is empty: write a JSON plan", hint: "a plan is a JSON object or array" },
  jsonTrailingValue: { message: "unexpected {{found}} after the JSON value: a JSON document holds exactly one value", hint: "remove it, or wrap the values in an array" },
  jsonTrailingComma: { message: "trailing comma is not allowed in JSON", hint: "remove the ',' before the closing bracket" },
  jsonExpectedColon: { message: "expected ':' after object key, found {{found}}", hint: 'write members as "key": value' },
  jsonBadUnicodeEscape: { message: "invalid \\u escape: it needs exactly four hex digits", hint: "write e.g. \\u00e9" },
  jsonBadEscape: { message: "invalid escape '{{escape}}' in string", hint: 'JSON escapes are \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\uXXXX; write a backslash as \\\\' },
  jsonLeadingZeros: { message: "leading zeros are not allowed in JSON numbers", hint: "write the number without leading zeros, or quote it as a string" },
  jsonMinusDigit: { message: "expected a digit after '-'", hint: "write a number such as -1" },
  jsonFractionDigit: { message: "expected a digit after the decimal point", hint: "write 1.0 or 1, not 1." },
  jsonExponentDigit: { message: "expected a digit in the exponent", hint: "write an exponent such as 1e5" },
  jsonNonFinite: { message: "{{token}} is not valid JSON", hint: "JSON has no NaN or Infinity: use null or a string" },
  jsonLiteralCase: { message: "'{{token}}' is not a JSON literal: JSON literals are lowercase true, false and null", hint: "write {{lower}}" },
  jsonBareWord: { message: "unexpected word '{{token}}': JSON strings must be in double quotes", hint: 'write "{{token}}" if it is text' },
  jsonIncomplete: { message: "unexpected end of input: the document is incomplete", hint: "add the missing value" },
  jsonIncompleteOpen: { message: "unexpected end of input: the document is incomplete", hint: "close the '{{open}}' opened at line {{line}}, column {{column}}" },
  jsonUnterminated: { message: "unterminated string: the closing '\"' is missing", hint: "add the closing double quote" },
  jsonStringLineBreak: { message: "unterminated string: a JSON string cannot contain a line break", hint: "close the string with '\"', or write the line break as \\n" },
  jsonControlInString: { message: "control character {{found}} inside a string", hint: "write it as an escape such as \\t or \\u0000" },
  jsonSingleQuotedKey: { message: "object keys must use double quotes, not single quotes", hint: "replace ' with \"" },
  jsonUnquotedKey: { message: "object keys must be double-quoted strings, found '{{word}}'", hint: 'write "{{word}}"' },
  jsonExpectedKey: { message: "expected a double-quoted object key, found {{found}}", hint: 'write members as "key": value' },
  jsonSingleQuotedString: { message: "strings must use double quotes, not single quotes", hint: "replace ' with \"" },
  jsonComment: { message: "comments are not allowed in JSON", hint: "remove the comment" },
  jsonPlusSign: { message: "JSON numbers cannot start with '+'", hint: "remove the '+'" },
  jsonLeadingDot: { message: "JSON numbers must start with a digit", hint: "write 0.5, not .5" },
  jsonExpectedValue: { message: "expected a value, found {{found}}", hint: "a value is an object, array, string, number, true, false or null" },
  jsonExpectedValueAfter: { message: "expected a value after '{{after}}', found {{found}}", hint: "a value is an object, array, string, number, true, false or null" },
  jsonExpectedValueBinary: { message: "expected a value, found {{found}}", hint: "the file may be UTF-16 or binary: save it as UTF-8 text" },
  jsonExpectedValueAfterBinary: { message: "expected a value after '{{after}}', found {{found}}", hint: "the file may be UTF-16 or binary: save it as UTF-8 text" },
  jsonAfterElement: { message: "expected ',' or ']' after array element, found {{found}}", hint: "separate elements with ','" },
  jsonAfterMember: { message: "expected ',' or '}' after object member, found {{found}}", hint: "separate members with ','" },
  jsonAfterElementCloser: { message: "expected ',' or ']' after array element, found {{found}}", hint: "the '{{open}}' opened at line {{line}}, column {{column}} must be closed with ']'" },
  jsonAfterMemberCloser: { message: "expected ',' or '}' after object member, found {{found}}", hint: "the '{{open}}' opened at line {{line}}, column {{column}} must be closed with '}'" },
  // Decoding (src/syntax/decode.ts)
  undecodable: { message: "the file could not be decoded ({{reason}})", hint: "save the file as UTF-8 (without a byte order mark is best)" },
  foreignEncoding: { message: "the file is encoded as {{encoding}} (it starts with a {{encoding}} byte order mark): save the file as UTF-8 (without a byte order mark is best)", hint: "save the file as UTF-8 (without a byte order mark is best)" },
  notUtf8: { message: "the file is not valid UTF-8: bad byte {{byte}} at byte offset {{offset}}; save the file as UTF-8 (without a byte order mark is best)", hint: "save the file as UTF-8 (without a byte order mark is best)" },
  notUtf8AtEnd: { message: "the file is not valid UTF-8: bad byte end of file at byte offset {{offset}}; save the file as UTF-8 (without a byte order mark is best)", hint: "save the file as UTF-8 (without a byte order mark is best)" },
  // The engine: one byte order mark is tolerated, a second is content other readers choke on.
  doubleBom: { message: "The file starts with two byte order marks.", hint: "save the file as UTF-8 without a byte order mark" },
  // Sealing keeps one mark as written (src/ops/seal.ts), so its hint allows one.
  doubleBomAtMostOne: { message: "The file starts with two byte order marks.", hint: "save the file as UTF-8 with at most one byte order mark" },
  // A document with no value and no fault recorded (src/ops/seal.ts)
  unreadable: { message: "The file could not be read.", hint: "fix the file first" },
  // Reading a syntax (src/syntax/index.ts, markdown.ts)
  syntaxUnsupported: { message: "{{syntax}} plans cannot be read by this build of plangate.", hint: "convert the plan to JSON" },
  markdownEmpty: { message: "The file is empty: write a Markdown plan.", hint: "start with a `# Title` heading, then `## Rationale` and `## Action Plan`" },
  markdownOpenFence: { message: "The code block opened at line {{line}} with {{fence}} is never closed, so it runs to the end of the document.", hint: "close it with a line of {{fence}}" },
  // YAML (src/syntax/yaml.ts)
  yamlEmpty: { message: "The file is empty: write a YAML plan.", hint: "add the plan's root mapping, e.g. steps: [...]" },
  yamlControlCharacter: { message: "Control character {{code}} is not allowed in a YAML file.", hint: "remove it, or write it as an escape in a double-quoted string; the file may be binary or in another encoding" },
  yamlSyntax: { message: "YAML syntax error: {{detail}}", hint: "fix the YAML syntax at this position" },
  yamlSyntaxDuplicateKey: { message: "YAML syntax error: {{detail}}", hint: "keep exactly one of the keys" },
  yamlSyntaxMultipleDocuments: { message: "YAML syntax error: {{detail}}", hint: "a plan file holds one YAML document: remove the extra '---' section" },
  yamlSyntaxIndentation: { message: "YAML syntax error: {{detail}}", hint: "check the indentation and the ':' after each key" },
  yamlSyntaxTab: { message: "YAML syntax error: {{detail}}", hint: "indent with spaces, not tabs" },
  yamlUnreadable: { message: "The YAML could not be read: {{reason}}", hint: "check the YAML syntax" },
  yamlUnclosedSingle: { message: "The single-quoted {{what}} is not closed.", hint: "close the string with its quote" },
  yamlUnclosedDouble: { message: "The double-quoted {{what}} is not closed.", hint: "close the string with its quote" },
  // TeDDy actions (src/dialects/teddy/action.ts)
  teddyTextAfterBlock: { message: "Step {{step}} ({{type}}): text after the code block at line {{line}} cannot be read: {{action}} ends with its one code block.", hint: 'remove it, or move it above the code block (as a "Description")' },
  teddySecondBlock: { message: "Step {{step}} ({{type}}): a second code block at line {{line}} cannot be read: {{action}} ends with its one code block.", hint: 'remove it, or move it above the code block (as a "Description")' },
  // Claude Code's plan mode (src/node/plan-mode.ts)
  // Command lines (src/commands/analyse.ts): the shell reader's problems and nesting.
  ...inStepCommand(commandClauses),
  planModeOpenFence: { message: "Line {{line}}: the {{fence}} block is never closed, so it runs to the end of the plan.", hint: "close it with a line of {{fence}}" },
  // A host's shell call, checked by the guard when it is made (src/approval/host-command.ts).
  hostCommandMissing: { message: "The {{tool}} call has no command string to check.", hint: "call the tool with its command as a string" },
  hostParserNotLoaded: { message: "The {{tool}} command cannot be checked: the shell parser could not be loaded ({{reason}}).", hint: "reinstall plangate" },
  // The guard's hook input (src/node/hook.ts, src/service/server.ts): the reason of a deny, a clause.
  hookNotUtf8: "the hook input on standard input is not UTF-8",
  hookNotJson: "the hook input on standard input is not JSON",
  hookEmpty: "the hook input on standard input is empty: the host sent no JSON object (is plangate guard run as a hook?)",
  hookContentType: "the hook input's Content-Type {{type}} is not application/json",
} as const satisfies RuleMessages;
