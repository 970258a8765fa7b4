import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { parseToolsText } from "../../node/tools-file.js";

const registry = parseToolsText(
  JSON.stringify({
    tools: [
      {
        name: "read_file",
        inputSchema: { type: "object", properties: { path: { type: "string", format: "path" }, limit: { type: "integer", minimum: 1 } }, required: ["path"], additionalProperties: false },
      },
      {
        name: "fetch",
        inputSchema: { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { url: { type: "string", format: "uri" }, mode: { enum: ["get", "head"] } }, required: ["url"] },
      },
      { name: "edit", inputSchema: { type: "object", properties: { edits: { type: "array", items: { type: "object", properties: { find: { type: "string" } }, required: ["find"] } } } } },
      { name: "broken", inputSchema: { type: "object", properties: { a: { type: "no-such-type" } } } },
      { name: "free" },
      { name: "old", inputSchema: { $schema: "http://json-schema.org/draft-04/schema#", type: "object", properties: { n: { type: "integer" } }, required: ["n"] } },
      { name: "mid", inputSchema: { $schema: "https://json-schema.org/draft/2019-09/schema", type: "object", properties: { n: { type: "integer" } } } },
    ],
  }),
  "tools.json",
);

const plan = (steps: unknown[]) => JSON.stringify({ steps: steps.map((s) => ({ intent: "do it", ...(s as object) })) });

describe("tool-arguments", () => {
  it("reports a missing required argument at the arguments object", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "read_file", arguments: {} }]), { tools: registry });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/arguments", line: 1 });
    expect(d[0]!.message).toBe('Step 1: the required argument "path" is missing (inputSchema of "read_file").');
  });
  it("reports a wrong type and an undefined argument at their own pointers (draft 2020-12)", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "read_file", arguments: { path: 3, limit: 0, extra: true } }]), { tools: registry });
    expect(d.map((x) => x.pointer).sort()).toEqual(["/steps/0/arguments/extra", "/steps/0/arguments/limit", "/steps/0/arguments/path"]);
  });
  it("reads draft-07 schemas and checks formats and enums", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "fetch", arguments: { url: "not a uri", mode: "post" } }]), { tools: registry });
    expect(d.map((x) => x.pointer).sort()).toEqual(["/steps/0/arguments/mode", "/steps/0/arguments/url"]);
    expect(d.find((x) => x.pointer?.endsWith("mode"))!.hint).toBe('use one of "get", "head"');
  });
  it("reads draft-04 and 2019-09 schemas with the nearest engine", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "old", arguments: {} }, { tool: "mid", arguments: { n: "x" } }, { tool: "old", arguments: { n: 1 } }]), { tools: registry });
    expect(d.map((x) => [x.step, x.pointer])).toEqual([
      [1, "/steps/0/arguments"],
      [2, "/steps/1/arguments/n"],
    ]);
  });
  it("points into nested arguments", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "edit", arguments: { edits: [{ find: "a" }, { replace: "b" }] } }]), { tools: registry });
    expect(d).toHaveLength(1);
    expect(d[0]!.pointer).toBe("/steps/0/arguments/edits/1");
    expect(d[0]!.message).toContain('argument "edits.1" is missing its required field "find"');
  });
  it("rejects a step whose tool schema cannot be compiled (fail closed)", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "broken", arguments: { a: 1 } }]), { tools: registry });
    expect(d).toHaveLength(1);
    expect(d[0]!.message).toContain("cannot be compiled");
  });
  it("accepts arguments that satisfy the schema, and tools without a schema", async () => {
    const d = await diagnosticsOf(
      "tool-arguments",
      plan([
        { tool: "read_file", arguments: { path: "a.txt", limit: 10 } },
        { tool: "fetch", arguments: { url: "https://example.com/x" } },
        { tool: "free", arguments: { anything: [1, 2] } },
      ]),
      { tools: registry },
    );
    expect(d).toEqual([]);
  });
  it("checks scQC params too, with the pointer under params", async () => {
    const d = await diagnosticsOf("tool-arguments", '[{"tool": "read_file", "params": {"path": 1}}]', { tools: registry });
    expect(d[0]!.pointer).toBe("/0/params/path");
  });

  // A registry built in code skips the load-time check: the RE2 engine is what keeps validation linear.
  const direct = (schema: object) => ({ names: new Set(["t"]), patterns: [], schemas: new Map([["t", schema]]), source: "code" });
  const cpuMs = (f: () => Promise<unknown>) => async () => {
    const start = process.cpuUsage();
    await f();
    const u = process.cpuUsage(start);
    return (u.user + u.system) / 1000;
  };

  it.each([
    ["pattern", { type: "object", properties: { s: { type: "string", pattern: "^(a+)+$" } } }, { s: `${"a".repeat(35)}!` }, "/steps/0/arguments/s"],
    ["pattern (alternation)", { type: "object", properties: { s: { type: "string", pattern: "^(a|aa)+$" } } }, { s: `${"a".repeat(45)}!` }, "/steps/0/arguments/s"],
    ["patternProperties", { type: "object", patternProperties: { "^(a+)+$": { type: "integer" } } }, { [`${"a".repeat(35)}`]: "x" }, `/steps/0/arguments/${"a".repeat(35)}`],
    ["propertyNames", { type: "object", propertyNames: { pattern: "^(a+)+$" } }, { [`${"a".repeat(35)}!`]: 1 }, "/steps/0/arguments"],
  ])("answers a catastrophic %s at once", async (_k, schema, args, pointer) => {
    let d: Awaited<ReturnType<typeof diagnosticsOf>> = [];
    const ms = await cpuMs(async () => {
      d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: args }]), { tools: direct(schema) });
    })();
    expect(ms).toBeLessThan(2000);
    expect(d.map((x) => [x.step, x.pointer])).toContainEqual([1, pointer]);
  });

  it("rejects a step whose schema has a pattern RE2 cannot run, also when the registry was built in code", async () => {
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { s: "aa" } }]), { tools: direct({ properties: { s: { pattern: "^(a)\\1$" } } }) });
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/tool" });
    expect(d[0]!.message).toContain("backreference");
  });

  it("checks uniqueItems in linear time (20,000 objects), at the array", async () => {
    const items = Array.from({ length: 20_000 }, (_, i) => ({ k: i, v: [i] }));
    const schema = { type: "object", properties: { xs: { type: "array", uniqueItems: true } } };
    let d: Awaited<ReturnType<typeof diagnosticsOf>> = [];
    const ms = await cpuMs(async () => {
      d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { xs: [...items, { v: [7], k: 7 }] } }]), { tools: direct(schema) });
    })();
    expect(ms).toBeLessThan(3000);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/arguments/xs", actual: { i: 20_000, j: 7 } });
    expect(await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { xs: [1, "1", true, "true", null, [1], "[1]", { a: 1 }, { a: "1" }] } }]), { tools: direct(schema) })).toEqual([]);
  });
});

