import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";
import { ruleTester } from "../../../test/rule-tester.js";

const ws = workspace({ "src/a.py": "x = 1\n", "src/b.py": "y\n", "docs/OLD_SPEC.md": "old\n", "données/ï.txt": "x = 1\n" });
const edit = (path: string) => `### EDIT\n- **File Path:** [${path}](/${path})\n#### FIND:\n\`\`\`\nx = 1\n\`\`\`\n#### REPLACE:\n\`\`\`\nx = 2\n\`\`\``;
const prune = (path: string) => `### PRUNE\n- **Resource:** [${path}](/${path})`;

const files = { "src/a.py": "x = 1\n", "src/b.py": "y\n", "docs/OLD_SPEC.md": "old\n", "données/ï.txt": "x = 1\n" };
const all = planMd(edit("src/a.py"), edit("données/ï.txt"), prune("docs/OLD_SPEC.md"), "### CREATE\n- File Path: [n.txt](/n.txt)\n```\nx = 1\n```", edit("n.txt"));

ruleTester("not-in-context", {
  valid: [
    { name: "context paths relative, root-relative and absolute, with ./; files the plan creates", code: all, file: "plan.md", files, options: { context: ["./src/a.py", "/données/ï.txt", "/ws/docs/OLD_SPEC.md"] } },
    { name: "context paths with backslashes", code: all, file: "plan.md", files, options: { context: ["src\\a.py", "données/ï.txt", "docs/OLD_SPEC.md"] } },
    { name: "a plan without EDIT or PRUNE, and no context", code: planMd("### READ\n- Resource: [src/a.py](/src/a.py)"), file: "plan.md", files },
  ],
  invalid: [
    {
      name: "an EDIT and a PRUNE of paths not in the turn context",
      code: planMd(edit("src/a.py"), prune("docs/OLD_SPEC.md")),
      file: "plan.md",
      files,
      options: { context: ["src/b.py"] },
      errors: [
        { line: 11, column: 29, endLine: 11, endColumn: 38, step: 1, severity: "error", messageId: "editNotRead", message: 'Step 1 (EDIT): "src/a.py" is not in the turn context; the planner has not read the file it edits.' },
        { line: 24, column: 36, endLine: 24, endColumn: 53, step: 2, severity: "error", messageId: "pruneNotInContext", message: 'Step 2 (PRUNE): "docs/OLD_SPEC.md" is not in the turn context, so there is nothing to prune.' },
      ],
    },
    {
      name: "a Unicode name that differs from the context's, CRLF",
      code: planMd(edit("données/ï.txt")).replace(/\n/g, "\r\n"),
      file: "plan.md",
      files,
      options: { context: ["données/i.txt"] },
      errors: [{ line: 11, column: 34, endLine: 11, endColumn: 48, step: 1 }],
    },
    {
      name: "without a context, said once, as info",
      code: planMd(edit("src/a.py"), prune("src/b.py")),
      file: "plan.md",
      files,
      errors: [{ line: 8, column: 1, endLine: 8, endColumn: 15, severity: "info", messageId: "noContext" }],
    },
  ],
  docs: { file: "plan.md", files, options: { context: ["src/b.py"] }, wrap: (example) => planMd(example) },
});

describe("not-in-context on a real workspace", () => {
  it("reports an EDIT and a PRUNE of paths not in the turn context", async () => {
    const d = await mdDiagnostics("not-in-context", planMd(edit("src/a.py"), prune("docs/OLD_SPEC.md")), ws, { context: ["src/b.py"] });
    expect(d.map((x) => [x.step, x.severity])).toEqual([
      [1, "error"],
      [2, "error"],
    ]);
    expect(d[0]!.message).toBe('Step 1 (EDIT): "src/a.py" is not in the turn context; the planner has not read the file it edits.');
    const crlf = await mdDiagnostics("not-in-context", planMd(edit("données/ï.txt")).replace(/\n/g, "\r\n"), ws, { context: ["données/i.txt"] });
    expect(crlf.map((x) => x.step)).toEqual([1]);
  });
  it("accepts context paths written relative, root-relative, absolute, with ./ or backslashes; and files the plan creates", async () => {
    const md = planMd(edit("src/a.py"), edit("données/ï.txt"), prune("docs/OLD_SPEC.md"), "### CREATE\n- File Path: [n.txt](/n.txt)\n```\nx = 1\n```", edit("n.txt"));
    const context = ["./src/a.py", "/données/ï.txt", `${ws}/docs/OLD_SPEC.md`];
    expect(await mdDiagnostics("not-in-context", md, ws, { context })).toHaveLength(0);
    expect(await mdDiagnostics("not-in-context", md, ws, { context: ["src\\a.py", "données/ï.txt", "docs/OLD_SPEC.md"] })).toHaveLength(0);
  });
  it("says once, as info, that it cannot run without a context", async () => {
    const d = await mdDiagnostics("not-in-context", planMd(edit("src/a.py"), prune("src/b.py")), ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe("info");
  });
  it("has nothing to say about a plan without EDIT or PRUNE", async () => {
    expect(await mdDiagnostics("not-in-context", planMd("### READ\n- Resource: [src/a.py](/src/a.py)"), ws)).toHaveLength(0);
  });
});
