import { describe, expect, it } from "vitest";
import { approvalKit } from "../../../test/approval-kit.js";
import { diagnosticsOf } from "../../../test/helpers.js";
import { ExecutionGuard } from "../../node/guard.js";
import { ruleText } from "../read-text.js";
import { ruleTester } from "../../../test/rule-tester.js";
import { parseToolsText } from "../../node/tools-file.js";
import { MAX_PLAN_SCHEMA_VALUES } from "./budget.js";
import { MAX_SCHEMA_WORK } from "./validators.js";
import { cpuBound } from "../../../test/cpu-time.js";

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

const withRegistry = { tools: registry };
const args = (a: Record<string, unknown>, tool = "read_file") => plan([{ tool, arguments: a }]);

ruleTester("tool-arguments", {
  valid: [
    {
      name: "arguments that satisfy the schema, and a tool without a schema",
      code: plan([
        { tool: "read_file", arguments: { path: "a.txt", limit: 10 } },
        { tool: "fetch", arguments: { url: "https://example.com/x" } },
        { tool: "free", arguments: { anything: [1, 2] } },
      ]),
      options: withRegistry,
    },
    { name: "constraints whose values the schema accepts ($glob, $enum)", code: args({ path: { $glob: "src/**" }, limit: { $enum: [1, 2] } }), options: withRegistry },
    { name: "an $any constraint", code: args({ path: { $any: true } }), options: withRegistry },
    { name: "an $enum of allowed values", code: args({ url: "https://x.test", mode: { $enum: ["get", "head"] } }, "fetch"), options: withRegistry },
  ],
  invalid: [
    {
      name: "a missing required argument, at the arguments object",
      code: args({}),
      options: withRegistry,
      errors: [{ line: 1, column: 60, endLine: 1, endColumn: 62, step: 1, pointer: "/steps/0/arguments", message: 'Step 1: the required argument "path" is missing (inputSchema of "read_file").', messageId: "missingArgument" }],
    },
    {
      name: "a wrong type, a value under the minimum and an undefined argument, each at its own pointer (draft 2020-12)",
      code: args({ path: 3, limit: 0, extra: true }),
      options: withRegistry,
      errors: [
        { line: 1, column: 68, endLine: 1, endColumn: 69, pointer: "/steps/0/arguments/path", messageId: "invalid" },
        { line: 1, column: 78, endLine: 1, endColumn: 79, pointer: "/steps/0/arguments/limit" },
        { line: 1, column: 88, endLine: 1, endColumn: 92, pointer: "/steps/0/arguments/extra", messageId: "undefinedArgument" },
      ],
    },
    {
      name: "a draft-07 schema's format and enum",
      code: args({ url: "not a uri", mode: "post" }, "fetch"),
      options: withRegistry,
      errors: [
        { line: 1, column: 63, endLine: 1, endColumn: 74, pointer: "/steps/0/arguments/url" },
        { line: 1, column: 82, endLine: 1, endColumn: 88, pointer: "/steps/0/arguments/mode", hint: 'use one of "get", "head"', messageId: "notOneOf" },
      ],
    },
    {
      name: "draft-04 and 2019-09 schemas, with the nearest engine",
      code: plan([
        { tool: "old", arguments: {} },
        { tool: "mid", arguments: { n: "x" } },
        { tool: "old", arguments: { n: 1 } },
      ]),
      options: withRegistry,
      errors: [
        { line: 1, column: 54, endLine: 1, endColumn: 56, step: 1, pointer: "/steps/0/arguments", messageId: "missingArgument" },
        { line: 1, column: 106, endLine: 1, endColumn: 109, step: 2, pointer: "/steps/1/arguments/n", messageId: "invalid" },
      ],
    },
    {
      name: "a nested argument",
      code: args({ edits: [{ find: "a" }, { replace: "b" }] }, "edit"),
      options: withRegistry,
      errors: [{ line: 1, column: 78, endLine: 1, endColumn: 93, pointer: "/steps/0/arguments/edits/1", message: /argument "edits.1" is missing its required field "find"/, messageId: "missingField" }],
    },
    { name: "a tool schema that cannot be compiled (fail closed)", code: args({ a: 1 }, "broken"), options: withRegistry, errors: [{ line: 1, column: 36, endLine: 1, endColumn: 44, message: /cannot be compiled/, messageId: "schemaNotCompiled" }] },
    {
      name: "a field a nested object does not define, and one under unevaluatedProperties",
      code: plan([
        { tool: "t", arguments: { o: { a: 1, b: 2 } } },
        { tool: "u", arguments: { x: 1 } },
      ]),
      options: {
        tools: {
          names: new Set(["t", "u"]),
          patterns: [],
          schemas: new Map<string, unknown>([
            ["t", { type: "object", properties: { o: { type: "object", properties: { a: {} }, additionalProperties: false } } }],
            ["u", { type: "object", properties: {}, unevaluatedProperties: false }],
          ]),
          source: "code",
        },
      },
      errors: [
        { step: 1, pointer: "/steps/0/arguments/o/b", messageId: "undefinedField", message: 'Step 1: argument "o" has the field "b", which the tool does not define (inputSchema of "t").', hint: "remove it, or check its spelling against the tool's inputSchema" },
        { step: 2, pointer: "/steps/1/arguments/x", messageId: "undefinedArgument", message: 'Step 2: the argument "x" is not defined by the tool (inputSchema of "u").' },
      ],
    },
    {
      name: "a registry schema that is no object (fail closed)",
      code: plan([{ tool: "t", arguments: {} }]),
      options: { tools: { names: new Set(["t"]), patterns: [], schemas: new Map<string, unknown>([["t", 3]]), source: "code" } },
      errors: [{ step: 1, pointer: "/steps/0/tool", messageId: "schemaNotObject", message: 'Step 1: the registry\'s inputSchema for "t" is not a JSON Schema object, so its arguments cannot be checked.', hint: "fix the tool's inputSchema in code" }],
    },
    { name: "scQC params, under params", code: '[{"tool": "read_file", "params": {"path": 1}}]', options: withRegistry, errors: [{ line: 1, column: 43, endLine: 1, endColumn: 44, pointer: "/0/params/path" }] },
    { name: "each value an $enum admits", code: args({ path: { $enum: ["a.txt", 3] } }), options: withRegistry, errors: [{ line: 1, column: 86, endLine: 1, endColumn: 87, pointer: "/steps/0/arguments/path/$enum/1", messageId: "invalid", message: 'Step 1: argument "path" must be string (a value the constraint admits) (inputSchema of "read_file").' }] },
    { name: "each value an $enum admits, beside a plain argument", code: args({ path: "a.txt", limit: { $enum: [1, 0] } }), options: withRegistry, errors: [{ line: 1, column: 96, endLine: 1, endColumn: 97, pointer: "/steps/0/arguments/limit/$enum/1" }] },
    { name: "a $literal's value", code: args({ path: { $literal: 3 } }), options: withRegistry, errors: [{ line: 1, column: 68, endLine: 1, endColumn: 82, pointer: "/steps/0/arguments/path" }] },
    { name: "a $glob where the schema wants a number", code: args({ path: "a", limit: { $glob: "1*" } }), options: withRegistry, errors: [{ line: 1, column: 80, endLine: 1, endColumn: 94, pointer: "/steps/0/arguments/limit" }] },
    { name: "an $enum with a value the schema's enum lacks", code: args({ url: "https://x.test", mode: { $enum: ["get", "post"] } }, "fetch"), options: withRegistry, errors: [{ line: 1, column: 103, endLine: 1, endColumn: 109, pointer: "/steps/0/arguments/mode/$enum/1", messageId: "notOneOf" }] },
  ],
  docs: { file: "plan.yaml", options: { tools: parseToolsText(JSON.stringify({ tools: [{ name: "read_file", inputSchema: { properties: { path: { type: "string" } } } }] }), "tools.json") } },
});

