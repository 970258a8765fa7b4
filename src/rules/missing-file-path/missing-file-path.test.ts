import { planMd } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const files = { "src/a.py": "x = 1\n" };
const spellings = planMd(
  "### CREATE\n- **File Path:** [src/é.py](/src/é.py)\n```\nx\n```",
  "### CREATE\n**File Path:** `src/b.py`\n```\nx\n```",
  "### CREATE\n- File Path: src/c.py\n```\nx\n```",
);

ruleTester("missing-file-path", {
  valid: [
    { name: "link, backticked, bare and **Key:** line spellings, Unicode names", code: spellings, file: "plan.md", files },
    { name: "the same, CRLF", code: spellings.replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "a CREATE and an EDIT without File Path",
      code: planMd("### CREATE\n- **Description:** new\n```\nx\n```", "### EDIT\n- Description: change\n#### FIND:\n```\nx\n```\n#### REPLACE:\n```\ny\n```"),
      file: "plan.md",
      files,
      errors: [
        { line: 10, column: 1, endLine: 10, endColumn: 11, step: 1, messageId: "noFilePath", message: 'Step 1 (CREATE): no "File Path" in the metadata, so it is not known which file to create.' },
        { line: 18, column: 1, endLine: 18, endColumn: 9, step: 2 },
      ],
    },
    { name: "an empty File Path", code: planMd("### CREATE\n- File Path:\n```\nx\n```"), file: "plan.md", files, errors: [{ line: 11, column: 1, endLine: 11, endColumn: 13, step: 1 }] },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});
