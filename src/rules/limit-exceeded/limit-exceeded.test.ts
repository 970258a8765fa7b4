import { defaultPolicy } from "../../policy/defaults.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const limits = (l: Partial<ReturnType<typeof defaultPolicy>["limits"]>) => {
  const policy = defaultPolicy("/ws");
  Object.assign(policy.limits, l);
  return { policy };
};

ruleTester("limit-exceeded", {
  valid: [
    '[{"tool": "a"}, {"tool": "b"}]',
    // Exactly at the limit: the list, two objects and two strings.
    { code: '[{"tool": "a"}, {"tool": "b"}]', options: limits({ maxValues: 5 }) }, JSON.stringify({ steps: Array.from({ length: 1000 }, (_, i) => ({ tool: "read_file", arguments: { path: { $glob: `src/d${i}/*.py` } }, intent: "r" })) })],
  invalid: [
    { name: "nesting deeper than the limit", code: "[".repeat(100_000) + "]".repeat(100_000), errors: [{ line: 1, column: 1001, endLine: 1, endColumn: 1002, message: "Nesting is deeper than 1000 levels.", messageId: "jsonTooDeep" }] },
    {
      // Keys past the limit: the reader stops at the first value over it (JSON.parse is not tried).
      name: "more values than the limit, in one object",
      code: '{"steps": [{"tool": "a", "arguments": {"k0": 0, "k1": 1, "k2": 2}}]}',
      options: limits({ maxValues: 6 }),
      errors: [{ line: 1, column: 55, endLine: 1, endColumn: 56, message: "The document holds more than 6 values (objects, lists, strings, numbers, booleans, nulls); the rest is not read.", messageId: "jsonTooManyValues" }],
    },
    {
      name: "more values than the limit, in a list",
      code: '[{"tool": "a", "arguments": {"n": [1, 2, 3, 4]}}]',
      options: limits({ maxValues: 6 }),
      errors: [{ line: 1, column: 39, endLine: 1, endColumn: 40, messageId: "jsonTooManyValues" }],
    },
    // Over the size limit the file is not read, so the diagnostic is about the file as a whole: no position.
    { name: "a file over the size limit", code: '[{"tool": "plot_qc"}]', options: limits({ maxFileBytes: 10 }), errors: [{ message: /21 bytes, over the 10-byte limit/, expected: 10, actual: 21, messageId: "fileTooLarge" }] },
    {
      // Few values but a token each: 1 MiB of blank lines took the yaml package 1.5 s, of `]` lines 2.9 s.
      name: "a YAML plan of more tokens of any kind than the reader reads",
      file: "plan.yaml",
      code: "steps: []\n" + "#\n".repeat(250_000),
      errors: [{ line: 199_999, column: 1, endLine: 199_999, endColumn: 2, message: "The document holds more than 400000 tokens (line breaks, runs of spaces, comments, brackets, values and indicators): the YAML reader would take seconds and hundreds of MB.", hint: "remove blank lines and comment lines, split the plan, or write it as JSON", messageId: "yamlTooManyLexemes" }],
    },
    {
      name: "a Markdown plan that makes more tokens than the reader keeps",
      file: "plan.md",
      code: "# Plan\n\n" + "a\n=\n".repeat(100_000),
      errors: [{ line: 166_669, column: 1, endLine: 166_669, endColumn: 2, message: /makes more than 250000 tokens .* by line 166669\./, messageId: "markdownTooManyTokens" }],
    },
    {
      // One paragraph of unmatched brackets makes few tokens, but the inline parser remembers a result per
      // bracket: 16 MiB took 14 s and 1 GB.
      name: "a Markdown plan with more inline text than the reader reads",
      file: "plan.md",
      code: "# Plan\n\n## Action Plan\n\n" + "[a ".repeat(400_000) + "\n",
      errors: [{ line: 5, column: 1, endLine: 5, endColumn: 1_200_001, message: "The Markdown document is too busy to read: it has more than 1048576 characters of inline text (paragraphs, headings, list items) by line 5.", hint: "move long text into fenced code blocks, or split the plan", messageId: "markdownTooMuchInline" }],
    },
    {
      name: "a Markdown plan with more lines than the reader reads",
      file: "plan.md",
      code: "# Plan\n" + "x\n".repeat(500_000),
      errors: [{ line: 500_001, column: 1, endLine: 500_001, endColumn: 2, message: "The Markdown document has more than 500000 lines; it is not read.", messageId: "markdownTooManyLines" }],
    },
    {
      name: "nested steps that take the plan over the limit: the list is not read",
      code: JSON.stringify({ steps: [{ tool: "Task", arguments: {}, intent: "delegate", steps: [{ tool: "a", arguments: {}, intent: "x" }, { tool: "b", arguments: {}, intent: "y" }] }] }),
      options: limits({ maxSteps: 2 }),
      errors: [{ pointer: "/steps/0/steps", message: "The plan has more than 2 steps (nested steps included); the rest is not read.", messageId: "tooManyStepsUnread" }],
    },
    {
      name: "more $glob and $regex constraints than a plan may hold",
      code: JSON.stringify({ steps: Array.from({ length: 1001 }, (_, i) => ({ tool: "write_file", arguments: { path: { $glob: `src/d${i}/*.py` }, content: "x" }, intent: "w" })) }),
      errors: [{ pointer: "/steps/1000/arguments/path/$glob", messageId: "tooManyPatterns", message: /more than 1000 \$glob and \$regex constraints, or more than 65536 characters of them, by this one/ }],
    },
    {
      name: "more characters of patterns than a plan may hold",
      code: JSON.stringify({ steps: Array.from({ length: 70 }, (_, i) => ({ tool: "read_file", arguments: { path: { $regex: `src/${"[a-z]".repeat(200)}${i}` } }, intent: "r" })) }),
      errors: [{ pointer: "/steps/65/arguments/path/$regex", messageId: "tooManyPatterns" }],
    },
    { name: "more steps than the limit", code: '[{"tool": "a"}, {"tool": "b"}]', options: limits({ maxSteps: 1 }), errors: [{ line: 1, column: 1, endLine: 1, endColumn: 31, pointer: "", message: /2 steps, over the 1-step limit/, messageId: "tooManySteps" }] },
  ],
  docs: { file: "plan.yaml", options: limits({ maxSteps: 1 }) },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("limit-exceeded", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "limit-exceeded", messageId: "yamlTooDeep", data: { max: 3 }, start: 9, end: 17, at: "/a/b/c/d" }] },
      errors: [{ messageId: "yamlTooDeep", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Nesting is deeper than 3 levels.", hint: "flatten the document, or raise limits.maxDepth", pointer: "/a/b/c/d" }],
    },
    {
      name: "the guard: a hook input over guard.maxInputBytes",
      input: { facts: [{ rule: "limit-exceeded", messageId: "hookInputTooLarge", data: { max: 1024 }, start: 9, end: 17 }] },
      errors: [{ messageId: "hookInputTooLarge", line: 2, column: 1, message: "the hook input is over 1024 bytes (guard.maxInputBytes); it is not read" }],
    },
    {
      name: "the guard: a hook input member too long",
      input: { facts: [{ rule: "limit-exceeded", messageId: "hookMemberTooLong", data: { key: "session_id", max: 4096 }, start: 9, end: 17 }] },
      errors: [{ messageId: "hookMemberTooLong", line: 2, column: 1, message: "the hook input's session_id is over 4096 characters" }],
    },
    {
      name: "the guard: a hook input over the run's limit",
      input: { facts: [{ rule: "limit-exceeded", messageId: "runInputTooLarge", data: { size: 748, max: 400 }, start: 9, end: 17 }] },
      errors: [{ messageId: "runInputTooLarge", line: 2, column: 1, message: "The hook input is 748 bytes, over the run's 400 (guard.maxInputBytes at start); it is not decided.", hint: "keep tool inputs smaller, or raise guard.maxInputBytes and start a new run" }],
    },
  ],
});
