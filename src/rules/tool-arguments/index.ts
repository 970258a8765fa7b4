import { mayHoldDollar, readArgument, unwrapLiterals } from "../../core/constraints.js";
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { childPointer, parsePointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import type { Compiled, ErrorObject } from "./validators.js";

type Compile = (schema: object) => Compiled;
let compile: Compile | undefined;

const UNDEFINED_HINT = "remove it, or check its spelling against the tool's inputSchema";

export default defineRule({
  meta: {
    id: "tool-arguments",
    input: "plan",
    defaultSeverity: "error",
    dialects: TOOL_CALL_DIALECTS,
    phase: "step",
    messages: {
      schemaNotObject: { message: "Step {{step}}: the registry's inputSchema for \"{{tool}}\" is not a JSON Schema object, so its arguments cannot be checked.", hint: "fix the tool's inputSchema in {{source}}" },
      schemaNotCompiled: { message: "Step {{step}}: the registry's inputSchema for \"{{tool}}\" cannot be compiled ({{error}}), so its arguments cannot be checked.", hint: "fix the tool's inputSchema in {{source}}" },
      missingArgument: { message: "Step {{step}}: the required argument \"{{field}}\" is missing{{admitted}} (inputSchema of \"{{tool}}\").", hint: "add \"{{field}}\" with an explicit value" },
      missingField: { message: "Step {{step}}: {{name}} is missing its required field \"{{field}}\"{{admitted}} (inputSchema of \"{{tool}}\").", hint: "add \"{{field}}\" with an explicit value" },
      undefinedArgument: { message: "Step {{step}}: the argument \"{{field}}\" is not defined by the tool{{admitted}} (inputSchema of \"{{tool}}\").", hint: UNDEFINED_HINT },
      undefinedField: { message: "Step {{step}}: {{name}} has the field \"{{field}}\", which the tool does not define{{admitted}} (inputSchema of \"{{tool}}\").", hint: UNDEFINED_HINT },
      notOneOf: { message: "Step {{step}}: {{name}} {{problem}}{{admitted}} (inputSchema of \"{{tool}}\").", hint: "use one of {{allowed}}" },
      invalid: { message: "Step {{step}}: {{name}} {{problem}}{{admitted}} (inputSchema of \"{{tool}}\").", hint: "give the value the tool's inputSchema asks for" },
      // A call the library guard is given (src/node/guard.ts).
      callNotObject: { message: "The \"{{tool}}\" call's arguments are not an object, so they cannot be matched.", hint: "pass the arguments as an object" },
    },
    summary: "A step's arguments do not satisfy its tool's inputSchema.",
    docs: {
      description:
        "Validates each step's arguments against the `inputSchema` (or `parameters`) the tool registry gives for its tool: an MCP `tools/list` result, from `--tools` or the policy's `tools.registry`. JSON Schema draft 2020-12 by default, draft-07 when the schema's `$schema` says so (draft-04/06 and 2019-09 schemas are read by the nearest of the two). Each failure is reported at its own pointer under the step's arguments; a schema that cannot be compiled rejects the step. Tools without a schema are not checked here. Argument constraints are checked by the values they admit: each `$enum` member (reported at the member), a `$glob` or `$regex` by its pattern text, `$literal` values unwrapped; `$schema` and `$any` leave the argument unchecked here (`argument-constraint` judges open arguments).",
      rationale:
        "The intake protocol §6 asks for fully specified arguments: a missing required argument or a value of the wrong type is something the executor would have to guess or would fail on mid-plan.",
      fix: "Give the argument the message names the value the tool's schema asks for; see the tool's inputSchema.",
      bad: '# tools: read_file {properties: {path: {type: string}}}\nsteps: [{tool: read_file, arguments: {path: 3}, intent: "read"}]',
      good: 'steps: [{tool: read_file, arguments: {path: notes.txt}, intent: "read"}]',
    },
  },
  async prepare(plan, ctx) {
    if (compile || !ctx.tools || ctx.tools.schemas.size === 0) return;
    if (plan.steps.some((s) => s.tool !== undefined && ctx.tools!.schemas.has(s.tool)))
      compile = (await import("./validators.js")).compileToolSchema;
  },
  check(plan, ctx) {
    const schemas = ctx.tools?.schemas;
    if (!schemas || schemas.size === 0) return;
    const dollars = mayHoldDollar(plan, ctx.facts);
    for (const step of plan.steps) {
      if (step.tool === undefined || !schemas.has(step.tool)) continue;
      const schema = schemas.get(step.tool);
      if (schema === true) continue;
      if (schema === null || typeof schema !== "object" || !compile) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          messageId: "schemaNotObject",
          data: { step: step.position, tool: step.tool, source: ctx.tools!.source },
        });
        continue;
      }
      const compiled = compile(schema);
      if ("error" in compiled) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          messageId: "schemaNotCompiled",
          data: { step: step.position, tool: step.tool, error: compiled.error, source: ctx.tools!.source },
        });
        continue;
      }
      if (!dollars) {
        if (compiled.validate(step.args)) continue;
        for (const e of compiled.validate.errors ?? []) {
          const { at, messageId, data } = describe(e, step.argsAt);
          ctx.report({ at, step: step.position, messageId, data: { ...data, step: step.position, tool: step.tool, admitted: "" }, actual: e.params });
        }
        continue;
      }
      // Argument constraints: every value the step admits is checked, as far as it can be named: each
      // `$enum` member in turn, a `$glob` or `$regex` by its pattern text, `$literal`s unwrapped as the
      // guard does; `$schema` and `$any` leave the argument open (argument-constraint judges that).
      const seen = new Set<string>();
      for (const v of variants(step.args, step.argsAt)) {
        if (compiled.validate(v.args)) continue;
        for (const e of compiled.validate.errors ?? []) {
          if (e.keyword === "required" && e.instancePath === "" && v.open.has(String((e.params as Record<string, unknown>).missingProperty))) continue;
          const d = describe(e, step.argsAt);
          const at = v.moved && (d.at === v.moved.from || d.at.startsWith(v.moved.from + "/")) ? v.moved.to + d.at.slice(v.moved.from.length) : d.at;
          const key = `${at}\0${d.messageId}\0${JSON.stringify(d.data)}`;
          if (seen.has(key)) continue;
          seen.add(key);
          const admitted = at !== d.at ? " (a value the constraint admits)" : "";
          ctx.report({ at, step: step.position, messageId: d.messageId, data: { ...d.data, step: step.position, tool: step.tool, admitted }, actual: e.params });
        }
      }
    }
  },
});

