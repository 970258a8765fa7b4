import type { NormalizeContext } from "../core/dialect.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import { closest } from "../core/tools.js";

/** Is the value a plain object (not an array, not null)? */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** JSON-ish type name for messages. */
export function typeName(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value;
}

/** Reports every key of `obj` that is not in `known`, with the closest known key as hint. */
export function checkKeys(
  obj: Record<string, unknown>,
  at: Pointer,
  known: readonly string[],
  what: string,
  ctx: NormalizeContext,
  step?: number,
): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    ctx.report({
      rule: "unknown-key",
      at: childPointer(at, key),
      key: true,
      step,
      message: `${what}: unknown key "${key}"${near ? `; did you mean "${near}"?` : ""}`,
      hint: near ? `rename it to "${near}"` : `remove it; the known keys are ${known.map((k) => `"${k}"`).join(", ")}`,
      actual: key,
    });
  }
}

/** Reports a wrong type at a pointer. */
export function wrongType(
  ctx: NormalizeContext,
  at: Pointer,
  what: string,
  expected: string,
  value: unknown,
  step?: number,
  hint?: string,
): void {
  ctx.report({
    rule: "invalid-type",
    at,
    step,
    message: `${what} must be ${expected}, not ${typeName(value)}.`,
    hint: hint ?? `write ${what} as ${expected}`,
    expected,
    actual: typeName(value),
  });
}

/** Reports a missing required field. */
export function missing(
  ctx: NormalizeContext,
  at: Pointer,
  what: string,
  field: string,
  step?: number,
  hint?: string,
): void {
  ctx.report({
    rule: "missing-field",
    at,
    step,
    message: `${what} is missing the required field "${field}".`,
    hint: hint ?? `add "${field}"`,
    expected: field,
  });
}

/** Reports an empty list of steps. */
export function emptyPlan(ctx: NormalizeContext, at: Pointer, what: string): void {
  ctx.report({
    rule: "empty-plan",
    at,
    message: `${what} is empty: a plan needs at least one step.`,
    hint: "add the steps to run, or do not submit an empty plan",
  });
}
