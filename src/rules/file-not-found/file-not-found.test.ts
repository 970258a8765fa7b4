import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFile } from "../../node/validate-file.js";

describe("file-not-found", () => {
  const dir = mkdtempSync(join(tmpdir(), "plangate-fnf-"));
  it("reports a missing file", async () => {
    const r = await validateFile(join(dir, "nope.json"));
    expect(r.diagnostics.map((d) => d.rule)).toEqual(["file-not-found"]);
    expect(r.valid).toBe(false);
  });
  it("reports a directory", async () => {
    expect((await validateFile(dir)).diagnostics[0]!.rule).toBe("file-not-found");
  });
  it("reads an existing file", async () => {
    const p = join(dir, "p.json");
    writeFileSync(p, '[{"tool": "a"}]');
    expect((await validateFile(p)).diagnostics.filter((d) => d.rule === "file-not-found")).toHaveLength(0);
  });
});
