import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

describe("read-file-missing", () => {
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
