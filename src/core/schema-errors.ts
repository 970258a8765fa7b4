/*
 * The errors of a value against one of plangate's own formats (policy, approval record, host profile),
 * from the standalone validators compiled at build time from the published schemas
 * (scripts/gen-validators.mjs → src/generated/). No schema is compiled at run time and no keyword is
 * skipped: an unknown keyword fails generation. Messages are worded for people, from ajv's params.
 */

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
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
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
  const folded = raw.filter((e) => e.keyword === "anyOf" || e.keyword === "oneOf").map((e) => e.schemaPath + "/");
  return raw
    .filter((e) => !folded.some((prefix) => e.schemaPath.startsWith(prefix)))
    .map((e) => ({ instancePath: e.instancePath, keyword: e.keyword === "false schema" ? "false" : e.keyword, message: message(e, schema), params: e.params }));
}
