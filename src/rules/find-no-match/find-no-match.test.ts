import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const edit = (path: string, pairs: [string, string][]) =>
  `### EDIT\n- **File Path:** [${path}](/${path})\n` + pairs.map(([f, r]) => `#### FIND:\n\`\`\`\n${f}\n\`\`\`\n#### REPLACE:\n\`\`\`\n${r}\n\`\`\`\n`).join("");

const files = {
  "a.py": "def hello():\n    print('hi')\n",
  "m.py": "def hello():\n    print('Hello pytest')\n",
  "a.txt": "one\n",
  "src/a.txt": "one\n",
  "crlf.txt": "première ligne\r\nzweite Zeile 🙂\r\n",
  "lf.txt": "a\nb\n",
};
const later = "### EDIT\n- File Path: `./src/a.txt`\n#### FIND:\n```\ntwo\n```\n#### REPLACE:\n```\nthree\n```";

ruleTester("find-no-match", {
  valid: [
    { name: "pairs applied in order: a later FIND sees the earlier REPLACE", code: planMd(edit("a.txt", [["one", "two"], ["two", "three"]])), file: "plan.md", files },
    { name: "edits carried over to a later EDIT of the same file, however its path is spelled", code: planMd(edit("src/a.txt", [["one", "two"]]), later), file: "plan.md", files },
    { name: "a CRLF file with an LF plan, and Unicode text", code: planMd(edit("crlf.txt", [["première ligne\nzweite Zeile 🙂", "x"]])), file: "plan.md", files },
    { name: "an LF file with a CRLF plan", code: planMd(edit("lf.txt", [["a\nb", "c"]])).replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "a FIND that is not in the file (whitespace counts; no fuzzy matching)",
      code: planMd(edit("a.py", [["def hello():\n  print('hi')", "x"]])),
      file: "plan.md",
      files,
      errors: [{ line: 13, column: 1, endLine: 16, endColumn: 4, step: 1, pointer: "/actions/0/edits/0/find", messageId: "noMatch", message: 'Step 1 (EDIT): the FIND block of pair 1 does not occur in "a.py".' }],
    },
    {
      name: "a file that already holds the REPLACE text, said so",
      code: planMd(edit("m.py", [["    print('Hello world')", "    print('Hello pytest')"]])),
      file: "plan.md",
      files,
      errors: [{ line: 13, column: 1, endLine: 15, endColumn: 4, messageId: "alreadyApplied", message: /already contains the REPLACE text/ }],
    },
    { name: "a later FIND of text an earlier pair replaced", code: planMd(edit("a.txt", [["one", "two"], ["one", "x"]])), file: "plan.md", files, errors: [{ line: 21, column: 1, endLine: 23, endColumn: 4, pointer: "/actions/0/edits/1/find" }] },
    { name: "a later EDIT of the same file that FINDs the replaced text", code: planMd(edit("src/a.txt", [["one", "two"]]), later.replace("two", "one")), file: "plan.md", files, errors: [{ line: 27, column: 1, endLine: 29, endColumn: 4, step: 2 }] },
  ],
  docs: {
    file: "plan.md",
    files: { "a.py": "def hello():\n    pass\n" },
    wrap: (example) => planMd(`### EDIT\n- **File Path:** [a.py](/a.py)\n${example}\n#### REPLACE:\n\`\`\`\ndef greet():\n\`\`\``),
  },
});

describe("find-no-match on a real workspace", () => {
  it("reports a FIND that is not in the file (whitespace counts; no fuzzy matching)", async () => {
    const ws = workspace({ "a.py": "def hello():\n    print('hi')\n" });
    const d = await mdDiagnostics("find-no-match", planMd(edit("a.py", [["def hello():\n  print('hi')", "x"]])), ws);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/actions/0/edits/0/find", line: 13 });
    expect(d[0]!.message).toBe('Step 1 (EDIT): the FIND block of pair 1 does not occur in "a.py".');
  });
  it("says when the file already holds the REPLACE text", async () => {
    const ws = workspace({ "m.py": "def hello():\n    print('Hello pytest')\n" });
    const d = await mdDiagnostics("find-no-match", planMd(edit("m.py", [["    print('Hello world')", "    print('Hello pytest')"]])), ws);
    expect(d[0]!.message).toContain("already contains the REPLACE text");
  });
  it("applies the pairs in order, as the executor does: a later FIND sees the earlier REPLACE", async () => {
    const ws = workspace({ "a.txt": "one\n" });
    expect(await mdDiagnostics("find-no-match", planMd(edit("a.txt", [["one", "two"], ["two", "three"]])), ws)).toHaveLength(0);
    const d = await mdDiagnostics("find-no-match", planMd(edit("a.txt", [["one", "two"], ["one", "x"]])), ws);
    expect(d.map((x) => x.pointer)).toEqual(["/actions/0/edits/1/find"]);
  });
  it("carries edits over to a later EDIT of the same file, however its path is spelled", async () => {
    const ws = workspace({ "src/a.txt": "one\n" });
    const later = "### EDIT\n- File Path: `./src/a.txt`\n#### FIND:\n```\ntwo\n```\n#### REPLACE:\n```\nthree\n```";
    expect(await mdDiagnostics("find-no-match", planMd(edit("src/a.txt", [["one", "two"]]), later), ws)).toHaveLength(0);
    const stale = later.replace("two", "one");
    expect(await mdDiagnostics("find-no-match", planMd(edit("src/a.txt", [["one", "two"]]), stale), ws)).toHaveLength(1);
  });
  it("matches a CRLF file with an LF plan, an LF file with a CRLF plan, and Unicode text", async () => {
    const ws = workspace({ "crlf.txt": "première ligne\r\nzweite Zeile 🙂\r\n", "lf.txt": "a\nb\n" });
    expect(await mdDiagnostics("find-no-match", planMd(edit("crlf.txt", [["première ligne\nzweite Zeile 🙂", "x"]])), ws)).toHaveLength(0);
    expect(await mdDiagnostics("find-no-match", planMd(edit("lf.txt", [["a\nb", "c"]])).replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
