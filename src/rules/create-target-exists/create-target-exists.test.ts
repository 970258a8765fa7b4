import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const create = (path: string, extra = "") => `### CREATE\n- **File Path:** [${path}](/${path})\n${extra}\`\`\`\nnew\n\`\`\``;

const files = { "src/main.py": "x\n", "données/é.txt": "é\n", "/outside/secret.txt": "s\n", link: { link: "/outside" } };

ruleTester("create-target-exists", {
  valid: [
    { name: "a new path, and an existing one with Overwrite: true", code: planMd(create("src/new.py"), create("src/main.py", "- **Overwrite:** true\n")), file: "plan.md", files },
    { name: "nothing outside the workspace is looked at, even through a symlink", code: planMd(create("link/secret.txt"), create("../x")), file: "plan.md", files },
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
