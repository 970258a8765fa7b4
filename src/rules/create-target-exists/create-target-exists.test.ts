import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { mdDiagnostics, planMd, workspace } from "../../../test/teddy.js";

const create = (path: string, extra = "") => `### CREATE\n- **File Path:** [${path}](/${path})\n${extra}\`\`\`\nnew\n\`\`\``;

describe("create-target-exists", () => {
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
