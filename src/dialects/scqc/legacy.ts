import { place } from "../../core/place.js";
import { defineDialect } from "../../core/dialect.js";
import { emptyPlan, tooManySteps } from "../shape.js";
import { SCQC_FIELDS, normalizeScqcSteps } from "./steps.js";

/** scQC's legacy format: a bare JSON array of steps, with no metadata and no checksum. */
export default defineDialect({
  id: "scqc-legacy",
  syntaxes: ["json"],
  shape: 'a JSON array of steps {"tool", "description", "params"}',
  normalize(doc, ctx) {
    const value = doc.value;
    if (!Array.isArray(value)) {
      ctx.report({
        rule: "invalid-type",
        messageId: "legacyNotArray",
        data: { actual: typeof value },
        at: "",
      });
      return undefined;
    }
    if (tooManySteps(value, "", ctx)) return undefined;
    const steps = normalizeScqcSteps(value, "", ctx);
    if (steps.length === 0) emptyPlan(ctx, "", place.document("plan"));
    return { dialect: "scqc-legacy", source: doc, fields: SCQC_FIELDS, stepsAt: "", steps, meta: {} };
  },
});
