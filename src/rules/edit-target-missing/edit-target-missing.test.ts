import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const edit = (path: string) => `### EDIT\n- **File Path:** [${path}](/${path})\n#### FIND:\n\`\`\`\nx\n\`\`\`\n#### REPLACE:\n\`\`\`\ny\n\`\`\``;

const files = { "src/a.py": "x\n", "src/ü.py": "x\n", "alias.py": { link: "src/ü.py" }, "target_dir/pyproject.toml": "x\n" };
const createNew = "### CREATE\n- File Path: [new.py](/new.py)\n```\nx\n```";

ruleTester("edit-target-missing", {
  valid: [
    { name: "an existing file (Unicode name, symlink inside the workspace), and a file created earlier in the plan", code: planMd(edit("src/ü.py"), edit("alias.py"), createNew, edit("new.py")), file: "plan.md", files },
    {
      name: "Windows-style backslashes, normalised as TeDDy does",
      code: planMd("### EDIT\n- **File Path:** [target_dir\\pyproject.toml](/target_dir\\pyproject.toml)\n#### FIND:\n```\nx\n```\n#### REPLACE:\n```\ny\n```"),
      file: "plan.md",
      files,
    },
  ],
  invalid: [
    {
      name: "an EDIT of a missing file and of a directory",
      code: planMd(edit("src/utils.py"), edit("src")),
      file: "plan.md",
      files,
      errors: [
        { line: 11, column: 33, endLine: 11, endColumn: 46, step: 1, messageId: "missing", message: 'Step 1 (EDIT): "src/utils.py" does not exist in the workspace.' },
        { line: 24, column: 24, endLine: 24, endColumn: 28, step: 2, messageId: "directory", message: /is a directory/ },
      ],
    },
    {
      name: "an EDIT of a FIFO, a socket or a device",
      code: planMd(edit("src/pipe")),
      file: "plan.md",
      files: { ...files, "src/pipe": { other: true } },
      errors: [{ step: 1, messageId: "notFile", message: 'Step 1 (EDIT): "src/pipe" is not a regular file in the workspace.', hint: "check the path (it resolves to /ws/src/pipe), or use CREATE for a new file" }],
    },
    { name: "a missing Unicode name, CRLF", code: planMd(edit("src/ä.py")).replace(/\n/g, "\r\n"), file: "plan.md", files, errors: [{ line: 11, column: 29, endLine: 11, endColumn: 38, messageId: "missing", message: 'Step 1 (EDIT): "src/ä.py" does not exist in the workspace.' }] },
  ],
  docs: { file: "plan.md", files: { "src/util.py": "x\n" }, wrap: (example) => planMd(example) },
});

describe("edit-target-missing on a real file system", () => {
  it("reports an EDIT of a missing file and of a directory", async () => {
    const ws = workspace({ "src/a.py": "x\n" });
    const d = await mdDiagnostics("edit-target-missing", planMd(edit("src/utils.py"), edit("src")), ws);
    expect(d.map((x) => x.step)).toEqual([1, 2]);
    expect(d[0]!.message).toBe('Step 1 (EDIT): "src/utils.py" does not exist in the workspace.');
    expect(d[1]!.message).toContain("is a directory");
    const crlf = await mdDiagnostics("edit-target-missing", planMd(edit("src/ä.py")).replace(/\n/g, "\r\n"), ws);
    expect(crlf.map((x) => x.message)).toEqual(['Step 1 (EDIT): "src/ä.py" does not exist in the workspace.']);
  });
  it("accepts an existing file (Unicode name, symlink inside the workspace) and a file created earlier in the plan", async () => {
    const ws = workspace({ "src/ü.py": "x\n" });
    symlinkSync(join(ws, "src/ü.py"), join(ws, "alias.py"));
    const create = "### CREATE\n- File Path: [new.py](/new.py)\n```\nx\n```";
    expect(await mdDiagnostics("edit-target-missing", planMd(edit("src/ü.py"), edit("alias.py"), create, edit("new.py")), ws)).toHaveLength(0);
  });
  it("normalises Windows-style backslashes as TeDDy does", async () => {
    const ws = workspace({ "target_dir/pyproject.toml": "x\n" });
    const md = planMd("### EDIT\n- **File Path:** [target_dir\\pyproject.toml](/target_dir\\pyproject.toml)\n#### FIND:\n```\nx\n```\n#### REPLACE:\n```\ny\n```");
    expect(await mdDiagnostics("edit-target-missing", md, ws)).toHaveLength(0);
  });
});