type SchemaMessage = "missingArgument" | "missingField" | "undefinedArgument" | "undefinedField" | "notOneOf" | "invalid";

/** Where a schema error is reported, its message and that message's data (but the step's). */
function describe(e: ErrorObject, argsAt: string): { at: string; messageId: SchemaMessage; data: Record<string, string> } {
  const base = e.instancePath === "" ? argsAt : argsAt + e.instancePath;
  const root = e.instancePath === "";
  const name = root ? "arguments" : `argument "${parsePointer(e.instancePath).join(".")}"`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return { at: base, messageId: root ? "missingArgument" : "missingField", data: { name, field: String(p.missingProperty) } };
    case "additionalProperties":
      return { at: childPointer(base, String(p.additionalProperty)), messageId: root ? "undefinedArgument" : "undefinedField", data: { name, field: String(p.additionalProperty) } };
    case "unevaluatedProperties":
      return { at: childPointer(base, String(p.unevaluatedProperty)), messageId: "undefinedArgument", data: { name, field: String(p.unevaluatedProperty) } };
    case "enum":
      return { at: base, messageId: "notOneOf", data: { name, problem: e.message ?? "is invalid", allowed: (p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ") } };
    default:
      return { at: base, messageId: "invalid", data: { name, problem: e.message ?? "is invalid" } };
  }
}

/** The argument objects a step with constraints stands for, each with where its substituted value sits. */
function variants(args: Record<string, unknown>, argsAt: string): { args: Record<string, unknown>; open: Set<string>; moved?: { from: string; to: string } }[] {
  const base: Record<string, unknown> = {};
  const open = new Set<string>();
  const enums: { key: string; values: readonly unknown[] }[] = [];
  for (const [k, v] of Object.entries(args)) {
    const r = readArgument(v);
    if ("literal" in r) base[k] = unwrapLiterals(r.literal);
    else if ("error" in r) base[k] = v;
    else if (r.constraint.kind === "$enum") {
      base[k] = unwrapLiterals(r.constraint.values[0]);
      enums.push({ key: k, values: r.constraint.values });
    } else if (r.constraint.kind === "$glob" || r.constraint.kind === "$regex") base[k] = r.constraint.pattern;
    else open.add(k);
  }
  const out: { args: Record<string, unknown>; open: Set<string>; moved?: { from: string; to: string } }[] = [{ args: base, open }];
  for (const e of enums) {
    const from = childPointer(argsAt, e.key);
    out[0]!.moved ??= { from, to: childPointer(childPointer(from, "$enum"), 0) };
    e.values.slice(0, 1000).forEach((m, i) => {
      if (i > 0) out.push({ args: { ...base, [e.key]: unwrapLiterals(m) }, open, moved: { from, to: childPointer(childPointer(from, "$enum"), i) } });
    });
  }
  return out;
}