import { Ajv2020 } from "ajv/dist/2020.js";
import type { ValidateFunction } from "ajv";
import { canonicalJson } from "./canonical/jcs.js";
import { boundedRe2Engine } from "./regex.js";

/*
 * The `$schema` constraint: a JSON Schema (2020-12) a value must satisfy, compiled by ajv with every
 * `pattern` run by RE2 (linear time), bounded in size and depth, with no `$ref` that leaves the schema.
 * Loaded only when a plan has a `$schema` constraint (ajv costs tens of milliseconds to load).
 */

/** Largest `$schema` operand: its canonical JSON length, its nesting depth and its number of nodes. */
export const MAX_SCHEMA_CHARS = 16 * 1024;
export const MAX_SCHEMA_DEPTH = 16;
export const MAX_SCHEMA_NODES = 1000;

/** Keywords that name another schema by URI: only local references (`#…`) are followed. */
const REF_KEYS = new Set(["$ref", "$dynamicRef", "$recursiveRef"]);
/** Keywords that give a schema a name others could reach, or load a vocabulary: refused. */
const NAMING_KEYS = new Set(["$id", "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "$schema"]);

/** Why a `$schema` operand cannot be used (too big, a remote reference…), or undefined. */
export function schemaProblem(schema: unknown): string | undefined {
  let nodes = 0;
  let problem: string | undefined;
  const visit = (v: unknown, depth: number, data: boolean): void => {
    if (problem) return;
    if (++nodes > MAX_SCHEMA_NODES) problem = `it has over ${MAX_SCHEMA_NODES} values`;
    else if (depth > MAX_SCHEMA_DEPTH) problem = `it is nested over ${MAX_SCHEMA_DEPTH} levels deep`;
    else if (Array.isArray(v)) for (const x of v) visit(x, depth + 1, data);
    else if (v !== null && typeof v === "object")
      for (const [k, x] of Object.entries(v)) {
        if (!data && REF_KEYS.has(k) && !(typeof x === "string" && x.startsWith("#"))) problem = `its ${k} ${JSON.stringify(x)} points outside the schema (only "#…" references are followed)`;
        else if (!data && NAMING_KEYS.has(k)) problem = `it uses ${k}, which names or loads schemas (write a self-contained schema without it)`;
        visit(x, depth + 1, data || k === "const" || k === "enum" || k === "default" || k === "examples");
      }
  };
  visit(schema, 0, false);
  if (problem) return problem;
  try {
    if (canonicalJson(schema).length > MAX_SCHEMA_CHARS) return `it is over ${MAX_SCHEMA_CHARS} characters long`;
  } catch (err) {
    return (err as Error).message;
  }
  return undefined;
}

type Compiled = { validate: ValidateFunction } | { error: string };
const cache = new Map<string, Compiled>();

/** Compiles a `$schema` operand (cached by its canonical form), or says why it cannot be. */
export function compileConstraintSchema(schema: unknown): Compiled {
  const why = schemaProblem(schema);
  if (why) return { error: why };
  const key = canonicalJson(schema);
  let hit = cache.get(key);
  if (hit) return hit;
  try {
    // One engine per schema: nothing one plan's schema declares can reach another's.
    const ajv = new Ajv2020({ strict: true, allErrors: false, logger: false, code: { regExp: boundedRe2Engine }, loadSchema: undefined });
    hit = { validate: ajv.compile(schema as object | boolean) };
  } catch (err) {
    hit = { error: (err as Error).message };
  }
  if (cache.size > 256) cache.clear();
  cache.set(key, hit);
  return hit;
}

/** The `schema` checker of a ValueContext: a schema that cannot be compiled matches nothing, nor does a value one of its patterns would take too long on (RegexTooSlow). */
export function checkSchema(schema: unknown, value: unknown): boolean {
  const c = compileConstraintSchema(schema);
  if ("error" in c) return false;
  try {
    return c.validate(value) === true;
  } catch {
    return false;
  }
}
