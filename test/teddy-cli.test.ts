import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseContextText } from "../src/node/context-file.js";
import { cli } from "./cli-io.js";
import { planMd, workspace } from "./teddy.js";

const edit = "### EDIT\n- **File Path:** [src/a.py](/src/a.py)\n#### FIND:\n```\nx = 1\n```\n#### REPLACE:\n```\nx = 2\n```";

function setup() {
  const ws = workspace({ "src/a.py": "x = 1\n", "src/b.py": "y\n" });
  writeFileSync(join(ws, "plan.md"), planMd(edit));
  return ws;
}

describe("validate --context", () => {
  it("accepts an EDIT of a path listed in a one-path-a-line context file", async () => {
    const ws = setup();
    writeFileSync(join(ws, "ctx.txt"), "# turn context\nsrc/a.py\n\nsrc/b.py\n");
    const r = await cli(["validate", "--workspace", ws, "--context", "ctx.txt", "plan.md", "--output", "json"], { cwd: ws });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].diagnostics).toEqual([]);
  });
  it("rejects an EDIT of a path missing from a JSON-array context", async () => {
    const ws = setup();
    writeFileSync(join(ws, "ctx.json"), '["src/b.py"]');
    const r = await cli(["validate", "--workspace", ws, "--context", "ctx.json", "plan.md"], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("[not-in-context]");
    expect(r.stdout).toContain('Step 1 (EDIT): "src/a.py" is not in the turn context');
  });
  it("without --context, notes once that the check did not run and accepts the plan", async () => {
    const ws = setup();
    const r = await cli(["validate", "--workspace", ws, "plan.md", "--output", "json"], { cwd: ws });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).results[0].diagnostics.map((d: { rule: string; severity: string }) => [d.rule, d.severity])).toEqual([["not-in-context", "info"]]);
  });
  it("is a usage error when the context file is unreadable or not an array of strings", async () => {
    const ws = setup();
    expect((await cli(["validate", "--workspace", ws, "--context", "nope.txt", "plan.md"], { cwd: ws })).code).toBe(2);
    writeFileSync(join(ws, "bad.json"), '[1, "a"]');
    const r = await cli(["validate", "--workspace", ws, "--context", "bad.json", "plan.md"], { cwd: ws });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("array of path strings");
    // A device is refused at once, never read forever.
    const dev = await cli(["validate", "--workspace", ws, "--context", "/dev/zero", "plan.md"], { cwd: ws });
    expect(dev.code).toBe(2);
    expect(dev.stderr).toContain("a device, pipe or socket");
  });
  it("parses both spellings", () => {
    expect(parseContextText("a\r\n  b  \n# c\n")).toEqual(["a", "b"]);
    expect(parseContextText(' ["a", "b"]')).toEqual(["a", "b"]);
  });
});

describe("validate a Markdown plan with --fail-fast", () => {
  it("reports only the first failure, with its step, path and fix", async () => {
    const ws = setup();
    const md = planMd("### READ\n- Resource: [gone.md](/gone.md)", "### CREATE\n- File Path: [src/a.py](/src/a.py)\n```\nz\n```");
    writeFileSync(join(ws, "two.md"), md);
    const all = await cli(["validate", "--workspace", ws, "two.md", "--output", "json"], { cwd: ws });
    expect(JSON.parse(all.stdout).results[0].diagnostics.map((d: { rule: string }) => d.rule)).toEqual(["read-file-missing", "create-target-exists"]);
    const r = await cli(["validate", "--workspace", ws, "two.md", "--fail-fast"], { cwd: ws });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('Step 1 (READ): "gone.md" does not exist in the workspace.');
    expect(r.stdout).not.toContain("create-target-exists");
  });
});
