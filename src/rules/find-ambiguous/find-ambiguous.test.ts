import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const edit = (path: string, find: string, meta = "") =>
  `### EDIT\n- **File Path:** [${path}](/${path})\n${meta}#### FIND:\n\`\`\`\n${find}\n\`\`\`\n#### REPLACE:\n\`\`\`\nX\n\`\`\``;

const files = { "app.py": "def block():\n    pass\n\ndef block():\n    pass\n", "o.txt": "ééé\r\nfin\r\n", "b.py": "a = 1\nb = 1\n" };

ruleTester("find-ambiguous", {
  valid: [
    { name: "a FIND that occurs exactly once", code: planMd(edit("b.py", "a = 1")), file: "plan.md", files },
    { name: "several matches with Match All: true", code: planMd(edit("b.py", " = 1", "- **Match All:** true\n")), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "a FIND that occurs more than once, with the line of every match",
      code: planMd(edit("app.py", "def block():\n    pass")),
      file: "plan.md",
      files,
      errors: [{ line: 13, column: 1, endLine: 16, endColumn: 4, messageId: "ambiguous", message: 'Step 1 (EDIT): the FIND block of pair 1 occurs 2 times in "app.py", at lines 1 and 4; it must occur exactly once.', expected: 1, actual: 2 }],
    },
    {
      // Each line is listed once (two overlapping matches on line 3), the first 20, then the count of the rest.
      name: "a FIND on more lines than the message lists",
      code: planMd(edit("many.txt", "aa")),
      file: "plan.md",
      files: { "many.txt": "x\naa\naaa\n" + "aa\n".repeat(22) },
      errors: [{ messageId: "ambiguous", message: 'Step 1 (EDIT): the FIND block of pair 1 occurs 25 times in "many.txt", at lines 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21 and 4 more; it must occur exactly once.', expected: 1, actual: 25 }],
    },
    { name: "overlapping occurrences, in a CRLF file and Unicode text", code: planMd(edit("o.txt", "éé")), file: "plan.md", files, errors: [{ line: 13, column: 1, endLine: 15, endColumn: 4, messageId: "ambiguous", message: /occurs 2 times.*at line 1;/ }] },
  ],
  docs: {
    file: "plan.md",
    files: { "app.py": "def setup():\n    pass\n\ndef block():\n    pass\n" },
    wrap: (example) => planMd(`### EDIT\n- **File Path:** [app.py](/app.py)\n${example}\n#### REPLACE:\n\`\`\`\nreturn\n\`\`\``),
  },
});

describe("find-ambiguous on a real workspace", () => {
  it("reports a FIND that occurs more than once, with the line of every match", async () => {
    const ws = workspace({ "app.py": "def block():\n    pass\n\ndef block():\n    pass\n" });
    const d = await mdDiagnostics("find-ambiguous", planMd(edit("app.py", "def block():\n    pass")), ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toBe('Step 1 (EDIT): the FIND block of pair 1 occurs 2 times in "app.py", at lines 1 and 4; it must occur exactly once.');
    expect(d[0]).toMatchObject({ expected: 1, actual: 2 });
  });
  it("counts overlapping occurrences, in CRLF files and Unicode text", async () => {
    const ws = workspace({ "o.txt": "ééé\r\nfin\r\n" });
    const d = await mdDiagnostics("find-ambiguous", planMd(edit("o.txt", "éé")), ws);
    expect(d[0]!.message).toContain("occurs 2 times");
    expect(d[0]!.message).toContain("at line 1;");
  });
  it("accepts a FIND that occurs exactly once, and several matches with Match All: true", async () => {
    const ws = workspace({ "app.py": "a = 1\nb = 1\n" });
    expect(await mdDiagnostics("find-ambiguous", planMd(edit("app.py", "a = 1")), ws)).toHaveLength(0);
    expect(await mdDiagnostics("find-ambiguous", planMd(edit("app.py", " = 1", "- **Match All:** true\n")), ws)).toHaveLength(0);
  });
});
