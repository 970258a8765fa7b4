import type { NormalizeContext } from "../core/dialect.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import type { MessageData } from "../core/rule.js";
import { closest } from "../core/tools.js";
import { typeName } from "../core/type-name.js";
import { fieldOf, MAX_REPEAT, type Place, type Shape, shape, shapeWords } from "../core/place.js";

/** Reports every key of `obj` that is not in `known`, with the closest known key as hint. */
export function checkKeys(
  obj: Record<string, unknown>,
  at: Pointer,
  known: readonly string[],
  what: Place,
  ctx: NormalizeContext,
  step?: number,
): void {
  for (const key of Object.keys(obj)) {
    if (known.includes(key)) continue;
    const near = closest(key, known);
    ctx.report({
      rule: "unknown-key",
      messageId: near ? "unknownKeyNear" : "unknownKey",
      data: near ? { what, key, near } : { what, key, known: known.map((k) => `"${k}"`).join(", ") },
      at: childPointer(at, key),
      key: true,
      step,
      actual: key,
    });
  }
}

/**
 * Records a wrong type at a pointer: `what` is the place (worded "Step 2: \"tool\""), `expected` the shape
 * it must have; `messageId` picks an invalid-type message whose hint shows the right form (default: generic).
 */
export function wrongType(
  ctx: NormalizeContext,
  at: Pointer,
  what: Place,
  expected: Shape,
  value: unknown,
  step?: number,
  messageId = "wrongType",
  data?: MessageData,
): void {
  ctx.report({
    rule: "invalid-type",
    messageId,
    data: { what, expected, actual: typeName(value), ...data },
    at,
    step,
    expected: shapeWords(expected),
    actual: typeName(value),
  });
}

/** Records a missing required field; `messageId` picks a missing-field message whose hint says what to add. */
export function missing(
  ctx: NormalizeContext,
  at: Pointer,
  what: Place,
  field: string,
  step?: number,
  messageId = "missingField",
): void {
  ctx.report({ rule: "missing-field", messageId, data: { what, field }, at, step, expected: field });
}

/**
 * Whether a list of steps would take the plan past limits.maxSteps (what is left of the context's budget):
 * then limit-exceeded is reported at the list, and the caller reads none of it. Building every step of a
 * long list only to count it afterwards took gigabytes (4 MiB of `[1,1,…]`: 1.1 GB).
 */
export function tooManySteps(list: readonly unknown[], at: Pointer, ctx: NormalizeContext, nested = false): boolean {
  const max = ctx.policy.limits.maxSteps;
  const budget = ctx.budget ?? { steps: max };
  if (list.length <= budget.steps) {
    budget.steps -= list.length;
    return false;
  }
  if (nested) ctx.report({ rule: "limit-exceeded", messageId: "tooManyStepsUnread", data: { max }, at, key: true });
  else ctx.report({ rule: "limit-exceeded", messageId: "tooManySteps", data: { count: list.length, max }, at });
  return true;
}

/** Records an empty list of steps. */
export function emptyPlan(ctx: NormalizeContext, at: Pointer, what: Place): void {
  ctx.report({ rule: "empty-plan", messageId: "emptyList", data: { what }, at });
}

/** Tools whose step may carry the nested `steps` a subagent runs. */
export const SUBAGENT_TOOLS: readonly string[] = ["Task", "Agent"];
export { MAX_REPEAT };
/** The step keys that say how a call runs (intake and iKOMA). */
export const STEP_CONTROL_KEYS = ["repeat", "optional", "confirm", "steps"] as const;

/**
 * Reads `repeat` (an integer 1..1000), `optional`, `confirm` (booleans) and, on a Task or Agent step, the
 * nested `steps` (read by `readNested`, one level deep: a nested step with `steps` is an error).
 */
export function readStepControls(
  raw: Record<string, unknown>,
  at: Pointer,
  what: Place,
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
        messageId: "badRepeat",
        data: { what, max: MAX_REPEAT, actual: typeof r === "number" ? String(r) : typeName(r) },
        at: childPointer(at, "repeat"),
        step: position,
        expected: shapeWords(shape("repeatCount")),
        actual: typeof r === "number" ? r : typeName(r),
      });
  }
  for (const key of ["optional", "confirm"] as const) {
    if (!Object.hasOwn(raw, key)) continue;
    if (typeof raw[key] === "boolean") step[key] = raw[key];
    else wrongType(ctx, childPointer(at, key), fieldOf(what, key), shape("boolean"), raw[key], position);
  }
  if (!Object.hasOwn(raw, "steps")) return;
  const listAt = childPointer(at, "steps");
  if (nested) {
    ctx.report({ rule: "limit-exceeded", messageId: "nestedSteps", data: { what, tools: SUBAGENT_TOOLS.join(" or ") }, at: listAt, key: true, step: position });
    return;
  }
  if (step.tool === undefined || !SUBAGENT_TOOLS.includes(step.tool)) {
    const tools = SUBAGENT_TOOLS.join(" or ");
    ctx.report({
      rule: "invalid-type",
      messageId: step.tool === undefined ? "stepsNotSubagentUnknownTool" : "stepsNotSubagent",
      data: step.tool === undefined ? { what, tools } : { what, tools, tool: step.tool },
      at: listAt,
      key: true,
      step: position,
    });
    return;
  }
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) {
    wrongType(ctx, listAt, fieldOf(what, "steps"), shape("subagentSteps"), raw.steps, position);
    return;
  }
  if (tooManySteps(raw.steps, listAt, ctx, true)) return;
  step.substeps = readNested(raw.steps, listAt);
}
