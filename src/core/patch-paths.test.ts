import { describe, expect, it } from "vitest";
import { mayBePatch, patchPaths, TOO_MANY_NAMES } from "./patch-paths.js";

describe("patchPaths", () => {
  it("reads unified headers as written and without their first folder", () => {
    expect(patchPaths("--- a/src/x.py\t2024-01-01 10:00:00\n+++ b/src/x.py\t2024-01-02\n@@ -1 +1 @@\n-a\n+b\n")).toEqual(["a/src/x.py", "src/x.py", "b/src/x.py"]);
  });

  it("reads git's headers: diff --git, renames, copies, quoted names", () => {
    expect(patchPaths("diff --git a/x b/y\nsimilarity index 90%\nrename from x\nrename to docs/y\n")).toEqual(["a/x", "x", "b/y", "y", "docs/y"]);
    expect(patchPaths('diff --git "a/\\303\\251 t" "b/\\303\\251 t"\n')).toEqual(["a/\u00e9 t", "\u00e9 t", "b/\u00e9 t"]);
    expect(patchPaths("Index: lib/a.c\n===\n--- lib/a.c\n+++ lib/a.c\n")).toEqual(["lib/a.c", "a.c"]);
  });

  it("reads the apply_patch format of code agents, names as written", () => {
    const text = "*** Begin Patch\n*** Add File: new/a.txt\n+x\n*** Update File: src/b.txt\n*** Move to: src/c.txt\n@@\n-a\n+b\n*** Delete File: old.txt\n*** End Patch\n";
    expect(patchPaths(text)).toEqual(["new/a.txt", "src/b.txt", "src/c.txt", "old.txt"]);
  });

  it("counts every header line, also one a short hunk would swallow (fail closed)", () => {
    expect(patchPaths("--- a/x\n+++ b/x\n@@ -1,5 +1,5 @@\n-a\n--- a/.git/config\n+++ b/.git/config\n")).toContain(".git/config");
  });

  it("reads a new symbolic link's target from the link's folder", () => {
    expect(patchPaths("diff --git a/d/out b/d/out\nnew file mode 120000\n--- /dev/null\n+++ b/d/out\n@@ -0,0 +1 @@\n+../../etc\n")).toContain("d/../../etc");
    expect(patchPaths("diff --git a/out b/out\nnew file mode 120000\n+++ b/out\n+/etc\n")).toContain("/etc");
  });

  it("skips /dev/null, context ranges and the envelope; CRLF lines read as lines", () => {
    expect(patchPaths("*** a.c\r\n--- a.c\r\n***************\r\n*** 1,3 ****\r\n--- 1,3 ----\r\n")).toEqual(["a.c"]);
    expect(patchPaths("--- /dev/null\n+++ b/n.txt\n")).toEqual(["b/n.txt", "n.txt"]);
  });

  it("reads a git line's names at up to 16 of its spaces; past them the line stands for a name no check accepts", () => {
    expect(patchPaths("diff --git a/my file.txt b/my file.txt\n")).toEqual(expect.arrayContaining(["a/my file.txt", "my file.txt", "b/my file.txt"]));
    const spaced = `diff --git a/${"x ".repeat(8)}b/${"x ".repeat(7)}x\n`;
    expect(patchPaths(spaced)).toContain(`${"x ".repeat(7)}x`);
    // A line of a MiB of spaces made a million names of up to a MiB each (6 s for one step).
    const many = patchPaths(`diff --git ${"a ".repeat(200_000)}\n`);
    expect(many).toEqual([TOO_MANY_NAMES]);
  });

  it("refuses bytes that are not UTF-8, and names past the bound", () => {
    expect(patchPaths('+++ "b/\\377"\n').some((n) => n.includes("\0"))).toBe(true);
    const many = Array.from({ length: 5000 }, (_, i) => `+++ f${i}`).join("\n");
    expect(patchPaths(many).at(-1)).toBe(TOO_MANY_NAMES);
  });

  it("is no patch without a header at the start of a line", () => {
    for (const text of ["a +++ b", "x", "see *** Update File: x", "--- a\n", "plain text with a/b/c"]) expect(mayBePatch(text), text).toBe(false);
    expect(patchPaths("a +++ b\n")).toEqual([]);
  });
});
