import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

const plan = (args: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "t", arguments: args, intent: "do it" }] });

describe("unresolved-argument", () => {
  it.each([
    [{ path: "<path>" }, "/steps/0/arguments/path"],
    [{ path: "reports/{{name}}.html" }, "/steps/0/arguments/path"],
    [{ command: "cp a $" + "{TARGET}" }, "/steps/0/arguments/command"],
    [{ query: "???" }, "/steps/0/arguments/query"],
    [{ mode: "TBD" }, "/steps/0/arguments/mode"],
    [{ n: "..." }, "/steps/0/arguments/n"],
    [{ files: ["a.txt", "<second file>"] }, "/steps/0/arguments/files/1"],
    [{ path: "$HOME/notes.txt" }, "/steps/0/arguments/path"],
    [{ content: "TODO" }, "/steps/0/arguments/content"],
    [{ options: { dest: "out/<name>.csv" } }, "/steps/0/arguments/options/dest"],
  ])("reports %j", async (args, pointer) => {
    const d = await diagnosticsOf("unresolved-argument", plan(args));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer });
  });
  it("says which argument and what it holds", async () => {
    const d = await diagnosticsOf("unresolved-argument", plan({ path: "<path>" }));
    expect(d[0]!.message).toBe('Step 1: argument "path" holds the placeholder "<path>": the executor would have to infer the value.');
  });
  it("accepts concrete values, and templates inside file content", async () => {
    const args = { path: "src/app.ts", content: "const x = `$" + "{a}`; // TODO later\n<div>{{ name }}</div>", count: 3, flag: true, note: "a < b > c", pattern: "<title>" };
    expect(await diagnosticsOf("unresolved-argument", plan(args))).toEqual([]);
  });
  it("applies to scQC params", async () => {
    expect(await diagnosticsOf("unresolved-argument", '[{"tool": "load_data", "params": {"path": "<data file>"}}]')).toHaveLength(1);
  });
});
