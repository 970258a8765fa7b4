import { defaultPolicy } from "../../policy/defaults.js";
import { planMd } from "../../../test/teddy.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

const files = { "a.txt": "a\n", "b.txt": "b\n" };
const a = "### READ\n- Resource: [a.txt](/a.txt)";
const b = "### READ\n- Resource: [b.txt](/b.txt)";
const noSeparators = defaultPolicy("/ws");
noSeparators.markdown.requireSeparators = false;

ruleTester("md-action-separator", {
  valid: [
    { name: "--- between actions", code: planMd(a, b), file: "plan.md", files },
    { name: "a --- line right under a paragraph", code: planMd("### CHAT_WITH_USER\nDo you agree?\n---\n" + b), file: "plan.md", files },
    { name: "--- between actions, CRLF", code: planMd(a, b).replace(/\n/g, "\r\n"), file: "plan.md", files },
    { name: "actions back to back with markdown.requireSeparators: false", code: planMd(`${a}\n\n${b}`), file: "plan.md", files, options: { policy: noSeparators } },
  ],
  invalid: [
    {
      name: "two actions not separated by ---",
      code: planMd(`${a}\n\n${b}`),
      file: "plan.md",
      files,
      errors: [{ line: 13, column: 1, endLine: 13, endColumn: 9, pointer: "/actions/1/type", message: /Step 2 \(READ\)/, messageId: "missing" }],
    },
    {
      name: "a Unicode chat and a read not separated, CRLF",
      code: planMd(`### CHAT_WITH_USER\nÇa te va ? 🙂\n\n${b}`).replace(/\n/g, "\r\n"),
      file: "plan.md",
      files,
      errors: [{ line: 13, column: 1, endLine: 13, endColumn: 9, pointer: "/actions/1/type", message: /Step 2 \(READ\) is not separated from step 1/, messageId: "missing" }],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("md-action-separator", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "md-action-separator", messageId: "missing", data: { step: 2, word: "READ", previous: 1 }, start: 9, end: 17, at: "/actions/1/type" }] },
      errors: [{ messageId: "missing", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Step 2 (READ) is not separated from step 1 by a `---` line.", hint: "put a line `---` (with blank lines around it) between the two actions, or set markdown.requireSeparators: false", pointer: "/actions/1/type" }],
    },
  ],
});
