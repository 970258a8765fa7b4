import { planMd } from "../../../test/teddy.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const files = { "a.txt": "a\n" };
const known = planMd("### `READ**\n- Resource: [a.txt](/a.txt)", "### EXECUTE\n```shell\nls\n```", "### `CHAT_WITH_USER`\nÇa va ? 🙂");

ruleTester("md-action-heading", {
  valid: [
    { name: "known types, with backticks or trailing symbols", code: known, file: "plan.md", files },
    { name: "the same in a CRLF plan", code: known.replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "an unknown action type, with the closest known one",
      code: planMd("### `CRAETE`\n- File Path: [b.txt](/b.txt)\n```\nb\n```"),
      file: "plan.md",
      files,
      errors: [{ line: 10, column: 1, endLine: 10, endColumn: 13, pointer: "/actions/0/type", message: 'Step 1: unknown action type "CRAETE"; did you mean "CREATE"?', messageId: "unknownTypeNear" }],
    },
    { name: "a MESSAGE action, which is a ## Message section", code: planMd("### `MESSAGE`\nHello."), file: "plan.md", files, errors: [{ line: 10, column: 1, endLine: 10, endColumn: 14, pointer: "/actions/0/type", hint: /## Message/, messageId: "unknownTypeMessage" }] },
    {
      name: "content before the first action, and an action under an H4",
      code: planMd("Some text.\n\n#### READ\n- Resource: [a.txt](/a.txt)"),
      file: "plan.md",
      files,
      errors: [
        { line: 10, column: 1, endLine: 10, endColumn: 11, pointer: "/actions/stray/10", message: /not under an action heading/, messageId: "strayContent" },
        { line: 12, column: 1, endLine: 12, endColumn: 10, pointer: "/actions/0/type", message: /H4/, messageId: "level" },
      ],
    },
    {
      name: "an action heading under another section, not one inside a code block",
      code: "# T\n\n## Rationale\n### EDIT\n- File Path: [a.txt](/a.txt)\n\n```\n### CREATE\n```\n\n## Action Plan\n### READ\n- Resource: [a.txt](/a.txt)\n",
      file: "plan.md",
      files,
      errors: [{ line: 4, column: 1, endLine: 4, endColumn: 9, pointer: "/outside/4", message: /outside `## Action Plan`/, messageId: "outsideActionPlan" }],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("md-action-heading", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "md-action-heading", messageId: "level", data: { step: 1, word: "EDIT", level: 2 }, start: 9, end: 17, at: "/actions/0/type" }] },
      errors: [{ messageId: "level", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 1: the EDIT action is under an H2 heading; actions are H3 (`### EDIT`).", hint: "write it as `### EDIT`", pointer: "/actions/0/type" }],
    },
  ],
});
