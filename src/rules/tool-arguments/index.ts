import { TOOL_CALL_DIALECTS } from "../../core/dialect-groups.js";
import { childPointer, parsePointer } from "../../core/pointer.js";
import { defineRule } from "../../core/rule.js";
import type { Compiled, ErrorObject } from "./validators.js";

type Compile = (schema: object) => Compiled;
let compile: Compile | undefined;

export default defineRule({
  meta: {
    id: "tool-arguments",
    defaultSeverity: "error",
    dialects: TOOL_CALL_DIALECTS,
    phase: "step",
    summary: "A step's arguments do not satisfy its tool's inputSchema.",
    docs: {
      description:
        "Validates each step's arguments against the `inputSchema` (or `parameters`) the tool registry gives for its tool: an MCP `tools/list` result, from `--tools` or the policy's `tools.registry`. JSON Schema draft 2020-12 by default, draft-07 when the schema's `$schema` says so (draft-04/06 and 2019-09 schemas are read by the nearest of the two). Each failure is reported at its own pointer under the step's arguments; a schema that cannot be compiled rejects the step. Tools without a schema are not checked here.",
      rationale:
        "The intake protocol §6 asks for fully specified arguments: a missing required argument or a value of the wrong type is something the executor would have to guess or would fail on mid-plan.",
      fix: "Give the argument the message names the value the tool's schema asks for; see the tool's inputSchema.",
      bad: 'steps: [{tool: read_file, arguments: {path: 3}, intent: "read"}]  with read_file: {properties: {path: {type: string}}}',
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
    for (const step of plan.steps) {
      if (step.tool === undefined || !schemas.has(step.tool)) continue;
      const s = `Step ${step.position}`;
      const schema = schemas.get(step.tool);
      if (schema === true) continue;
      if (schema === null || typeof schema !== "object" || !compile) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          message: `${s}: the registry's inputSchema for "${step.tool}" is not a JSON Schema object, so its arguments cannot be checked.`,
          hint: `fix the tool's inputSchema in ${ctx.tools!.source}`,
        });
        continue;
      }
      const compiled = compile(schema);
      if ("error" in compiled) {
        ctx.report({
          at: step.toolAt,
          step: step.position,
          message: `${s}: the registry's inputSchema for "${step.tool}" cannot be compiled (${compiled.error}), so its arguments cannot be checked.`,
          hint: `fix the tool's inputSchema in ${ctx.tools!.source}`,
        });
        continue;
      }
      if (compiled.validate(step.args)) continue;
      for (const e of compiled.validate.errors ?? []) {
        const { at, message } = describe(e, step.argsAt);
        ctx.report({ at, step: step.position, message: `${s}: ${message} (inputSchema of "${step.tool}").`, hint: hintOf(e), actual: e.params });
      }
    }
  },
});

function describe(e: ErrorObject, argsAt: string): { at: string; message: string } {
  const base = e.instancePath === "" ? argsAt : argsAt + e.instancePath;
  const name = e.instancePath === "" ? "arguments" : `argument "${parsePointer(e.instancePath).join(".")}"`;
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return {
        at: base,
        message: e.instancePath === "" ? `the required argument "${String(p.missingProperty)}" is missing` : `${name} is missing its required field "${String(p.missingProperty)}"`,
      };
    case "additionalProperties":
      return {
        at: childPointer(base, String(p.additionalProperty)),
        message: e.instancePath === "" ? `the argument "${String(p.additionalProperty)}" is not defined by the tool` : `${name} has the field "${String(p.additionalProperty)}", which the tool does not define`,
      };
    case "unevaluatedProperties":
      return { at: childPointer(base, String(p.unevaluatedProperty)), message: `the argument "${String(p.unevaluatedProperty)}" is not defined by the tool` };
    default:
      return { at: base, message: `${name} ${e.message ?? "is invalid"}` };
  }
}

function hintOf(e: ErrorObject): string {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return `add "${String(p.missingProperty)}" with an explicit value`;
    case "additionalProperties":
    case "unevaluatedProperties":
      return "remove it, or check its spelling against the tool's inputSchema";
    case "enum":
      return `use one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    default:
      return "give the value the tool's inputSchema asks for";
  }
}
