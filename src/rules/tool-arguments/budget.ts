import type { Plan, Step } from "../../core/plan.js";

/**
 * Most values (objects, lists, strings, numbers, booleans, nulls) the inputSchemas one validation compiles
 * may hold in all. ajv compiles a schema in about 50 to 150 µs a value, and a plan chooses the tools it
 * calls: ten tools of 10,000 values each (what a registry allows) took about 10 s to check one plan. The
 * inputSchemas of a plan's tools are counted in the order of its steps (nested steps after their step),
 * whether or not an earlier validation compiled them, so that a plan's verdict never depends on what was
 * checked before it; a step whose tool's schema would pass the bound is `limit-exceeded`.
 */
export const MAX_PLAN_SCHEMA_VALUES = 15_000;

/** The steps of one validation whose tool's inputSchema is not compiled, and why. */
export interface SchemaBudget {
  /** Each such step, with the number of values its tool's schema holds (past the bound: MAX + 1). */
  readonly over: ReadonlyMap<Step, number>;
  /** Set when the engine has reported them as `limit-exceeded`. */
  reported: boolean;
}

/**
 * What the patterns (`pattern`, `patternProperties` keys) and `$ref`s of a schema add to its values: ajv
 * gives each a name of its own in the compiled code, and writes those names out with a cost that grows with
 * the square of their number: 1,000 patterns took 0.4 s to compile, 4,000 4.9 s, 3,000 `patternProperties`
 * under `additionalProperties: false` 5.6 s (then overflowed the stack), 4,000 `$ref`s 5.2 s. n of them
 * count as n * n / NAMED_SQUARE values more, so some 1,300 are past MAX_PLAN_SCHEMA_VALUES on their own.
 */
export const NAMED_SQUARE = 128;

/** Values of a schema, counted up to MAX_PLAN_SCHEMA_VALUES + 1, once per schema object. */
const counted = new WeakMap<object, number>();

export function schemaValues(schema: object): number {
  const hit = counted.get(schema);
  if (hit !== undefined) return hit;
  let n = 0;
  // Patterns and `$ref`s (counted wherever such a key is, which may count a property's name: more, never less).
  let named = 0;
  const stack: unknown[] = [schema];
  while (stack.length > 0 && n + Math.floor((named * named) / NAMED_SQUARE) <= MAX_PLAN_SCHEMA_VALUES) {
    const v = stack.pop();
    n++;
    if (v === null || typeof v !== "object") continue;
    for (const x of Object.values(v)) stack.push(x);
    if (Array.isArray(v)) continue;
    const o = v as Record<string, unknown>;
    if (typeof o.pattern === "string") named++;
    if (typeof o.$ref === "string") named++;
    const patterns = o.patternProperties;
    if (patterns !== null && typeof patterns === "object" && !Array.isArray(patterns)) named += Object.keys(patterns).length;
  }
  n += Math.floor((named * named) / NAMED_SQUARE);
  n = Math.min(n, MAX_PLAN_SCHEMA_VALUES + 1);
  counted.set(schema, n);
  return n;
}

const budgets = new WeakMap<object, SchemaBudget>();

/**
 * Which steps of a validation (`validation`: an object of its own, the same for the plan and its nested
 * steps) get no compiled schema: the first steps whose tools' schemas fit the bound are compiled, in step
 * order, and a step whose tool's schema would pass it is over (so is every later step of that tool).
 */
export function schemaBudget(plan: Plan, schemas: ReadonlyMap<string, unknown>, validation: object): SchemaBudget {
  const hit = budgets.get(validation);
  if (hit) return hit;
  const over = new Map<Step, number>();
  const admitted = new Set<object>();
  const refused = new Map<object, number>();
  let used = 0;
  const visit = (step: Step) => {
    if (step.tool === undefined) return;
    const schema = schemas.get(step.tool);
    if (schema === null || typeof schema !== "object" || admitted.has(schema)) return;
    let n = refused.get(schema);
    if (n === undefined) {
      n = schemaValues(schema);
      if (used + n <= MAX_PLAN_SCHEMA_VALUES) {
        admitted.add(schema);
        used += n;
        return;
      }
      refused.set(schema, n);
    }
    over.set(step, n);
  };
  for (const step of plan.steps) {
    visit(step);
    for (const sub of step.substeps ?? []) visit(sub);
  }
  const budget: SchemaBudget = { over, reported: false };
  budgets.set(validation, budget);
  return budget;
}

/** How a message says a schema's number of values: past the bound it was not counted to the end. */
export function valuesText(values: number): string {
  return values > MAX_PLAN_SCHEMA_VALUES ? `over ${MAX_PLAN_SCHEMA_VALUES}` : String(values);
}
