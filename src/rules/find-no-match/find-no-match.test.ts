import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const edit = (path: string, pairs: [string, string][]) =>
  `### EDIT\n- **File Path:** [${path}](/${path})\n` + pairs.map(([f, r]) => `#### FIND:\n\`\`\`\n${f}\n\`\`\`\n#### REPLACE:\n\`\`\`\n${r}\n\`\`\`\n`).join("");

describe("find-no-match", () => {
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
