import { planMd } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const files = { "a.py": "x = 1\ny = 2\n" };
const head = "### EDIT\n- **File Path:** [a.py](/a.py)\n";
const find = (t: string) => `#### FIND:\n\`\`\`\n${t}\n\`\`\`\n`;
const replace = (t: string) => `#### REPLACE:\n\`\`\`\n${t}\n\`\`\`\n`;
const complete = planMd(head + "#### `FIND:`\n````python\nx = 1\n````\n#### `REPLACE:`\n````python\nx = 3\n````\n" + find("y = 2") + "#### REPLACE:\n```\n```\n");

ruleTester("edit-missing-find-replace", {
  valid: [
    { name: "complete pairs, backticked headings, an empty REPLACE (a deletion)", code: complete, file: "plan.md", files },
    { name: "the same, CRLF", code: complete.replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    { name: "an EDIT without any pair", code: planMd(head + "Change x."), file: "plan.md", files, errors: [{ line: 10, column: 1, endLine: 10, endColumn: 9, step: 1, messageId: "noPairs", message: /no `#### FIND:` \/ `#### REPLACE:` pair/ }] },
    {
      name: "a FIND without REPLACE, Unicode, CRLF",
      code: planMd(head + find("x = «1»")).replace(/\n/g, "\r\n"),
      file: "plan.md",
      files,
      errors: [{ line: 12, column: 1, endLine: 12, endColumn: 11, messageId: "noReplace", message: "Step 1 (EDIT): pair 1 has no REPLACE block." }],
    },
    {
      name: "a FIND without REPLACE, a REPLACE without FIND and an empty FIND, each at its pair",
      code: planMd(head + find("x = 1") + find("y = 2") + replace("y = 3") + replace("z") + "#### FIND:\n```\n```\n" + replace("w")),
      file: "plan.md",
      files,
      errors: [
        { line: 12, column: 1, endLine: 12, endColumn: 11, pointer: "/actions/0/edits/0", messageId: "noReplace", message: "Step 1 (EDIT): pair 1 has no REPLACE block." },
        { line: 24, column: 1, endLine: 24, endColumn: 14, pointer: "/actions/0/edits/2", messageId: "noFind", message: "Step 1 (EDIT): pair 3 has no FIND block." },
        { line: 28, column: 1, endLine: 28, endColumn: 11, pointer: "/actions/0/edits/3", messageId: "emptyFind", message: "Step 1 (EDIT): the FIND block of pair 4 is empty, so it would match everywhere." },
      ],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});
