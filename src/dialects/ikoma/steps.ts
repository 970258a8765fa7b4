import { citationOf, fieldOf, place, type Place, shape, shapeWords, type StepPlace } from "../../core/place.js";
import type { NormalizeContext } from "../../core/dialect.js";
import type { Step } from "../../core/plan.js";
import { childPointer, type Pointer } from "../../core/pointer.js";
import type { IkomaStepExtra } from "../../core/step-extra.js";
import type { IkomaStep } from "../../schemas/ikoma.js";
import { checkKeys, missing, readStepControls, STEP_CONTROL_KEYS, wrongType } from "../shape.js";
import { isObject, typeName } from "../../core/type-name.js";

// The same lists as the published schema (src/schemas/ikoma.ts); a test keeps them equal. They are
// written out here so that reading a plan does not load the schema machinery at start-up.
export const IKOMA_STEP_KEYS: readonly (keyof IkomaStep)[] = ["step", "tool_name", "args", "description", "citations", ...STEP_CONTROL_KEYS];
export const IKOMA_REQUIRED_STEP_KEYS: readonly ("step" | "tool_name" | "args" | "description")[] = ["step", "tool_name", "args", "description"];
export const IKOMA_FIELDS = { tool: "tool_name", args: "args", intent: "description" };

/** A positive integer as the schema means it (`type: integer, minimum: 1`); booleans are not integers. */
export function isPositiveInteger(v: unknown): v is number {
  return typeof v === "number" && Number.isInteger(v) && v >= 1;
}

/** The missing-field message of each required key: its hint says what the key holds. */
const MISSING: Record<(typeof IKOMA_REQUIRED_STEP_KEYS)[number], string> = {
  step: "ikomaStep",
  tool_name: "ikomaToolName",
  args: "ikomaArgs",
  description: "ikomaDescription",
};

/** Normalises iKOMA steps `{step, tool_name, args, description, citations?}` as its schema defines them. */
export function normalizeIkomaSteps(list: readonly unknown[], at: Pointer, ctx: NormalizeContext, parent?: Step): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    const position = parent ? parent.position : i + 1;
    const stepAt = childPointer(at, i);
    const what = parent ? place.step(parent.position, i + 1) : place.step(position);
    const extra: IkomaStepExtra = { numberAt: childPointer(stepAt, "step") };
    const step: Step = { position, at: stepAt, toolAt: stepAt, args: {}, argsAt: childPointer(stepAt, "args"), raw, extra };
    steps.push(step);
    if (!isObject(raw)) {
      wrongType(ctx, stepAt, what, shape("ikomaStep"), raw, position, "ikomaStep", { position });
      continue;
    }
    checkKeys(raw, stepAt, IKOMA_STEP_KEYS, what, ctx, position);
    for (const key of IKOMA_REQUIRED_STEP_KEYS) if (!Object.hasOwn(raw, key)) missing(ctx, stepAt, what, key, position, MISSING[key]);
    if (Object.hasOwn(raw, "step")) {
      if (isPositiveInteger(raw.step)) extra.number = raw.step;
      else invalidNumber(ctx, extra.numberAt, fieldOf(what, "step"), raw.step, position, "Step");
    }
    if (Object.hasOwn(raw, "tool_name")) {
      if (typeof raw.tool_name === "string") {
        step.tool = raw.tool_name;
        step.toolAt = childPointer(stepAt, "tool_name");
      } else wrongType(ctx, childPointer(stepAt, "tool_name"), fieldOf(what, "tool_name"), shape("string"), raw.tool_name, position);
    }
    if (Object.hasOwn(raw, "args")) {
      if (isObject(raw.args)) step.args = raw.args;
      else wrongType(ctx, step.argsAt, fieldOf(what, "args"), shape("object"), raw.args, position, "ikomaArgs");
    }
    if (Object.hasOwn(raw, "description")) {
      if (typeof raw.description === "string") step.intent = raw.description;
      else wrongType(ctx, childPointer(stepAt, "description"), fieldOf(what, "description"), shape("string"), raw.description, position);
    }
    if (Object.hasOwn(raw, "citations")) readCitations(raw.citations, childPointer(stepAt, "citations"), what, position, step, ctx);
    // A nested step's number counts within its list: the step-numbering rule reads top-level steps only.
    if (parent && extra.number !== undefined && extra.number !== i + 1)
      ctx.report({
        rule: "step-numbering",
        messageId: "nested",
        data: { what, number: extra.number, expected: i + 1 },
        at: extra.numberAt,
        step: position,
        expected: i + 1,
        actual: extra.number,
      });
    readStepControls(raw, stepAt, what, step, ctx, parent !== undefined, (nested, nestedAt) => normalizeIkomaSteps(nested, nestedAt, ctx, step));
  }
  return steps;
}

function readCitations(value: unknown, at: Pointer, what: StepPlace, position: number, step: Step, ctx: NormalizeContext): void {
  if (!Array.isArray(value)) {
    wrongType(ctx, at, fieldOf(what, "citations"), shape("positiveIntegers"), value, position, "ikomaCitations");
    return;
  }
  const good: number[] = [];
  value.forEach((c, j) => {
    if (isPositiveInteger(c)) good.push(c);
    else invalidNumber(ctx, childPointer(at, j), citationOf(what, j + 1), c, position, "Citation");
  });
  step.citations = good;
}

/**
 * A value that should be a positive integer: says whether the type or the value is wrong. `of` is "Step"
 * (a step's number) or "Citation", which picks the message's hint.
 */
function invalidNumber(ctx: NormalizeContext, at: Pointer, what: Place, value: unknown, position: number, of: "Step" | "Citation"): void {
  const isInt = typeof value === "number" && Number.isInteger(value);
  const shown = typeof value === "boolean" || typeof value === "number";
  ctx.report({
    rule: "invalid-type",
    messageId: `ikoma${of}${isInt ? "NotPositive" : shown ? "NotIntegerShown" : "NotInteger"}`,
    data: { what, actual: isInt ? String(value) : typeName(value), value: String(value), position },
    at,
    step: position,
    expected: shapeWords(shape("positiveInteger")),
    actual: isInt ? value : typeName(value),
  });
}
