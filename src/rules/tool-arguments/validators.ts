import { compiledFor } from "../../core/compiled.js";
import { _, Ajv, type ErrorObject, type KeywordCxt, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { canonicalJson } from "../../core/canonical/jcs.js";
import { compileSafePattern } from "../../core/regex.js";

// ajv-formats is CommonJS: its default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv | Ajv2020) => void;

/**
 * Most subschemas one validation may apply to values, over all its steps: each subschema applied to a
 * value counts one. A schema whose `anyOf` branches both recurse into the same value doubles the work at
 * each level of nesting (a list nested 26 deep took 3.8 s, 30 deep 64 s), and a wide `anyOf` over a long
 * list multiplies the two. Real arguments take tens to thousands. Measured: 135 million a second for
 * such a recursive schema, 5.6 million for object branches that fail and record their errors (20,000
 * items against 50 branches: 0.36 s), so the bound is reached within about half a second.
 */
export const MAX_SCHEMA_WORK = 2_000_000;

/** The keyword each subschema of a tool's inputSchema is given (in a copy) to count the work: see withWork. */
const WORK = "$plangateWork";

/** The work left to the validation running now; `over` is thrown past it. */
const work = { left: MAX_SCHEMA_WORK, over: new Error("schema work") };

/**
 * A pattern (`pattern`, a `patternProperties` key) tested on a string counts as work too, by what RE2 does:
 * one, and one more for each PATTERN_WORK_UNIT of the string's length times the pattern's program size (RE2
 * steps every instruction it holds for each character: about a nanosecond each). 3,000 `patternProperties`
 * over 20,000 keys took 19 s, when each test counted nothing; a program of 1,800 instructions reads a MiB in 2 s.
 */
export const PATTERN_WORK_UNIT = 256;

/** For ajv's `code.regExp`: registry patterns compiled by RE2 (core/regex.ts), each test taking its work from the validation's. */
const countedRe2 = Object.assign(
  (pattern: string): { test(s: string): boolean; toString(): string } => {
    const c = compileSafePattern(pattern);
    if ("error" in c) throw new Error(`pattern "${pattern}" cannot be used: ${c.error}`);
    const size = c.size;
    return {
      test(s: string): boolean {
        work.left -= 1 + Math.floor((s.length * size) / PATTERN_WORK_UNIT);
        if (work.left < 0) throw work.over;
        return c.test(s);
      },
      toString: () => c.toString(),
    };
  },
  { code: "plangateCountedRe2" },
);

let engines: { draft2020: Ajv2020; draft07: Ajv } | undefined;

function createEngines(): { draft2020: Ajv2020; draft07: Ajv } {
  // Registry patterns run on RE2 (linear time), never on the backtracking RegExp engine: see core/regex.ts.
  // A `$ref` is compiled once, as a function of its own, never copied in where it is used: a 3,000-value
  // schema whose `$defs` entry of 1,500 values is used 1,500 times took 149 s and 5.3 GB to compile.
  const options = { strict: false, allErrors: true, logger: false as const, inlineRefs: false, code: { regExp: countedRe2 } };
  const draft2020 = new Ajv2020(options);
  const draft07 = new Ajv(options);
  for (const ajv of [draft2020, draft07]) {
    addFormats(ajv);
    // `format: "path"` marks path arguments for the workspace rules; to ajv any string is a path.
    ajv.addFormat("path", true);
    // ajv compares object items pairwise (20,000 objects: 18 s); one canonical form per item keeps it linear.
    ajv.removeKeyword("uniqueItems");
    ajv.addKeyword({ keyword: "uniqueItems", type: "array", schemaType: "boolean", errors: true, validate: uniqueItems });
    ajv.addKeyword({
      keyword: WORK,
      schemaType: "boolean",
      code(cxt: KeywordCxt) {
        const left = cxt.gen.scopeValue("keyword", { ref: work });
        cxt.gen.if(_`--${left}.left < 0`, () => cxt.gen.throw(_`${left}.over`));
      },
    });
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

/** What checking one value found: valid or not (errors in `validate.errors`), or why it could not be checked. */
export type Checked = { valid: boolean } | { over: true } | { error: string };

/** Sets the work the validation running now has left (MAX_SCHEMA_WORK for all its steps). */
export function setSchemaWork(left: number): void {
  work.left = left;
}

/** The work the validation running now has left. */
export function schemaWorkLeft(): number {
  return work.left;
}

/**
 * Checks a value against a compiled schema within the work left: `over` once the validation has applied
 * MAX_SCHEMA_WORK subschemas, `error` when the schema recurses without end (a `$ref` to itself).
 */
export function checkValue(validate: ValidateFunction, value: unknown): Checked {
  if (work.left < 0) return { over: true };
  try {
    return { valid: validate(value) as boolean };
  } catch (err) {
    if (err === work.over) return { over: true };
    if (err instanceof RangeError) return { error: "it refers to itself without end" };
    throw err;
  }
}

function compileSchema(schema: object): Compiled {
  engines ??= createEngines();
  const declared = (schema as { $schema?: unknown }).$schema;
  const older = typeof declared === "string" && /draft-0[4-7]/.test(declared);
  // Ajv knows the draft-07 and 2020-12 meta-schemas only: a draft-04/06 or 2019-09 schema is compiled by
  // the nearest engine without its `$schema` (a keyword that changed meaning, such as draft-04's boolean
  // exclusiveMinimum, then fails to compile and the step is rejected: fail closed).
  const known = typeof declared !== "string" || /draft-07|draft\/2020-12|json-schema\.org\/schema#?$/.test(declared);
  const source = withWork(known ? schema : withoutSchemaKeyword(schema));
  const ajv = older ? engines.draft07 : engines.draft2020;
  // Each schema is compiled on its own: what it names by `$id` is forgotten after it, so that no tool's
  // schema reaches another's (a `$ref` that resolved only when another tool happened to be compiled first)
  // and a registry read again can give the same `$id` (ajv keeps every schema it compiled, by `$id` too).
  const refs = new Set(Object.keys(ajv.refs));
  const named = new Set(Object.keys(ajv.schemas));
  try {
    return { validate: ajv.compile(source) };
  } catch (err) {
    return { error: err instanceof RangeError ? "it is nested too deeply, or refers to itself without end" : (err as Error).message };
  } finally {
    ajv.removeSchema(source);
    for (const k of Object.keys(ajv.refs)) if (!refs.has(k)) delete ajv.refs[k];
    for (const k of Object.keys(ajv.schemas)) if (!named.has(k)) delete ajv.schemas[k];
  }
}

function withoutSchemaKeyword(schema: object): object {
  const { $schema: _s, ...rest } = schema as Record<string, unknown>;
  return rest;
}

/** Keywords whose value is data (never a schema): nothing in them is given the work keyword. */
const DATA_KEYWORDS = new Set(["const", "enum", "default", "examples", "required", "dependentRequired", "$vocabulary", "type"]);
/** Keywords whose value maps names (or patterns) to schemas: the map is not a schema, its values are. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas", "dependencies"]);

/**
 * A copy of the schema in which every object in the place of a schema holds the work keyword, so that each
 * subschema ajv applies counts one (see MAX_SCHEMA_WORK). An unknown keyword's object is treated as a
 * schema: a `$ref` may point into it, and ajv ignores it otherwise. Iterative: a schema may nest deep.
 */
export function withWork(schema: object): object {
  const root = Array.isArray(schema) ? [] : {};
  // [source, copy, whether source is a schema (else: a map of names to schemas, or a list of schemas)]
  const stack: [object, Record<string, unknown> | unknown[], boolean][] = [[schema, root, !Array.isArray(schema)]];
  while (stack.length > 0) {
    const [from, to, isSchema] = stack.pop()!;
    for (const [k, v] of Object.entries(from)) {
      let copy: unknown = v;
      if (v !== null && typeof v === "object" && !(isSchema && DATA_KEYWORDS.has(k))) {
        copy = Array.isArray(v) ? [] : {};
        // A list is a list of schemas (allOf, prefixItems, draft-07 items) or of data no keyword reads as one.
        const child = !Array.isArray(v) && !(isSchema && SCHEMA_MAPS.has(k));
        stack.push([v, copy as Record<string, unknown> | unknown[], child]);
      }
      if (Array.isArray(to)) to.push(copy);
      else to[k] = copy;
    }
    if (isSchema && !Array.isArray(to)) to[WORK] = true;
  }
  return root;
}

export type { ErrorObject };
