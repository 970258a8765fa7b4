import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { FileProbe } from "../../core/file-probe.js";
import { checkReturnWith } from "../../orchestration/return.js";
import { goodReturn, ret, rules, tempWorkspace } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

describe("artifact-empty", () => {
  it("reports a completed return whose artifact is 0 bytes", async () => {
    const ws = tempWorkspace({ "plan.md": "", "reports/r.md": "ok" });
    const r = await ret(goodReturn({ artifacts: ["reports/r.md", { path: "plan.md", type: "plan" }] }), { workspace: ws });
    expect(rules(r)).toEqual(["artifact-empty"]);
    expect(r.diagnostics[0]).toMatchObject({ pointer: "/artifacts/1/path" });
    expect(r.diagnostics[0]!.message).toBe('Artifact "plan.md" is empty (0 bytes), but the return says "completed".');
  });
  it("follows a symlink to an empty file", async () => {
    const ws = tempWorkspace({ "empty.md": "" });
    symlinkSync(join(ws, "empty.md"), join(ws, "link.md"));
    expect(rules(await ret(goodReturn({ artifacts: ["link.md"] }), { workspace: ws }))).toEqual(["artifact-empty"]);
  });
  it("skips a partial return", async () => {
    const ws = tempWorkspace({ "plan.md": "" });
    expect(rules(await ret(goodReturn({ status: "partial", artifacts: ["plan.md"] }), { workspace: ws }))).toEqual([]);
  });
  it("accepts a file with content", async () => {
    const ws = tempWorkspace({ "plan.md": "# Plan\n" });
    expect(rules(await ret(goodReturn({ artifacts: ["plan.md"] }), { workspace: ws }))).toEqual([]);
  });
});

kindRuleTester("artifact-empty", "return", {
  text: (input) => input.text,
  valid: [
    { name: "a non-empty file", input: returnInput(good()) },
    { name: "a missing file: artifact-missing's", input: returnInput(good(), { files: {} }) },
    { name: "a folder", input: returnInput(good({ artifacts: ["src"] }), { files: { src: { dir: true } } }) },
    { name: "partial: artifacts are not promised", input: returnInput(good({ status: "partial" }), { files: { "reports/r.md": "" } }) },
  ],
  invalid: [
    {
      name: "a file of 0 bytes",
      input: returnInput(good(), { files: { "reports/r.md": "" } }),
      errors: [
        {
          messageId: "empty",
          pointer: "/artifacts/0/path",
          line: 7,
          column: 7,
          message: 'Artifact "reports/r.md" is empty (0 bytes), but the return says "completed".',
          hint: "write the artifact's content, or return partial/failed",
          actual: "/ws/reports/r.md",
        },
      ],
    },
    { name: "through a symlink inside the workspace", input: returnInput(good({ artifacts: ["a.md"] }), { files: { "a.md": { link: "reports/r.md" }, "reports/r.md": "" } }), errors: 1 },
  ],
});

describe("artifact-empty with artifact-missing, on a file that changes while it is checked", () => {
  it("judges one answer per path: a file that vanishes after the first look is still reported", async () => {
    // The first look at the artifact finds an empty file; every later one finds nothing.
    let looks = 0;
    const files: FileProbe = {
      kind: (p) => (p !== "/ws/reports/r.md" ? "dir" : looks++ === 0 ? "file" : "missing"),
      size: () => 0,
      realpath: (p) => p,
      readlink: () => undefined,
      readText: () => undefined,
    };
    const r = await checkReturnWith(JSON.stringify(goodReturn()), { workspace: "/ws", files }, { files, cwd: () => "/ws" });
    expect(rules(r)).toEqual(["artifact-empty"]);
  });
});
