import { place, shape } from "../../core/place.js";
import { defineDialect } from "../../core/dialect.js";
import { parseTimestamp } from "../../core/time.js";
import { checkKeys, emptyPlan, missing, tooManySteps, wrongType } from "../shape.js";
import { isObject } from "../../core/type-name.js";
import { SCQC_FIELDS, normalizeScqcSteps } from "./steps.js";

export const ENVELOPE_KEYS = ["version", "created_at", "message", "intent", "checksum", "plan"] as const;
export const SUPPORTED_VERSIONS = ["1.0"];

/** scQC's v1.0 envelope: metadata, a checksum of the plan, and the plan itself. */
export default defineDialect({
  id: "scqc-envelope",
  syntaxes: ["json"],
  shape: 'a JSON object {"version", "created_at", "message", "intent", "checksum", "plan": [steps]}',
  normalize(doc, ctx) {
    const root = doc.value;
    if (!isObject(root)) {
      wrongType(ctx, "", place.document("scqcEnvelope"), shape("jsonObject"), root);
      return undefined;
    }
    checkKeys(root, "", ENVELOPE_KEYS, place.document("envelope"), ctx);
    if (Object.hasOwn(root, "version")) {
      const v = root.version;
      if (typeof v !== "string") wrongType(ctx, "/version", place.member("version"), shape("versionString"), v);
      else if (!SUPPORTED_VERSIONS.includes(v))
        ctx.report({
          rule: "invalid-type",
          messageId: "unsupportedVersion",
          data: { version: v, supported: SUPPORTED_VERSIONS.join(", ") },
          at: "/version",
          expected: SUPPORTED_VERSIONS[0],
          actual: v,
        });
    }
    if (Object.hasOwn(root, "created_at")) {
      const c = root.created_at;
      if (typeof c !== "string" || !parseTimestamp(c))
        ctx.report({
          rule: "invalid-type",
          messageId: "badCreatedAt",
          data: { actual: String(JSON.stringify(c)) },
          at: "/created_at",
          actual: c,
        });
    }
    for (const key of ["message", "intent"] as const) {
      if (Object.hasOwn(root, key) && typeof root[key] !== "string")
        wrongType(ctx, `/${key}`, place.member(key), shape("string"), root[key]);
    }
    if (Object.hasOwn(root, "checksum")) {
      const c = root.checksum;
      if (c !== null && typeof c !== "string") wrongType(ctx, "/checksum", place.member("checksum"), shape("sha256"), c);
    }
    const meta: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(root)) if (k !== "plan") meta[k] = v;
    if (!Object.hasOwn(root, "plan")) {
      missing(ctx, "", place.document("envelope"), "plan");
      return undefined;
    }
    const list = root.plan;
    if (!Array.isArray(list)) {
      wrongType(ctx, "/plan", place.member("plan"), shape("stepList"), list, undefined, "scqcPlanList");
      return { dialect: "scqc-envelope", source: doc, fields: SCQC_FIELDS, stepsAt: "/plan", steps: [], meta };
    }
    if (tooManySteps(list, "/plan", ctx)) return undefined;
    const steps = normalizeScqcSteps(list, "/plan", ctx);
    if (steps.length === 0) emptyPlan(ctx, "/plan", place.document("plan"));
    return { dialect: "scqc-envelope", source: doc, fields: SCQC_FIELDS, stepsAt: "/plan", steps, meta };
  },
});
