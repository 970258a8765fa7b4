import type { Step } from "./plan.js";
import type { Pointer } from "./pointer.js";

/*
 * What a dialect keeps in `step.extra` for the rules that read it: the contract between a dialect and its
 * rules, so a rule reads a step without reaching into the dialect that built it.
 */

/** One FIND/REPLACE pair of an EDIT; either side may be missing (the rules report it). */
export interface EditPair {
  find?: string;
  replace?: string;
  /** Pointer to the pair (its first heading). */
  at: Pointer;
}

/** What the teddy dialect keeps of an action, in `step.extra`. */
export interface TeddyAction {
  type: string;
  known: boolean;
  /** The metadata key the path came from ("File Path" or "Resource"), as written. */
  pathKey?: string;
  /** Pointer to the path's value, for diagnostics. */
  pathAt?: Pointer;
  path?: string;
  url?: string;
  content?: string;
  edits: EditPair[];
  overwrite: boolean;
  matchAll: boolean;
}

/** The action of a step, if the step came from the teddy dialect. */
export function actionOf(step: Step): TeddyAction | undefined {
  const a = step.extra?.action;
  return a && typeof a === "object" ? (a as TeddyAction) : undefined;
}

/** What the step-numbering rule needs: the number the step declares and where. */
export type IkomaStepExtra = {
  number?: number;
  numberAt: Pointer;
};