describe("tool-arguments on argument constraints", () => {
  const pointers = async (args: Record<string, unknown>, tool = "read_file") =>
    (await diagnosticsOf("tool-arguments", plan([{ tool, arguments: args }]), { tools: registry })).map((d) => d.pointer);
  it.each([
    [{ path: { $enum: ["a.txt", 3] } }, ["/steps/0/arguments/path/$enum/1"]],
    [{ path: "a.txt", limit: { $enum: [1, 0] } }, ["/steps/0/arguments/limit/$enum/1"]],
    [{ path: { $literal: 3 } }, ["/steps/0/arguments/path"]],
    [{ path: "a", limit: { $glob: "1*" } }, ["/steps/0/arguments/limit"]],
  ])("checks each value a constraint admits: %j", async (args, expected) => {
    expect(await pointers(args)).toEqual(expected);
  });
  it("accepts constraints whose values the schema accepts", async () => {
    expect(await pointers({ path: { $glob: "src/**" }, limit: { $enum: [1, 2] } })).toEqual([]);
    expect(await pointers({ path: { $any: true } })).toEqual([]);
    expect(await pointers({ url: "https://x.test", mode: { $enum: ["get", "head"] } }, "fetch")).toEqual([]);
    expect(await pointers({ url: "https://x.test", mode: { $enum: ["get", "post"] } }, "fetch")).toEqual(["/steps/0/arguments/mode/$enum/1"]);
  });
});
