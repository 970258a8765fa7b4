import type { Report } from "../core/rule.js";
import type { WorkKind, WorkPlace } from "../core/work.js";

/**
 * The limit-exceeded report of a kind of work a validation ran out of (src/core/work.ts), at the place it
 * did: the engine's for a plan, the guard's for a call (its words are limit-exceeded's `work…` messages).
 */
export function workReport(e: { kind: WorkKind; place: WorkPlace; max: number }, of: "plan" | "call" = "plan"): Report {
  const messageId = `work${e.kind.charAt(0).toUpperCase()}${e.kind.slice(1)}`;
  const whose = e.place.step === undefined ? `The ${of}'s` : `Step ${e.place.step}: the ${of}'s`;
  return { at: e.place.at, ...(e.place.step === undefined ? {} : { step: e.place.step }), messageId, data: { whose, max: e.max } };
}
