import { mayHoldDollar, readArgument, unwrapLiterals } from "../../core/constraints.js";
import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { childPointer, parsePointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import { MAX_PLAN_SCHEMA_VALUES, schemaBudget, valuesText } from "./budget.js";
import type * as Validators from "./validators.js";
import type { ErrorObject } from "./validators.js";

let validators: typeof Validators | undefined;
/** The work (subschemas applied) one validation has left, kept between its plan's run and its nested steps'. */
const workLeft = new WeakMap<object, number>();

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
      schemaNotRun: { message: "Step {{step}}: the registry's inputSchema for \"{{tool}}\" cannot be applied to these arguments ({{error}}), so they cannot be checked.", hint: "fix the tool's inputSchema in {{source}}: every $ref must lead to a keyword that reads a value" },
      tooMuchWork: {
        message: "Step {{step}}: checking the plan's arguments against their tools' inputSchemas takes more than {{max}} subschema checks by this step (\"{{tool}}\"; a pattern tested on a string counts one more for each 256 characters times the size of its program), so its arguments are not checked.",
        hint: "shorten or flatten the arguments (deeply nested or very long lists, long strings under patterns), or split the plan",
      },
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
    if (validators || !ctx.tools || ctx.tools.schemas.size === 0) return;
    if (plan.steps.some((s) => s.tool !== undefined && ctx.tools!.schemas.has(s.tool))) validators = await import("./validators.js");
  },
  check(plan, ctx) {
    const schemas = ctx.tools?.schemas;
    if (!schemas || schemas.size === 0) return;
    const dollars = mayHoldDollar(plan, ctx.facts);
    // The steps whose tools' schemas are past the bound the validation compiles (counted over the whole
    // plan, nested steps included): the engine reports them as limit-exceeded; here, should it not have.
    const budget = schemaBudget(plan, schemas, ctx.facts);
    const v = validators;
    if (v) v.setSchemaWork(workLeft.get(ctx.facts) ?? v.MAX_SCHEMA_WORK);
    try {
      for (const step of plan.steps) {
        if (step.tool === undefined || !schemas.has(step.tool)) continue;
        const schema = schemas.get(step.tool);
        if (schema === true) continue;
        const values = budget.over.get(step);
        if (values !== undefined) {
          if (!budget.reported)
            ctx.report({
              at: step.toolAt,
              step: step.position,
              messageId: "schemaNotCompiled",
              data: { step: step.position, tool: step.tool, error: `the plan's tools' inputSchemas hold more than ${MAX_PLAN_SCHEMA_VALUES} values in all by this one's ${valuesText(values)}`, source: ctx.tools!.source },
            });
          continue;
        }
        if (schema === null || typeof schema !== "object" || !v) {
          ctx.report({
            at: step.toolAt,
            step: step.position,
            messageId: "schemaNotObject",
            data: { step: step.position, tool: step.tool, source: ctx.tools!.source },
          });
          continue;
        }
        const compiled = v.compileToolSchema(schema);
        if ("error" in compiled) {
          ctx.report({
            at: step.toolAt,
            step: step.position,
            messageId: "schemaNotCompiled",
            data: { step: step.position, tool: step.tool, error: compiled.error, source: ctx.tools!.source },
          });
          continue;
        }
        // Reports why the arguments could not be checked at all, or gives the errors of a failed check.
        const run = (args: unknown): readonly ErrorObject[] | undefined => {
          const r = v.checkValue(compiled.validate, args);
          if ("valid" in r) return r.valid ? [] : (compiled.validate.errors ?? []);
          if ("over" in r) ctx.report({ at: step.toolAt, step: step.position, messageId: "tooMuchWork", data: { step: step.position, tool: step.tool!, max: v.MAX_SCHEMA_WORK } });
          else ctx.report({ at: step.toolAt, step: step.position, messageId: "schemaNotRun", data: { step: step.position, tool: step.tool!, error: r.error, source: ctx.tools!.source } });
          return undefined;
        };
        if (!dollars) {
          for (const e of run(step.args) ?? []) {
            const { at, messageId, data } = describe(e, step.argsAt);
            ctx.report({ at, step: step.position, messageId, data: { ...data, step: step.position, tool: step.tool, admitted: "" }, actual: e.params });
          }
          continue;
        }
        // Argument constraints: every value the step admits is checked, as far as it can be named: each
        // `$enum` member in turn, a `$glob` or `$regex` by its pattern text, `$literal`s unwrapped as the
        // guard does; `$schema` and `$any` leave the argument open (argument-constraint judges that).
        const seen = new Set<string>();
        for (const variant of variants(step.args, step.argsAt)) {
          const errors = run(variant.args);
          if (errors === undefined) break;
          for (const e of errors) {
            if (e.keyword === "required" && e.instancePath === "" && variant.open.has(String((e.params as Record<string, unknown>).missingProperty))) continue;
            const d = describe(e, step.argsAt);
            const at = variant.moved && (d.at === variant.moved.from || d.at.startsWith(variant.moved.from + "/")) ? variant.moved.to + d.at.slice(variant.moved.from.length) : d.at;
            const key = `${at}\0${d.messageId}\0${JSON.stringify(d.data)}`;
            if (seen.has(key)) continue;
            seen.add(key);
            const admitted = at !== d.at ? " (a value the constraint admits)" : "";
            ctx.report({ at, step: step.position, messageId: d.messageId, data: { ...d.data, step: step.position, tool: step.tool, admitted }, actual: e.params });
          }
        }
      }
    } finally {
      if (v) workLeft.set(ctx.facts, v.schemaWorkLeft());
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