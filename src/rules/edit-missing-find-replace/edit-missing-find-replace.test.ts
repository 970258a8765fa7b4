import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const ws = workspace({ "a.py": "x = 1\ny = 2\n" });
const head = "### EDIT\n- **File Path:** [a.py](/a.py)\n";
const find = (t: string) => `#### FIND:\n\`\`\`\n${t}\n\`\`\`\n`;
const replace = (t: string) => `#### REPLACE:\n\`\`\`\n${t}\n\`\`\`\n`;

describe("edit-missing-find-replace", () => {
  it("reports an EDIT without any pair", async () => {
    const d = await mdDiagnostics("edit-missing-find-replace", planMd(head + "Change x."), ws);
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("no `#### FIND:` / `#### REPLACE:` pair");
    const unicode = planMd(head + find("x = «1»")).replace(/\n/g, "\r\n");
    expect((await mdDiagnostics("edit-missing-find-replace", unicode, ws)).map((x) => x.message)).toEqual(["Step 1 (EDIT): pair 1 has no REPLACE block."]);
  });
  it("reports a FIND without REPLACE, a REPLACE without FIND and an empty FIND, each at its pair", async () => {
    const md = planMd(head + find("x = 1") + find("y = 2") + replace("y = 3") + replace("z") + "#### FIND:\n```\n```\n" + replace("w"));
    const d = await mdDiagnostics("edit-missing-find-replace", md, ws);
    expect(d.map((x) => x.message)).toEqual([
      "Step 1 (EDIT): pair 1 has no REPLACE block.",
      "Step 1 (EDIT): pair 3 has no FIND block.",
      "Step 1 (EDIT): the FIND block of pair 4 is empty, so it would match everywhere.",
    ]);
    expect(d.map((x) => x.pointer)).toEqual(["/actions/0/edits/0", "/actions/0/edits/2", "/actions/0/edits/3"]);
  });
  it("accepts complete pairs, backticked headings, an empty REPLACE (a deletion) and CRLF", async () => {
    const md = planMd(head + "#### `FIND:`\n````python\nx = 1\n````\n#### `REPLACE:`\n````python\nx = 3\n````\n" + find("y = 2") + "#### REPLACE:\n```\n```\n");
    expect(await mdDiagnostics("edit-missing-find-replace", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("edit-missing-find-replace", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