describe("tool-arguments: schemas a registry built in code brings, and time bounds", () => {
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
    expect(ms).toBeLessThan(cpuBound(2000));
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
    expect(ms).toBeLessThan(cpuBound(3000));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/arguments/xs", actual: { i: 20_000, j: 7 } });
    expect(await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { xs: [1, "1", true, "true", null, [1], "[1]", { a: 1 }, { a: "1" }] } }]), { tools: direct(schema) })).toEqual([]);
  });
});

describe("tool-arguments: what one validation compiles and runs is bounded", () => {
  const direct = (schemas: Record<string, unknown>) => ({ names: new Set(Object.keys(schemas)), patterns: [], schemas: new Map(Object.entries(schemas)), source: "code" });
  const cpuMs = async (f: () => Promise<unknown>) => {
    const start = process.cpuUsage();
    await f();
    const u = process.cpuUsage(start);
    return (u.user + u.system) / 1000;
  };
  // An enum of n strings: n + 5 values, compiled in milliseconds, so the test counts values without paying for them.
  const wide = (n: number) => ({ type: "object", properties: { e: { enum: Array.from({ length: n }, (_, i) => `v${i}`) } } });
  const all = async (text: string, tools: ReturnType<typeof direct> | ReturnType<typeof parseToolsText>) => {
    const { validatePlan } = await import("../../node/validate-plan.js");
    return (await validatePlan(text, { tools, now: new Date("2026-11-22T12:00:00Z") })).diagnostics.filter((d) => d.rule === "limit-exceeded" || d.rule === "tool-arguments");
  };

  it(`compiles the inputSchemas of a plan's tools up to ${MAX_PLAN_SCHEMA_VALUES} values in all; a step past that is limit-exceeded at its tool`, async () => {
    const registry = parseToolsText(JSON.stringify({ tools: ["a", "b", "c"].map((name) => ({ name, inputSchema: wide(name === "c" ? 100 : 9000) })) }), "tools.json");
    const d = await all(
      plan([
        { tool: "a", arguments: { e: "x" } },
        { tool: "b", arguments: { e: "v1" } },
        { tool: "c", arguments: { e: "v1" } },
        { tool: "b", arguments: { e: "x" } },
      ]),
      registry,
    );
    expect(d.map((x) => [x.rule, x.step, x.pointer, x.messageId])).toEqual([
      ["tool-arguments", 1, "/steps/0/arguments/e", "notOneOf"],
      ["limit-exceeded", 2, "/steps/1/tool", "toolSchemasTooLarge"],
      ["limit-exceeded", 4, "/steps/3/tool", "toolSchemasTooLarge"],
    ]);
    expect(d[1]!.message).toBe(`Step 2: the inputSchemas of the plan's tools hold more than ${MAX_PLAN_SCHEMA_VALUES} values in all by this step's "b" (9005 values), so its arguments are not checked and the plan is rejected.`);
    expect(d[1]!.hint).toBe("split the plan so that each part calls fewer tools, or shorten the tools' inputSchemas");
    // Each part of the split plan passes, also after the whole one was compiled: the count does not depend on what was compiled before.
    expect(await all(plan([{ tool: "b", arguments: { e: "v1" } }, { tool: "c", arguments: { e: "v1" } }]), registry)).toEqual([]);
    // Nested steps count with their step; a registry built in code with a schema past the bound on its own is refused too.
    const nested = await all(JSON.stringify({ steps: [{ tool: "Task", intent: "delegate", arguments: { prompt: "p" }, steps: [{ tool: "big", intent: "x", arguments: {} }] }] }), direct({ Task: true, big: wide(MAX_PLAN_SCHEMA_VALUES) }));
    expect(nested.map((x) => [x.rule, x.pointer, x.message])).toEqual([["limit-exceeded", "/steps/0/steps/0/tool", expect.stringContaining(`"big" (over ${MAX_PLAN_SCHEMA_VALUES} values)`)]]);
  });

  it("compiles a $defs entry used many times once (it was copied into each use: 3,000 values took 149 s and 5 GB)", async () => {
    const def = { type: "object", properties: Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`p${i}`, { type: "string" }])) };
    const uses = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`u${i}`, { $ref: "#/$defs/d" }]));
    let d: Awaited<ReturnType<typeof diagnosticsOf>> = [];
    const ms = await cpuMs(async () => {
      d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { u7: { p3: 1 } } }]), { tools: direct({ t: { type: "object", $defs: { d: def }, properties: uses } }) });
    });
    expect(ms).toBeLessThan(cpuBound(5000));
    expect(d.map((x) => x.pointer)).toEqual(["/steps/0/arguments/u7/p3"]);
  });

  it(`stops a validation past ${MAX_SCHEMA_WORK} subschema checks (a recursive anyOf doubles them at each level of nesting), at the step, and checks the steps before`, async () => {
    const tree = { $defs: { n: { type: "array", anyOf: [{ items: { $ref: "#/$defs/n" }, maxItems: 0 }, { items: { $ref: "#/$defs/n" } }] } }, type: "object", properties: { n: { $ref: "#/$defs/n" } } };
    const nest = (depth: number): unknown => (depth === 0 ? [] : [nest(depth - 1)]);
    const tools = direct({ t: tree });
    expect(await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { n: nest(12) } }]), { tools })).toEqual([]);
    let d: Awaited<ReturnType<typeof diagnosticsOf>> = [];
    const ms = await cpuMs(async () => {
      d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { n: 1 } }, { tool: "t", arguments: { n: nest(60) } }, { tool: "t", arguments: { n: [] } }]), { tools });
    });
    expect(ms).toBeLessThan(cpuBound(10_000));
    expect(d.map((x) => [x.step, x.pointer, x.messageId])).toEqual([
      [1, "/steps/0/arguments/n", "invalid"],
      [2, "/steps/1/tool", "tooMuchWork"],
      [3, "/steps/2/tool", "tooMuchWork"],
    ]);
    expect(d[1]!.message).toBe(`Step 2: checking the plan's arguments against their tools' inputSchemas takes more than ${MAX_SCHEMA_WORK} subschema checks by this step ("t"; a pattern tested on a string counts one more for each 256 characters times the size of its program), so its arguments are not checked.`);
  });

  it("counts each pattern test as work, by the string's length times the pattern's program (3,000 patternProperties over 20,000 keys took 19 s)", async () => {
    const keys = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, k) => [`kkkk${k}`, 1]));
    const props = direct({ t: { type: "object", patternProperties: Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`k+z${i}`, {}])) } });
    expect(await all(plan([{ tool: "t", arguments: keys(100) }]), props)).toEqual([]);
    const d = await all(plan([{ tool: "t", arguments: keys(5000) }, { tool: "t", arguments: keys(1) }]), props);
    expect(d.map((x) => [x.rule, x.step, x.pointer, x.messageId])).toEqual([
      ["tool-arguments", 1, "/steps/0/tool", "tooMuchWork"],
      ["tool-arguments", 2, "/steps/1/tool", "tooMuchWork"],
    ]);
    // One long string under a pattern whose program is large: its one test would take seconds.
    const slow = direct({ t: { type: "object", properties: { s: { pattern: "^(?:[ab]{1,30}){1,30}$" } } } });
    expect(await all(plan([{ tool: "t", arguments: { s: "ab".repeat(100) } }]), slow)).toEqual([]);
    expect((await all(plan([{ tool: "t", arguments: { s: "ab".repeat(400_000) } }]), slow)).map((x) => x.messageId)).toEqual(["tooMuchWork"]);
  });

  it("counts a schema's patterns and $refs by the square of their number (4,000 patterns took 4.9 s to compile)", async () => {
    const patterns = (n: number) => ({ type: "object", properties: { s: { allOf: Array.from({ length: n }, (_, i) => ({ pattern: `a+b${i}` })) } } });
    expect(new Set((await all(plan([{ tool: "t", arguments: { s: "b" } }]), direct({ t: patterns(100) }))).map((x) => x.messageId))).toEqual(new Set(["invalid"]));
    const d = await all(plan([{ tool: "t", arguments: { s: "b" } }]), direct({ t: patterns(2000) }));
    expect(d.map((x) => [x.rule, x.pointer, x.messageId])).toEqual([["limit-exceeded", "/steps/0/tool", "toolSchemasTooLarge"]]);
    const refs = { $defs: Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`d${i}`, true])), anyOf: Array.from({ length: 1500 }, (_, i) => ({ $ref: `#/$defs/d${i}` })) };
    expect((await all(plan([{ tool: "t", arguments: {} }]), direct({ t: refs }))).map((x) => x.messageId)).toEqual(["toolSchemasTooLarge"]);
  });

  it("rejects a step whose schema refers to itself without end (no internal error)", async () => {
    const tools = direct({ a: { $defs: { a: { $ref: "#/$defs/a" } }, $ref: "#/$defs/a" }, b: { $defs: { a: { anyOf: [{ $ref: "#/$defs/b" }] }, b: { allOf: [{ $ref: "#/$defs/a" }] } }, $ref: "#/$defs/a" } });
    const { validatePlan } = await import("../../node/validate-plan.js");
    const r = await validatePlan(plan([{ tool: "a", arguments: {} }, { tool: "b", arguments: {} }]), { tools });
    expect(r.internalErrors).toBeUndefined();
    expect(r.diagnostics.filter((x) => x.rule === "tool-arguments").map((x) => [x.step, x.pointer, x.messageId])).toEqual([
      [1, "/steps/0/tool", "schemaNotRun"],
      [2, "/steps/1/tool", "schemaNotRun"],
    ]);
  });

  it("compiles each tool's schema on its own: no $ref reaches another tool's $id, and a registry read again may reuse an $id", async () => {
    const id = "https://schemas.example/shared.json";
    const registry = () => direct({ a: { $id: id, type: "object", properties: { x: { type: "integer" } } }, b: { type: "object", properties: { y: { $ref: id } } } });
    const first = registry();
    const steps = plan([{ tool: "a", arguments: { x: 1 } }, { tool: "b", arguments: { y: { x: "s" } } }]);
    const d = await diagnosticsOf("tool-arguments", steps, { tools: first });
    expect(d.map((x) => [x.step, x.messageId])).toEqual([[2, "schemaNotCompiled"]]);
    expect(d[0]!.message).toContain("can't resolve reference");
    expect((await diagnosticsOf("tool-arguments", steps, { tools: registry() })).map((x) => [x.step, x.messageId])).toEqual([[2, "schemaNotCompiled"]]);
  });

  it("counts work without changing what a schema means (a property named as the counting keyword, const and enum objects)", async () => {
    const tools = direct({ t: { type: "object", properties: { c: { const: { a: 1 } }, e: { enum: [{ b: [1] }] } }, additionalProperties: false } });
    expect(await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { c: { a: 1 }, e: { b: [1] } } }]), { tools })).toEqual([]);
    const d = await diagnosticsOf("tool-arguments", plan([{ tool: "t", arguments: { c: { a: 1, $plangateWork: true }, $plangateWork: true } }]), { tools });
    expect(d.map((x) => [x.pointer, x.messageId])).toEqual([
      ["/steps/0/arguments/c", "invalid"],
      ["/steps/0/arguments/$plangateWork", "undefinedArgument"],
    ]);
  });
});

// The library guard (ExecutionGuard) matches a call's arguments to the approved step's only when they are an object.
describe("tool-arguments: the guard's message for a call", () => {
  it("callNotObject: a call whose arguments are not an object", async () => {
    const k = approvalKit();
    const guard = await ExecutionGuard.open(await k.guardOptions());
    const message = 'The "read_file" call\'s arguments are not an object, so they cannot be matched.';
    expect(ruleText("tool-arguments", "callNotObject", { tool: "read_file" })).toEqual({ message, hint: "pass the arguments as an object" });
    for (const args of ["in.txt", ["in.txt"], null])
      expect(await guard.before("read_file", args)).toEqual({ allow: false, step: 1, diagnostic: { rule: "tool-arguments", severity: "error", message, hint: "pass the arguments as an object", step: 1, messageId: "callNotObject" } });
  });
});
