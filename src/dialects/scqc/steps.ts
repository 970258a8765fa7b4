import { fieldOf, place, shape } from "../../core/place.js";
import type { NormalizeContext } from "../../core/dialect.js";
import type { Step } from "../../core/plan.js";
import { childPointer, type Pointer } from "../../core/pointer.js";
import { checkKeys, missing, wrongType } from "../shape.js";
import { isObject } from "../../core/type-name.js";

export const SCQC_STEP_KEYS = ["tool", "description", "params"] as const;
export const SCQC_FIELDS = { tool: "tool", args: "params", intent: "description" };

/** Normalises scQC steps `{tool, description?, params?}`; only `tool` is required, as scAgent's loader does. */
export function normalizeScqcSteps(list: readonly unknown[], at: Pointer, ctx: NormalizeContext): Step[] {
  const steps: Step[] = [];
  for (let i = 0; i < list.length; i++) {
    const raw = list[i];
    const position = i + 1;
    const stepAt = childPointer(at, i);
    const what = place.step(position);
    const step: Step = { position, at: stepAt, toolAt: stepAt, args: {}, argsAt: childPointer(stepAt, "params"), raw };
    steps.push(step);
    if (!isObject(raw)) {
      wrongType(ctx, stepAt, what, shape("scqcStep"), raw, position, "scqcStep");
      continue;
    }
    checkKeys(raw, stepAt, SCQC_STEP_KEYS, what, ctx, position);
    if (!Object.hasOwn(raw, "tool")) {
      missing(ctx, stepAt, what, "tool", position, "scqcTool");
    } else if (Array.isArray(raw.tool)) {
      // A list of tools is the multiple-tools rule's finding, not a type error.
      step.toolAt = childPointer(stepAt, "tool");
    } else if (typeof raw.tool !== "string" || raw.tool === "") {
      wrongType(ctx, childPointer(stepAt, "tool"), fieldOf(what, "tool"), shape("nonEmptyString"), raw.tool, position);
    } else {
      step.tool = raw.tool;
      step.toolAt = childPointer(stepAt, "tool");
    }
    if (Object.hasOwn(raw, "description")) {
      if (typeof raw.description === "string") step.intent = raw.description;
      else wrongType(ctx, childPointer(stepAt, "description"), fieldOf(what, "description"), shape("string"), raw.description, position);
    }
    if (Object.hasOwn(raw, "params")) {
      if (isObject(raw.params)) step.args = raw.params;
      else wrongType(ctx, step.argsAt, fieldOf(what, "params"), shape("object"), raw.params, position);
    }
  }
  return steps;
}
