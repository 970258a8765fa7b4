import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const ws = workspace({ "src/a.py": "x = 1\n" });

describe("missing-file-path", () => {
  it("reports a CREATE and an EDIT without File Path", async () => {
    const md = planMd("### CREATE\n- **Description:** new\n```\nx\n```", "### EDIT\n- Description: change\n#### FIND:\n```\nx\n```\n#### REPLACE:\n```\ny\n```");
    const d = await mdDiagnostics("missing-file-path", md, ws);
    expect(d.map((x) => x.step)).toEqual([1, 2]);
    expect(d[0]!.message).toBe('Step 1 (CREATE): no "File Path" in the metadata, so it is not known which file to create.');
  });
  it("reports an empty File Path", async () => {
    expect(await mdDiagnostics("missing-file-path", planMd("### CREATE\n- File Path:\n```\nx\n```"), ws)).toHaveLength(1);
  });
  it("accepts link, backticked, bare and **Key:** line spellings, Unicode names and CRLF", async () => {
    const md = planMd(
      "### CREATE\n- **File Path:** [src/é.py](/src/é.py)\n```\nx\n```",
      "### CREATE\n**File Path:** `src/b.py`\n```\nx\n```",
      "### CREATE\n- File Path: src/c.py\n```\nx\n```",
    );
    expect(await mdDiagnostics("missing-file-path", md, ws)).toHaveLength(0);
    expect(await mdDiagnostics("missing-file-path", md.replace(/\n/g, "\r\n"), ws)).toHaveLength(0);
  });
});
