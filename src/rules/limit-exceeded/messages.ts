import type { RuleMessages } from "../../core/rule.js";

/**
 * The messages of limit-exceeded, by the message ids its facts name. Readers record the id and the data of the
 * placeholders; this file holds the words.
 */
export const messages = {
  // JSON (src/syntax/json.ts)
  jsonTooDeep: { message: "nesting is deeper than {{max}} levels", hint: "flatten the plan, or raise limits.maxDepth" },
  jsonKeyTooLong: { message: "key is longer than {{max}} characters", hint: "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted" },
  jsonTooManyValues: { message: "the document holds more than {{max}} values (objects, lists, strings, numbers, booleans, nulls); the rest is not read", hint: "split the plan, or raise limits.maxValues in plangate.yaml if the input is trusted" },
  jsonStringTooLong: { message: "string is longer than {{max}} characters", hint: "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted" },
  // Reading a syntax (src/syntax/index.ts, unsafe.ts)
  yamlTooLarge: { message: "The YAML document is over the {{max}}-byte limit for YAML (limits.maxYamlBytes).", hint: "write large plans as JSON, split the plan, or raise limits.maxYamlBytes in plangate.yaml if the input is trusted" },
  tooManyIssues: { message: "The file has more than {{max}} problems; the rest are not listed.", hint: "fix the problems listed, then validate again" },
  // Markdown (src/syntax/markdown.ts, src/node/plan-mode.ts, src/orchestration/todo.ts)
  markdownTooManyTokens: { message: "The Markdown document is too busy to read: it makes more than {{max}} tokens (headings, paragraphs, list items, inline markup) by line {{line}}.", hint: "a plan this busy is not written by hand: check what wrote it, or split it" },
  markdownTooMuchInline: { message: "The Markdown document is too busy to read: it has more than {{max}} characters of inline text (paragraphs, headings, list items) by line {{line}}.", hint: "move long text into fenced code blocks, or split the plan" },
  markdownTooManyLines: { message: "The Markdown document has more than {{max}} lines; it is not read.", hint: "split the plan, or move large file contents out of it" },
  // YAML (src/syntax/yaml.ts)
  yamlKeyTooLong: { message: "The key is longer than {{max}} characters.", hint: "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted" },
  yamlStringTooLong: { message: "The string is longer than {{max}} characters.", hint: "shorten it, or raise limits.maxStringLength in plangate.yaml if the input is trusted" },
  yamlTooManyReferences: { message: "The document holds more than {{max}} aliases, anchors and tags.", hint: "write the values out instead of referring to them, or write the plan as JSON" },
  yamlTooManyLexemes: { message: "The document holds more than {{max}} tokens (line breaks, runs of spaces, comments, brackets, values and indicators): the YAML reader would take seconds and hundreds of MB.", hint: "remove blank lines and comment lines, split the plan, or write it as JSON" },
  yamlTooManyTokens: { message: "The document holds more than {{max}} values and indicators (scalars, aliases, flow collections, list items, ':', '?' and ','): the YAML reader would take seconds and hundreds of MB.", hint: "split the plan, or write it as JSON" },
  yamlTooDeepToParse: { message: "Nesting is deeper than {{max}} levels.", hint: "flatten the document" },
  yamlTooDeep: { message: "Nesting is deeper than {{max}} levels.", hint: "flatten the document, or raise limits.maxDepth" },
  yamlTooDeepToRead: { message: "The document is nested too deeply to read.", hint: "flatten the document" },
  yamlExpansionText: { message: "The document's aliases copy in more than {{max}} characters of text: a resource-exhaustion attack or a runaway file.", hint: "write the text once, or alias fewer times" },
  yamlTooManyValues: { message: "The document holds more than {{max}} values (mappings, sequences, scalars; each alias counts the values it copies in); the rest is not read.", hint: "split the plan, alias fewer or smaller values, or raise limits.maxValues in plangate.yaml if the input is trusted" },
  yamlExpansion: { message: "The document expands to more than {{max}} values (aliases included): a resource-exhaustion attack or a runaway file.", hint: "remove the nested aliases, or raise limits if the input is trusted" },
  // Shape (src/dialects/shape.ts)
  nestedSteps: { message: '{{what}}: nested steps go one level deep: a step inside a {{tools}} step cannot have its own "steps".', hint: "list the calls of the inner subagent as steps of the outer one, or split the plan" },
  // The engine's own limits (src/engine.ts)
  policyTooLarge: {
    message: "The policy this plan is judged by cannot be used: {{problem}} (at {{pointer}} in the policy); no step is judged.",
    hint: "shorten the policy's lists (README: \"Bounds on a policy\"); a policy file past them is refused when it loads",
  },
  toolsTooLarge: {
    message: "The tools this plan is judged by cannot be used: {{problem}}; no step is judged.",
    hint: "give fewer tools, or fewer globs among them (README: \"Bounds on a policy\")",
  },
  fileTooLarge: { message: "The file is {{size}} bytes, over the {{max}}-byte limit.", hint: "split the plan, or raise limits.maxFileBytes in plangate.yaml if the input is trusted" },
  tooManySteps: { message: "The plan has {{count}} steps, over the {{max}}-step limit.", hint: "split the plan, or raise limits.maxSteps in plangate.yaml" },
  tooManyStepsNested: { message: "The plan has {{count}} steps (nested steps included), over the {{max}}-step limit.", hint: "split the plan, or raise limits.maxSteps in plangate.yaml" },
  tooManyStepsUnread: { message: "The plan has more than {{max}} steps (nested steps included); the rest is not read.", hint: "split the plan, or raise limits.maxSteps in plangate.yaml" },
  tooManyPatterns: {
    message: "The plan holds more than {{max}} $glob and $regex constraints, or more than {{maxChars}} characters of them, by this one; each is searched for a path it admits, so the plan is not judged.",
    hint: 'list the values with {"$enum": […]}, or split the plan',
  },
  toolSchemasTooLarge: {
    message: "Step {{step}}: the inputSchemas of the plan's tools hold more than {{max}} values in all by this step's \"{{tool}}\" ({{values}} values), so its arguments are not checked and the plan is rejected.",
    hint: "split the plan so that each part calls fewer tools, or shorten the tools' inputSchemas",
  },
  tooManyProblems: { message: "The plan has more than {{max}} problems; the rest are not listed.", hint: "fix the problems listed, then validate again" },
  // The work one validation does beyond reading its values, bounded in all (src/core/work.ts); {{whose}} is
  // "Step N: the plan's" or "The plan's". The work that would pass the bound is not done.
  workPathReadings: {
    message:
      "{{whose}} path checks pass {{max}} units of work by this step (a path of a command line costs one read from the workspace root and four from each folder its step names; a relative path read from a folder its step names, or a file name joined to an extension given apart, four; each 256 characters count again), so the paths from here on were not checked.",
    hint: "split the plan, or name fewer folders (cwd, dir, root...) and fewer paths in each step",
  },
  workDerivedValues: {
    message: "{{whose}} strings hold more than {{max}} values by this step (values of structured text in arguments, file names in patch headers; one more for each 256 characters), so the values from here on were not read.",
    hint: "split the plan, or give structured arguments as objects rather than text",
  },
  workDiskNames: {
    message: "{{whose}} command-line patterns were tried against more than {{max}} names on disk by this step, so the patterns from here on were not judged.",
    hint: "name the files instead of matching them with patterns, or split the plan",
  },
  workPathTexts: {
    message: "{{whose}} paths pass {{max}} units of distinct paths resolved on disk by this step (one for each path, one more for each 256 characters), so the paths from here on were not checked.",
    hint: "split the plan",
  },
  workPatternWitnesses: {
    message: "{{whose}} $glob constraints of writers were tried on more than {{max}} paths against the protected globs by this step (the work grows with the constraints times the protected globs squared), so the constraints from here on were not judged.",
    hint: "write the paths the plan writes instead of $glob constraints, protect folders with fewer globs, or split the plan",
  },
  workLinkNames: {
    message: "{{whose}} paths went through symbolic links whose targets name more than {{max}} folders in all by this step, so the paths from here on that go through a link were not resolved.",
    hint: "write the paths without the chains of symbolic links (name the real folders), or split the plan",
  },
  workWrittenRuns: {
    message:
      "{{whose}} commands run or load the files the plan writes more than {{max}} units of work by this step (one for each kind of file a command's programs load by themselves, each write and written file looked at for it, 64 for each written file read as it would run), so the commands from here on were not followed into the files they run.",
    hint: "split the plan, or run the tests and scripts once after the steps that write them rather than after each",
  },
  workCommandMatches: {
    message:
      "{{whose}} command lines were compared with the policy's commands.allow and commands.deny more than {{max}} times by this step (each entry compared with a program counts one, and each of its words tested against a word of the command one more), so the programs from here on were not judged.",
    hint: "give commands.allow and commands.deny fewer entries naming one program, and fewer words in each (allow a program without listing each of its arguments), or split the plan into plans with fewer and shorter commands",
  },
  // Commands that refuse an input before reading it (src/cli, src/service)
  fileTooLargeSplit: { message: "The file is {{size}} bytes, over the {{max}}-byte limit.", hint: "split the plan" },
  inputTooLarge: { message: "The file is more than {{max}} bytes, over the {{max}}-byte limit.", hint: "split the plan" },
  returnTooLarge: { message: "The return is over the {{max}}-byte limit (limits.maxFileBytes).", hint: "a subagent's return is a short JSON document; check what wrote it" },
  // The guard's hook input (src/node/hook.ts, src/store/runs.ts): read no further than the limits.
  hookInputTooLarge: "the hook input is over {{max}} bytes (guard.maxInputBytes); it is not read",
  hookMemberTooLong: "the hook input's {{key}} is over {{max}} characters",
  runInputTooLarge: {
    message: "The hook input is {{size}} bytes, over the run's {{max}} (guard.maxInputBytes at start); it is not decided.",
    hint: "keep tool inputs smaller, or raise guard.maxInputBytes and start a new run",
  },
  // Claude Code's plan mode (src/node/plan-mode.ts)
  planModeTooLong: { message: "The plan is {{length}} characters long, over the {{max}}-character limit.", hint: "split the work into smaller plans" },
  // TeDDy's edit simulation (src/rules/teddy-facts.ts): where it stopped; the rest of the plan is not checked.
  teddySimulationWork: {
    message: "Step {{step}} (EDIT): simulating the plan's edits takes more than {{mib}} MiB of work; the rest of the plan was not checked.",
    hint: "split the plan into smaller ones, or edit large files with fewer FIND/REPLACE pairs",
  },
  teddyMetadataTooLong: {
    message: "Step {{step}} ({{type}}): line {{line}} is longer than {{max}} characters; it is not read as metadata.",
    hint: "keep metadata values short: put long text in the action's fenced block, or split the plan",
  },
  teddyFindHits: {
    message: 'Step {{step}} (EDIT): the FIND block of pair {{pair}} occurs more than {{max}} times in "{{path}}"; the rest of the plan was not checked.',
    hint: "make the FIND block specific to the one place to change",
  },
  teddyFileGrowth: {
    message: 'Step {{step}} (EDIT): pair {{pair}} would make "{{path}}" {{mib}} MiB, over the {{max}} MiB the check simulates; the rest of the plan was not checked.',
    hint: "do not grow a file by repeated Match All replacements; write its content with a CREATE",
  },
} as const satisfies RuleMessages;
