import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { ruleTester } from "../../../test/rule-tester.js";

const plan = (scope: unknown, stepScope?: string) =>
  JSON.stringify({ scope, steps: [{ tool: "t", arguments: {}, intent: "x", ...(stepScope !== undefined ? { scope: stepScope } : {}) }] });
// The workspace /ws holds sub/; escape is a link to /other, beside it.
const files = { sub: { dir: true }, "/other": { dir: true }, escape: { link: "/other" } } as const;

ruleTester("scope-mismatch", {
  valid: ["/ws", "/ws/", "/ws/sub", ".", "sub", "./sub/new"].map((scope) => ({ name: `the scope ${scope}, and a step scope inside`, code: plan(scope, "sub"), files })),
  invalid: [
    {
      name: "a plan scope that is another folder",
      code: plan("/other"),
      files,
      errors: [{ line: 1, column: 10, endLine: 1, endColumn: 18, pointer: "/scope", expected: "/ws", actual: "/other" }],
    },
    { name: "a parent folder", code: plan("/"), files, errors: [{ line: 1, column: 10, endLine: 1, endColumn: 13, pointer: "/scope" }] },
    { name: "a relative parent folder", code: plan(".."), files, errors: [{ line: 1, column: 10, endLine: 1, endColumn: 14, pointer: "/scope" }] },
    { name: "a home folder", code: plan("~/project"), files, errors: [{ line: 1, column: 10, endLine: 1, endColumn: 21, pointer: "/scope", messageId: "planScope", message: /starts with ~/ }] },
    { name: "a symlink out of the workspace", code: plan("escape"), files, errors: [{ line: 1, column: 10, endLine: 1, endColumn: 18, pointer: "/scope", messageId: "planScope", message: /resolves through a symlink to \/other/ }] },
    { name: "a step scope outside the workspace", code: plan("/ws", "/tmp"), files, errors: [{ line: 1, column: 73, endLine: 1, endColumn: 79, step: 1, pointer: "/steps/0/scope", messageId: "stepScope" }] },
  ],
  docs: { file: "plan.yaml", options: { workspace: "/srv/app" } },
});

describe("scope-mismatch on a real file system", () => {
  let root: string;
  let ws: string;
  beforeAll(() => {
    root = realpathSync(mkdtempSync(join(tmpdir(), "plangate-scope-")));
    ws = join(root, "ws");
    mkdirSync(join(ws, "sub"), { recursive: true });
    mkdirSync(join(root, "other"));
    symlinkSync(join(root, "other"), join(ws, "escape"));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it("reports a plan scope that is another folder", async () => {
    const d = await diagnosticsOf("scope-mismatch", plan(join(root, "other")), { workspace: ws });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ pointer: "/scope", expected: ws, actual: join(root, "other") });
  });
  it("reports a parent folder, ~, and a symlink out of the workspace", async () => {
    for (const scope of [root, "..", "~/project", "escape"]) expect(await diagnosticsOf("scope-mismatch", plan(scope), { workspace: ws }), scope).toHaveLength(1);
  });
  it("reports a step scope outside the workspace", async () => {
    const d = await diagnosticsOf("scope-mismatch", plan(ws, "/tmp"), { workspace: ws });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/scope" });
  });
  it("accepts the workspace root, a folder inside, and relative scopes", async () => {
    for (const scope of [ws, `${ws}/`, join(ws, "sub"), ".", "sub", "./sub/new"]) expect(await diagnosticsOf("scope-mismatch", plan(scope, "sub"), { workspace: ws }), scope).toEqual([]);
  });
});
