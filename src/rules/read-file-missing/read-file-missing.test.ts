import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const files = { "docs/naïve.md": "x\n" };
const reads = planMd("### READ\n- **Resource:** [docs/naïve.md](/docs/naïve.md)", "### READ\n- Resource: https://example.com/missing", "### READ\n- Resource: [web](http://example.com/x)");

ruleTester("read-file-missing", {
  valid: [
    { name: "an existing file (Unicode), and URLs, never checked", code: reads, file: "plan.md", files },
    { name: "the same, CRLF", code: reads.replace(/\n/g, "\r\n"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "a missing local file, as a link and as a bare [/path] (kept with its brackets, as TeDDy reads it)",
      code: planMd("### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)", "### READ\n- **Resource:** [/missing.txt]"),
      file: "plan.md",
      files,
      errors: [
        { line: 11, column: 32, endLine: 11, endColumn: 45, step: 1, messageId: "missing", message: 'Step 1 (READ): "docs/spec.md" does not exist in the workspace.' },
        { line: 16, column: 17, endLine: 16, endColumn: 31, step: 2, messageId: "missing", message: 'Step 2 (READ): "[/missing.txt]" does not exist in the workspace.' },
      ],
    },
    {
      name: "a READ of a folder, and of a FIFO, a socket or a device",
      code: planMd("### READ\n- **Resource:** [docs](/docs)", "### READ\n- **Resource:** [docs/pipe](/docs/pipe)"),
      file: "plan.md",
      files: { ...files, "docs/pipe": { other: true } },
      errors: [
        { step: 1, messageId: "directory", message: 'Step 1 (READ): "docs" is a directory, not a file in the workspace.', hint: "check the path (it resolves to /ws/docs), or remove the READ" },
        { step: 2, messageId: "notFile", message: 'Step 2 (READ): "docs/pipe" is not a regular file in the workspace.' },
      ],
    },
  ],
  docs: { file: "plan.md", files, wrap: (example) => planMd(example) },
});

describe("read-file-missing on a real file system", () => {
  it("reports a READ of a missing local file, written as a link or as a bare [/path] (kept with its brackets, as TeDDy reads it)", async () => {
    const ws = workspace();
    const d = await mdDiagnostics("read-file-missing", planMd("### READ\n- **Resource:** [docs/spec.md](/docs/spec.md)", "### READ\n- **Resource:** [/missing.txt]"), ws);
    expect(d.map((x) => x.message)).toEqual([
      'Step 1 (READ): "docs/spec.md" does not exist in the workspace.',
      'Step 2 (READ): "[/missing.txt]" does not exist in the workspace.',
    ]);
  });
  it("accepts an existing file (Unicode, CRLF plan) and never checks URLs", async () => {
    const ws = workspace({ "docs/naïve.md": "x\n" });
    const md = planMd("### READ\n- **Resource:** [docs/naïve.md](/docs/naïve.md)", "### READ\n- Resource: https://example.com/missing", "### READ\n- Resource: [web](http://example.com/x)");
    expect(await mdDiagnostics("read-file-missing", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("read-file-missing", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
