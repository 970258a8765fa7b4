import { symlinkSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { foldName } from "../teddy-facts.js";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const create = (path: string, extra = "") => `### CREATE\n- **File Path:** [${path}](/${path})\n${extra}\`\`\`\nnew\n\`\`\``;

const files = { "src/main.py": "x\n", "données/é.txt": "é\n", "/outside/secret.txt": "s\n", link: { link: "/outside" } };

ruleTester("create-target-exists", {
  valid: [
    { name: "a new path, and an existing one with Overwrite: true", code: planMd(create("src/new.py"), create("src/main.py", "- **Overwrite:** true\n")), file: "plan.md", files },
    { name: "nothing outside the workspace is looked at, even through a symlink", code: planMd(create("link/secret.txt"), create("../x")), file: "plan.md", files },
    {
      name: "new names that differ from existing ones in more than case, normalization or trailing dots",
      code: planMd(create("src/main2.py"), create("src/main.pyc"), create("src/.main.py"), create("Src2/main.py"), create("donn\u00e9es/e.txt"), create("notes.txt")),
      file: "plan.md",
      files,
    },
  ],
  invalid: [
    {
      name: "a CREATE of an existing file, a directory, and a Unicode name",
      code: planMd(create("src/main.py"), create("src"), create("données/é.txt")),
      file: "plan.md",
      files,
      errors: [
        { line: 11, column: 32, endLine: 11, endColumn: 44, step: 1, messageId: "exists", message: 'Step 1 (CREATE): "src/main.py" already exists; CREATE would overwrite it.', hint: /Overwrite/ },
        { line: 19, column: 24, endLine: 19, endColumn: 28, step: 2, messageId: "existsAsDirectory", message: /as a directory/ },
        { line: 27, column: 34, endLine: 27, endColumn: 48, step: 3 },
      ],
    },
    { name: "a Unicode name, CRLF", code: planMd(create("données/é.txt")).replace(/\n/g, "\r\n"), file: "plan.md", files, errors: [{ line: 11, column: 34, endLine: 11, endColumn: 48, step: 1 }] },
    { name: "a second CREATE of a file the plan already creates", code: planMd(create("new.txt"), create("new.txt")), file: "plan.md", files, errors: [{ line: 19, column: 28, endLine: 19, endColumn: 36, step: 2 }] },
    {
      name: "an existing file under another case, Unicode normalization or trailing dot, and a folder spelt otherwise",
      code: planMd(create("src/MAIN.py"), create("donne\u0301es/e\u0301.txt"), create("src/main.py."), create("SRC/Main.py ")),
      file: "plan.md",
      files,
      errors: [
        { line: 11, column: 32, endLine: 11, endColumn: 44, step: 1, messageId: "existsAsTwin", message: 'Step 1 (CREATE): "src/MAIN.py" is "src/main.py" on a file system that ignores case, Unicode normalization or trailing dots and spaces (macOS, Windows), and "src/main.py" already exists: CREATE would overwrite it there.', hint: /spell the path as the existing file is spelt/ },
        { line: 19, step: 2, messageId: "existsAsTwin", message: /is "donn\u00e9es\/\u00e9.txt"/ },
        // Step 1 has made src/MAIN.py (a new file where names keep their case): it is what steps 3 and 4 meet first.
        { line: 27, step: 3, messageId: "existsAsTwin", message: /"src\/main.py." is "src\/MAIN.py"/ },
        { line: 35, step: 4, messageId: "existsAsTwin", message: /"SRC\/Main.py" is "src\/MAIN.py"/ },
      ],
    },
    {
      name: "a second CREATE of a file the plan already creates, in another case",
      code: planMd(create("new.txt"), create("NEW.txt")),
      file: "plan.md",
      files,
      errors: [{ line: 19, column: 28, endLine: 19, endColumn: 36, step: 2, messageId: "existsAsTwin", message: /"NEW.txt" is "new.txt"/ }],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});

describe("create-target-exists on a real file system", () => {
  it("reports a CREATE of an existing file or directory, with a Unicode name", async () => {
    const ws = workspace({ "src/main.py": "x\n", "données/é.txt": "é\n" });
    const d = await mdDiagnostics("create-target-exists", planMd(create("src/main.py"), create("src"), create("données/é.txt")), ws);
    expect(d.map((x) => x.step)).toEqual([1, 2, 3]);
    expect(d[0]!.message).toBe('Step 1 (CREATE): "src/main.py" already exists; CREATE would overwrite it.');
    expect(d[1]!.message).toContain("as a directory");
    expect(d[0]!.hint).toContain("Overwrite");
    const crlf = await mdDiagnostics("create-target-exists", planMd(create("données/é.txt")).replace(/\n/g, "\r\n"), ws);
    expect(crlf.map((x) => x.line)).toEqual([11]);
  });
  it("reports a second CREATE of a file the plan already creates", async () => {
    const d = await mdDiagnostics("create-target-exists", planMd(create("new.txt"), create("new.txt")), workspace());
    expect(d.map((x) => x.step)).toEqual([2]);
  });
  it("reports a CREATE of an existing file under another case or Unicode normalization, through real folders", async () => {
    const ws = workspace({ "src/main.py": "x\n", "donn\u00e9es/\u00e9.txt": "e\n" });
    symlinkSync(join(ws, "src"), join(ws, "lib"));
    const d = await mdDiagnostics("create-target-exists", planMd(create("SRC/Main.py"), create("donne\u0301es/E\u0301.TXT"), create("lib/MAIN.PY"), create("src/main.py2")), ws);
    expect(d.map((x) => [x.step, x.messageId])).toEqual([[1, "existsAsTwin"], [2, "existsAsTwin"], [3, "existsAsTwin"]]);
    expect(d[0]!.message).toContain('is "src/main.py" on a file system that ignores case');
    expect(d[1]!.message).toContain('is "donn\u00e9es/\u00e9.txt"');
    expect(d[2]!.message).toContain('is "lib/main.py"');
  });
  it("accepts a new path, and an existing one with Overwrite: true", async () => {
    const ws = workspace({ "src/main.py": "x\n" });
    expect(await mdDiagnostics("create-target-exists", planMd(create("src/new.py"), create("src/main.py", "- **Overwrite:** true\n")), ws)).toHaveLength(0);
  });
  it("does not look outside the workspace, even through a symlink", async () => {
    const outside = workspace({ "secret.txt": "s\n" });
    const ws = workspace();
    symlinkSync(outside, join(ws, "link"));
    expect(await mdDiagnostics("create-target-exists", planMd(create("link/secret.txt"), create("../x")), ws)).toHaveLength(0);
  });
});

describe("foldName", () => {
  // Letters whose upper case is one letter (the file systems' simple case folding): not the sharp s or dotless i.
  const unit = fc.constantFrom("a", "B", "z", ".", " ", "-", "_", "0", "\u00e9", "e\u0301", "\u00c9", "E\u0301", "\u4e2d", "\u0436");
  const name = fc.array(unit, { minLength: 1, maxLength: 10 }).map((u) => u.join(""));
  it("reads a name as a case- and normalization-insensitive file system does, and only so", () => {
    fc.assert(
      fc.property(name, (n) => {
        const f = foldName(n);
        expect(foldName(f)).toBe(f);
        expect(foldName(n.toUpperCase())).toBe(foldName(n.toLowerCase()));
        expect(foldName(n.normalize("NFD"))).toBe(foldName(n.normalize("NFC")));
        // A name of dots and spaces alone is kept whole (`..` is no file name to drop them from).
        if (/[^. ]/.test(n)) expect(foldName(`${n}. .`)).toBe(foldName(n));
      }),
      { numRuns: 2000 },
    );
    expect(foldName("main.py")).not.toBe(foldName("main.pyc"));
    expect(foldName(".env")).not.toBe(foldName("env"));
    expect(foldName("...")).toBe("...");
  });
});
