import { fieldOf, place, shape } from "../../core/place.js";
import { defineDialect, type NormalizeContext } from "../../core/dialect.js";
import type { FieldNames, Step } from "../../core/plan.js";
import { childPointer } from "../../core/pointer.js";
import { checkKeys, emptyPlan, missing, readStepControls, STEP_CONTROL_KEYS, tooManySteps, wrongType } from "../shape.js";
import { isObject } from "../../core/type-name.js";

export const INTAKE_ROOT_KEYS = ["steps", "scope"] as const;
export const INTAKE_STEP_KEYS = ["tool", "arguments", "intent", "scope", "timeout", "continue_on_error", ...STEP_CONTROL_KEYS] as const;
export const INTAKE_FIELDS: FieldNames = { tool: "tool", args: "arguments", intent: "intent" };

/** The intake protocol's plan intake format: `{steps: [{tool, arguments, intent, scope?, timeout?, continue_on_error?}], scope?}`. */
export default defineDialect({
  id: "intake",
  syntaxes: ["json", "yaml"],
  shape: 'a JSON or YAML object {"steps": [{"tool", "arguments", "intent"}], "scope"?}',
  normalize(doc, ctx) {
    const root = doc.value;
    if (!isObject(root)) {
      wrongType(ctx, "", place.document("intakePlan"), shape("intakePlan"), root, undefined, "intakeSteps");
      return undefined;
    }
    checkKeys(root, "", INTAKE_ROOT_KEYS, place.document("plan"), ctx);
    const meta: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(root)) if (k !== "steps") meta[k] = v;
    let scope: string | undefined;
    if (Object.hasOwn(root, "scope")) {
      if (typeof root.scope === "string") scope = root.scope;
      else wrongType(ctx, "/scope", place.member("scope"), shape("folder"), root.scope);
    }
    const base = { dialect: "intake" as const, source: doc, fields: INTAKE_FIELDS, stepsAt: "/steps", meta, scope };
    if (!Object.hasOwn(root, "steps")) {
      missing(ctx, "", place.document("plan"), "steps", undefined, "intakeSteps");
      return { ...base, steps: [] };
    }
    const list = root.steps;
    if (!Array.isArray(list)) {
      wrongType(ctx, "/steps", place.member("steps"), shape("stepList"), list, undefined, "intakeSteps");
      return { ...base, steps: [] };
    }
    if (tooManySteps(list, "/steps", ctx)) return undefined;
    const steps = list.map((raw, i) => normalizeStep(raw, i, "/steps", ctx));
    if (steps.length === 0) emptyPlan(ctx, "/steps", place.member("steps"));
    return { ...base, steps };
  },
});

function normalizeStep(raw: unknown, i: number, listAt: string, ctx: NormalizeContext, parent?: Step): Step {
  const position = parent ? parent.position : i + 1;
  const at = childPointer(listAt, i);
  const what = parent ? place.step(parent.position, i + 1) : place.step(position);
  const step: Step = { position, at, toolAt: at, args: {}, argsAt: childPointer(at, "arguments"), raw };
  if (!isObject(raw)) {
    wrongType(ctx, at, what, shape("intakeStep"), raw, position, "intakeStep");
    return step;
  }
  checkKeys(raw, at, INTAKE_STEP_KEYS, what, ctx, position);
  if (!Object.hasOwn(raw, "tool")) missing(ctx, at, what, "tool", position, "intakeTool");
  else if (typeof raw.tool === "string" && raw.tool.trim() !== "") {
    step.tool = raw.tool;
    step.toolAt = childPointer(at, "tool");
  } else if (Array.isArray(raw.tool)) {
    // A list of tools is the multiple-tools rule's finding, not a type error.
    step.toolAt = childPointer(at, "tool");
  } else wrongType(ctx, childPointer(at, "tool"), fieldOf(what, "tool"), shape("nonEmptyString"), raw.tool, position);
  if (!Object.hasOwn(raw, "arguments")) missing(ctx, at, what, "arguments", position, "intakeArguments");
  else if (isObject(raw.arguments)) step.args = raw.arguments;
  else wrongType(ctx, step.argsAt, fieldOf(what, "arguments"), shape("object"), raw.arguments, position, "intakeArguments");
  // An absent, null or blank intent is missing-intent's finding; only another type is invalid here.
  if (typeof raw.intent === "string") step.intent = raw.intent;
  else if (raw.intent !== undefined && raw.intent !== null)
    wrongType(ctx, childPointer(at, "intent"), fieldOf(what, "intent"), shape("sentence"), raw.intent, position);
  if (Object.hasOwn(raw, "scope")) {
    if (typeof raw.scope === "string") step.scope = raw.scope;
    else wrongType(ctx, childPointer(at, "scope"), fieldOf(what, "scope"), shape("folder"), raw.scope, position);
  }
  if (Object.hasOwn(raw, "timeout")) {
    const t = raw.timeout;
    if (typeof t === "number" && Number.isFinite(t) && t > 0) step.timeout = t;
    else wrongType(ctx, childPointer(at, "timeout"), fieldOf(what, "timeout"), shape("seconds"), t, position);
  }
  if (Object.hasOwn(raw, "continue_on_error")) {
    if (typeof raw.continue_on_error === "boolean") step.continueOnError = raw.continue_on_error;
    else wrongType(ctx, childPointer(at, "continue_on_error"), fieldOf(what, "continue_on_error"), shape("boolean"), raw.continue_on_error, position);
  }
  readStepControls(raw, at, what, step, ctx, parent !== undefined, (list, nestedAt) => list.map((r, j) => normalizeStep(r, j, nestedAt, ctx, step)));
  return step;
}
