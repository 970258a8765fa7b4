import { place, shape } from "../../core/place.js";
import { defineDialect } from "../../core/dialect.js";
import type { Plan } from "../../core/plan.js";
import type { SourceDocument } from "../../core/document.js";
import { checkKeys, emptyPlan, missing, tooManySteps, wrongType } from "../shape.js";
import { isObject } from "../../core/type-name.js";
import { IKOMA_FIELDS, normalizeIkomaSteps } from "./steps.js";

/** The plan object's keys, as in the published schema (a test keeps them equal). */
export const IKOMA_ROOT_KEYS: readonly string[] = ["plan", "reasoning"];

function planOf(doc: SourceDocument, stepsAt: string, steps: Plan["steps"], meta: Record<string, unknown>): Plan {
  return { dialect: "ikoma", source: doc, fields: IKOMA_FIELDS, stepsAt, steps, meta };
}

/** iKOMA's plan contract (iKOMA's contract): `{plan: [{step, tool_name, args, description, citations?}], reasoning}`, nothing else. */
export default defineDialect({
  id: "ikoma",
  syntaxes: ["json"],
  shape: 'a JSON object {"plan": [{"step", "tool_name", "args", "description", "citations"?}], "reasoning"}',
  normalize(doc, ctx) {
    const root = doc.value;
    if (Array.isArray(root)) {
      // The bare list iKOMA's agent falls back to: the steps are checked, the missing wrapper is reported.
      missing(ctx, "", place.document("plan"), "plan", undefined, "ikomaWrapper");
      const steps = normalizeIkomaSteps(root, "", ctx);
      if (steps.length === 0) emptyPlan(ctx, "", place.document("plan"));
      return planOf(doc, "", steps, {});
    }
    if (!isObject(root)) {
      wrongType(ctx, "", place.document("ikomaPlan"), shape("ikomaPlan"), root);
      return undefined;
    }
    checkKeys(root, "", IKOMA_ROOT_KEYS, place.document("planObject"), ctx);
    if (!Object.hasOwn(root, "reasoning")) {
      missing(ctx, "", place.document("planObject"), "reasoning", undefined, "ikomaReasoning");
    } else if (typeof root.reasoning !== "string") {
      wrongType(ctx, "/reasoning", place.member("reasoning"), shape("string"), root.reasoning);
    }
    const meta: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(root)) if (k !== "plan") meta[k] = v;
    if (!Object.hasOwn(root, "plan")) {
      missing(ctx, "", place.document("planObject"), "plan", undefined, "ikomaPlan");
      return undefined;
    }
    if (!Array.isArray(root.plan)) {
      wrongType(ctx, "/plan", place.member("plan"), shape("stepList"), root.plan, undefined, "ikomaPlanList");
      return planOf(doc, "/plan", [], meta);
    }
    if (tooManySteps(root.plan, "/plan", ctx)) return undefined;
    const steps = normalizeIkomaSteps(root.plan, "/plan", ctx);
    if (steps.length === 0) emptyPlan(ctx, "/plan", place.member("plan"));
    return planOf(doc, "/plan", steps, meta);
  },
});
