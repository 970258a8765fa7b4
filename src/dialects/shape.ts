import type { NormalizeContext } from "../core/dialect.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import { closest } from "../core/tools.js";
import { typeName } from "../core/type-name.js";

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

/** Tools whose step may carry the nested `steps` a subagent runs. */
export const SUBAGENT_TOOLS: readonly string[] = ["Task", "Agent"];
/** Largest `repeat`. */
export const MAX_REPEAT = 1000;
/** The step keys that say how a call runs (intake and iKOMA). */
export const STEP_CONTROL_KEYS = ["repeat", "optional", "confirm", "steps"] as const;

/**
 * Reads `repeat` (an integer 1..1000), `optional`, `confirm` (booleans) and, on a Task or Agent step, the
 * nested `steps` (read by `readNested`, one level deep: a nested step with `steps` is an error).
 */
export function readStepControls(
  raw: Record<string, unknown>,
  at: Pointer,
  what: string,
  step: { position: number; tool?: string; repeat?: number; optional?: boolean; confirm?: boolean; substeps?: unknown[] },
  ctx: NormalizeContext,
  nested: boolean,
  readNested: (list: readonly unknown[], at: Pointer) => typeof step.substeps,
): void {
  const position = step.position;
  if (Object.hasOwn(raw, "repeat")) {
    const r = raw.repeat;
    if (typeof r === "number" && Number.isInteger(r) && r >= 1 && r <= MAX_REPEAT) step.repeat = r;
    else
      ctx.report({
        rule: "invalid-type",
        at: childPointer(at, "repeat"),
        step: position,
        message: `${what}: "repeat" must be an integer from 1 to ${MAX_REPEAT}, not ${typeof r === "number" ? String(r) : typeName(r)}.`,
        hint: `write the number of times the call runs in a row, 1 to ${MAX_REPEAT}, or leave "repeat" out`,
        expected: `an integer from 1 to ${MAX_REPEAT}`,
        actual: typeof r === "number" ? r : typeName(r),
      });
  }
  for (const key of ["optional", "confirm"] as const) {
    if (!Object.hasOwn(raw, key)) continue;
    if (typeof raw[key] === "boolean") step[key] = raw[key];
    else wrongType(ctx, childPointer(at, key), `${what}: "${key}"`, "true or false", raw[key], position);
  }
  if (!Object.hasOwn(raw, "steps")) return;
  const listAt = childPointer(at, "steps");
  if (nested) {
    ctx.report({
      rule: "limit-exceeded",
      at: listAt,
      key: true,
      step: position,
      message: `${what}: nested steps go one level deep: a step inside a ${SUBAGENT_TOOLS.join(" or ")} step cannot have its own "steps".`,
      hint: "list the calls of the inner subagent as steps of the outer one, or split the plan",
    });
    return;
  }
  if (step.tool === undefined || !SUBAGENT_TOOLS.includes(step.tool)) {
    ctx.report({
      rule: "invalid-type",
      at: listAt,
      key: true,
      step: position,
      message: `${what}: only a ${SUBAGENT_TOOLS.join(" or ")} step (a subagent) may have nested "steps"; this step's tool is ${step.tool === undefined ? "not known" : `"${step.tool}"`}.`,
      hint: "move these steps to the top level of the plan, or make this step a Task step",
    });
    return;
  }
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) {
    wrongType(ctx, listAt, `${what}: "steps"`, "a non-empty list of the steps the subagent runs", raw.steps, position);
    return;
  }
  step.substeps = readNested(raw.steps, listAt);
}
