/*
 * The errors of a value against one of plangate's own formats (policy, approval record, host profile),
 * from the standalone validators compiled at build time from the published schemas
 * (scripts/gen-validators.mjs → src/generated/). No schema is compiled at run time and no keyword is
 * skipped: an unknown keyword fails generation. Messages are worded for people, from ajv's params.
 */
import { unescapeToken } from "./pointer.js";

export interface SchemaError {
  instancePath: string;
  keyword: string;
  message: string;
  params: Record<string, unknown>;
}

interface AjvError {
  instancePath: string;
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A standalone ajv validator. */
export type CompiledValidator = ((data: unknown) => boolean) & { errors?: AjvError[] | null };

function at(schema: unknown, pointer: string): unknown {
  let cur = schema;
  for (const raw of pointer.replace(/^#\/?/, "").split("/")) {
    if (raw === "") continue;
    const key = unescapeToken(decodeURIComponent(raw));
    if (cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Record<string, unknown>)[key];
  }
  return cur;
}

function message(e: AjvError, schema: () => unknown): string {
  const p = e.params;
  switch (e.keyword) {
    case "type":
      return `must be ${(Array.isArray(p.type) ? p.type : String(p.type).split(",")).join(" or ")}`;
    case "const":
      return `must be ${JSON.stringify(p.allowedValue)}`;
    case "enum":
      return `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(", ")}`;
    case "anyOf":
    case "oneOf": {
      const branches = at(schema(), e.schemaPath);
      const consts = Array.isArray(branches) ? branches.map((b) => (b as Record<string, unknown>)?.const).filter((c) => c !== undefined) : [];
      return Array.isArray(branches) && consts.length === branches.length ? `must be one of ${consts.map((c) => JSON.stringify(c)).join(", ")}` : "does not match any allowed form";
    }
    case "minLength":
      return `must have at least ${String(p.limit)} characters`;
    case "maxLength":
      return `must have at most ${String(p.limit)} characters`;
    case "minItems":
      return `must have at least ${String(p.limit)} items`;
    case "maxItems":
      return `must have at most ${String(p.limit)} items`;
    case "pattern":
      return `must match ${String(p.pattern)}`;
    case "false schema":
      return "is not allowed";
    default:
      return e.message ?? e.keyword;
  }
}

/**
 * Every error of `value` (empty when it conforms), the branches of a failed anyOf folded into the one
 * error that names the forms allowed. `schema` gives the published schema, read only to word an anyOf.
 */
export function schemaErrors(validate: CompiledValidator, value: unknown, schema: () => unknown): SchemaError[] {
  if (validate(value)) return [];
  const raw = validate.errors ?? [];
  const out: SchemaError[] = [];
  // ajv lists a failed anyOf's branch errors before the anyOf's own: they are folded into it.
  const folded = raw.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.schemaPath + "/");
  for (const e of raw) {
    if (folded.some((prefix) => e.schemaPath.startsWith(prefix))) continue;
    if (e.keyword === "anyOf" || e.keyword === "oneOf") {
      const prefix = e.schemaPath + "/";
      // The branches whose type the value has: when exactly one, its own first error says more than "no form matched".
      const branches = new Map<string, AjvError[]>();
      for (const b of raw) if (b.schemaPath.startsWith(prefix)) branches.set(b.schemaPath.slice(prefix.length).split("/")[0]!, [...(branches.get(b.schemaPath.slice(prefix.length).split("/")[0]!) ?? []), b]);
      const typed = [...branches.values()].filter((errs) => !errs.some((b) => b.keyword === "type" && b.instancePath === e.instancePath));
      const count = Array.isArray(at(schema(), e.schemaPath)) ? (at(schema(), e.schemaPath) as unknown[]).length : 0;
      if (typed.length === 1 && branches.size === count) {
        const b = typed[0]![0]!;
        out.push({ instancePath: b.instancePath, keyword: b.keyword === "false schema" ? "false" : b.keyword, message: message(b, schema), params: b.params });
        continue;
      }
    }
    out.push({ instancePath: e.instancePath, keyword: e.keyword === "false schema" ? "false" : e.keyword, message: message(e, schema), params: e.params });
  }
  return out;
}
