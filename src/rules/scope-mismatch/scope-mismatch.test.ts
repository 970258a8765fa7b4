import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

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

const plan = (scope: unknown, stepScope?: string) =>
  JSON.stringify({ scope, steps: [{ tool: "t", arguments: {}, intent: "x", ...(stepScope !== undefined ? { scope: stepScope } : {}) }] });

describe("scope-mismatch", () => {
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
