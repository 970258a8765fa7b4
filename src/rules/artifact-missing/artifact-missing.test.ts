import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules, tempWorkspace } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

describe("artifact-missing", () => {
  it("reports a completed return whose artifact does not exist", async () => {
    const r = await ret(goodReturn({ artifacts: ["reports/r.md", "reports/missing.md"] }));
    expect(rules(r)).toEqual(["artifact-missing"]);
    expect(r.diagnostics[0]).toMatchObject({ pointer: "/artifacts/1" });
    expect(r.diagnostics[0]!.message).toBe('Artifact "reports/missing.md" does not exist, but the return says "completed".');
  });
  it("reports a completed return with no artifacts", async () => {
    expect(rules(await ret(goodReturn({ artifacts: [] })))).toEqual(["artifact-missing"]);
  });
  it("skips partial, failed and blocked returns (the orchestrator validation strategy: artifacts only for completed)", async () => {
    for (const status of ["partial", "failed", "blocked"]) {
      expect(rules(await ret(goodReturn({ status, artifacts: ["nope.md"] })))).toEqual([]);
      expect(rules(await ret(goodReturn({ status, artifacts: [] })))).toEqual([]);
    }
  });
  it("does not probe paths outside the workspace", async () => {
    for (const p of ["../outside.md", "/etc/passwd", "reports/../../x.md"]) {
      const r = await ret(goodReturn({ artifacts: [p] }));
      expect(rules(r)).toEqual(["artifact-missing"]);
      expect(r.diagnostics[0]!.message).toContain("outside the workspace");
    }
  });
  it("follows symlinks only within the workspace", async () => {
    const outside = tempWorkspace({ "secret.md": "x" });
    const ws = tempWorkspace({ "reports/r.md": "# R\n" });
    symlinkSync(join(outside, "secret.md"), join(ws, "escape.md"));
    symlinkSync(join(ws, "reports/r.md"), join(ws, "alias.md"));
    symlinkSync(join(ws, "gone.md"), join(ws, "broken.md"));
    const r = await ret(goodReturn({ artifacts: ["escape.md", "alias.md", "broken.md"] }), { workspace: ws });
    expect(r.diagnostics.map((d) => [d.rule, d.pointer])).toEqual([
      ["artifact-missing", "/artifacts/0"],
      ["artifact-missing", "/artifacts/2"],
    ]);
  });
  it("accepts existing files and folders, as paths or objects", async () => {
    const ws = tempWorkspace({ "reports/r.md": "# R\n", "src/a.ts": "x" });
    expect(rules(await ret(goodReturn({ artifacts: ["reports/r.md", { path: "src" }, { path: "src/a.ts", type: "code" }] }), { workspace: ws }))).toEqual(
      [],
    );
  });
  it("uses the policy's success statuses", async () => {
    const returns = {
      statuses: ["implemented", "partial"],
      successStatuses: ["implemented"],
      maxSummaryTokens: 100,
      encoding: "o200k_base",
      requiredFields: ["status"],
    };
    expect(rules(await ret(goodReturn({ status: "implemented", artifacts: ["x.md"] }), { policy: { returns } }))).toEqual([
      "artifact-missing",
    ]);
  });
});

kindRuleTester("artifact-missing", "return", {
  text: (input) => input.text,
  valid: [
    { name: "an existing file", input: returnInput(good()) },
    { name: "a folder", input: returnInput(good({ artifacts: ["src"] }), { files: { src: { dir: true } } }) },
    ...["partial", "failed", "blocked"].map((status) => ({ name: `${status}: artifacts are not promised`, input: returnInput(good({ status, artifacts: ["nope.md"] }), { files: {} }) })),
    { name: "an empty file: artifact-empty's", input: returnInput(good(), { files: { "reports/r.md": "" } }) },
  ],
  invalid: [
    {
      name: "a file that does not exist",
      input: returnInput(good(), { files: {} }),
      errors: [
        {
          messageId: "missing",
          pointer: "/artifacts/0/path",
          line: 7,
          column: 7,
          message: 'Artifact "reports/r.md" does not exist, but the return says "completed".',
          actual: "/ws/reports/r.md",
        },
      ],
    },
    { name: "no artifacts at all", input: returnInput(good({ artifacts: [] })), errors: [{ messageId: "none", pointer: "/artifacts", line: 4, column: 3 }] },
    {
      name: "a path outside the workspace, never probed",
      input: returnInput(good({ artifacts: ["../x.md"] }), { files: { "/x.md": "x" } }),
      errors: [{ messageId: "outside", pointer: "/artifacts/0", message: 'Artifact "../x.md" is outside the workspace /ws; artifacts must be written inside it.', actual: "/x.md" }],
    },
    { name: "a blank path", input: returnInput(good({ artifacts: [" "] })), errors: [{ messageId: "unusable", message: 'Artifact path " " is not a usable path.' }] },
    { name: "a broken symlink", input: returnInput(good({ artifacts: ["a.md"] }), { files: { "a.md": { link: "gone.md" } } }), errors: [{ messageId: "brokenLink", actual: "/ws/a.md" }] },
    {
      name: "a symlink out of the workspace",
      input: returnInput(good({ artifacts: ["a.md"] }), { files: { "a.md": { link: "/etc/secret" }, "/etc/secret": "x" } }),
      errors: [{ messageId: "linkOutside", message: 'Artifact "a.md" is a symlink to /etc/secret, outside the workspace.', actual: "/etc/secret" }],
    },
    // Paths are read as every other path check reads them (the one path service): a folder on the way that
    // is a link out of the workspace, a link in a link, and the spellings an executor may decode.
    {
      name: "a file under a folder that is a symlink out of the workspace",
      input: returnInput(good({ artifacts: ["out/secret"] }), { files: { out: { link: "/etc" }, "/etc/secret": "x" } }),
      errors: [{ messageId: "linkOutside", actual: "/etc/secret" }],
    },
    {
      name: "a symlink to a symlink out of the workspace",
      input: returnInput(good({ artifacts: ["a.md"] }), { files: { "a.md": { link: "b.md" }, "b.md": { link: "/etc/secret" }, "/etc/secret": "x" } }),
      errors: [{ messageId: "linkOutside", actual: "/etc/secret" }],
    },
    { name: "a percent-encoded climb", input: returnInput(good({ artifacts: ["%2e%2e/x.md"] }), { files: { "/x.md": "x" } }), errors: [{ messageId: "outside", actual: "/x.md" }] },
    { name: "a path from the home folder", input: returnInput(good({ artifacts: ["~/x.md"] })), errors: [{ messageId: "unusable" }] },
  ],
});
