import { compiledFor } from "../../core/compiled.js";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { canonicalJson } from "../../core/canonical/jcs.js";
import { re2Engine } from "../../core/regex.js";

// ajv-formats is CommonJS: its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

let engines: { draft2020: Ajv2020; draft07: Ajv } | undefined;

function createEngines(): { draft2020: Ajv2020; draft07: Ajv } {
  // Registry patterns run on RE2 (linear time), never on the backtracking RegExp engine: see core/regex.ts.
  const options = { strict: false, allErrors: true, logger: false as const, code: { regExp: re2Engine } };
  const draft2020 = new Ajv2020(options);
  const draft07 = new Ajv(options);
  for (const ajv of [draft2020, draft07]) {
    addFormats(ajv);
    // `format: "path"` marks path arguments for the workspace rules; to ajv any string is a path.
    ajv.addFormat("path", true);
    // ajv compares object items pairwise (20,000 objects: 18 s); one canonical form per item keeps it linear.
    ajv.removeKeyword("uniqueItems");
    ajv.addKeyword({ keyword: "uniqueItems", type: "array", schemaType: "boolean", errors: true, validate: uniqueItems });
  }
  return { draft2020, draft07 };
}

/** JSON Schema `uniqueItems` in linear time: items are equal when their RFC 8785 forms are (key order aside, as in ajv). */
function uniqueItems(this: unknown, schema: boolean, data: unknown[]): boolean {
  const check = uniqueItems as typeof uniqueItems & { errors?: Partial<ErrorObject>[] };
  check.errors = [];
  if (!schema) return true;
  const first = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const item = data[i];
    const key = item !== null && typeof item === "object" ? canonicalJson(item) : `${typeof item}:${String(item)}`;
    const j = first.get(key);
    if (j !== undefined) {
      check.errors = [{ keyword: "uniqueItems", message: `must NOT have duplicate items (items ## ${j} and ${i} are identical)`, params: { i, j } }];
      return false;
    }
    first.set(key, i);
  }
  return true;
}

/** A compiled validator, or why the schema cannot be compiled. */
export type Compiled = { validate: ValidateFunction } | { error: string };

/** Compiles a tool's inputSchema once per schema object, with the draft its `$schema` names (default 2020-12). */
export function compileToolSchema(schema: object): Compiled {
  return compiledFor("tool-schema", schema, () => compileSchema(schema));
}

function compileSchema(schema: object): Compiled {
  engines ??= createEngines();
  const declared = (schema as { $schema?: unknown }).$schema;
  const older = typeof declared === "string" && /draft-0[4-7]/.test(declared);
  // Ajv knows the draft-07 and 2020-12 meta-schemas only: a draft-04/06 or 2019-09 schema is compiled by
  // the nearest engine without its `$schema` (a keyword that changed meaning, such as draft-04's boolean
  // exclusiveMinimum, then fails to compile and the step is rejected: fail closed).
  const known = typeof declared !== "string" || /draft-07|draft\/2020-12|json-schema\.org\/schema#?$/.test(declared);
  const source = known ? schema : withoutSchemaKeyword(schema);
  let compiled: Compiled;
  try {
    compiled = { validate: (older ? engines.draft07 : engines.draft2020).compile(source) };
  } catch (err) {
    compiled = { error: (err as Error).message };
  }
  return compiled;
}

function withoutSchemaKeyword(schema: object): object {
  const { $schema: _, ...rest } = schema as Record<string, unknown>;
  return rest;
}

export type { ErrorObject };
