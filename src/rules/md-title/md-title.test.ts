import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const body = "## Rationale\nWhy.\n\n## Action Plan\n\n### READ\n- Resource: https://example.com\n";
const unicode = `# Ajouter l’éditeur ✏️\n\n${body}\n\`\`\`\`md\n# inside a fence\n\`\`\`\`\n`;

ruleTester("md-title", {
  valid: [
    { name: "one H1, an H1 inside a code block, a Unicode title", code: unicode, file: "plan.md" },
    { name: "the same with CRLF line endings", code: unicode.replace(/\n/g, "\r\n"), file: "plan.md" },
  ],
  invalid: [
    { name: "no H1", code: body, file: "plan.md", errors: [{ line: 1, column: 1, endLine: 8, endColumn: 1, pointer: "", message: /no `# Title`/, messageId: "missing" }] },
    { name: "every H1 after the first, at its line", code: `# One\n\n# Two\n\n${body}`, file: "plan.md", errors: [{ line: 3, column: 1, endLine: 3, endColumn: 6, pointer: "/title/3", severity: "error", message: /^Line 3: a second H1 heading "Two"/, messageId: "second" }] },
  ],
  docs: { file: "plan.md" },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("md-title", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "md-title", messageId: "second", data: { line: 2, text: "Two" }, start: 9, end: 17, at: "/title/2" }] },
      errors: [{ messageId: "second", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Line 2: a second H1 heading \"Two\"; a plan has exactly one `# Title`.", hint: "make it a lower-level heading (`##`), or put it inside a code block", pointer: "/title/2" }],
    },
  ],
});
