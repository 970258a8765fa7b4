/**
 * Where in a plan a shape problem is, and what shape a value must have, as data. Dialects report these;
 * messages word them through `{{what}}` and `{{expected}}` (formatMessage calls wordOf). The words of every
 * place and shape are here, once, for all the rules that name them (invalid-type, missing-field,
 * unknown-key, empty-plan, step-numbering, limit-exceeded), as typeName's are for value types.
 */

/** The plan as a whole, or a part of it a dialect names as such. */
export type DocumentPart = "plan" | "planObject" | "envelope" | "scqcEnvelope" | "ikomaPlan" | "intakePlan" | "actionPlan";

export type Place =
  /** A step (`nested`: the 1-based position in its parent's nested steps), or one of its fields or citations. */
  | { readonly kind: "step"; readonly step: number; readonly nested?: number; readonly field?: string; readonly citation?: number }
  /** A member of the plan's root object. */
  | { readonly kind: "member"; readonly name: string }
  | { readonly kind: "document"; readonly part: DocumentPart };

export type StepPlace = Extract<Place, { kind: "step" }>;

/** Largest `repeat` of a step. */
export const MAX_REPEAT = 1000;

const DOCUMENT_WORDS: Readonly<Record<DocumentPart, string>> = {
  plan: "The plan",
  planObject: "The plan object",
  envelope: "The envelope",
  scqcEnvelope: "A scQC envelope",
  ikomaPlan: "An iKOMA plan",
  intakePlan: "An intake plan",
  actionPlan: "The `## Action Plan`",
};

/** The shapes a value must have, by id. */
const SHAPE_WORDS = {
  string: "a string",
  nonEmptyString: "a non-empty string",
  object: "an object",
  boolean: "true or false",
  jsonObject: "a JSON object",
  stepList: "a list of steps",
  positiveInteger: "a positive integer",
  positiveIntegers: "a list of positive integers",
  subagentSteps: "a non-empty list of the steps the subagent runs",
  folder: "a folder path (a string)",
  sentence: "a sentence (a string)",
  seconds: "a positive number of seconds",
  repeatCount: `an integer from 1 to ${MAX_REPEAT}`,
  versionString: 'a string such as "1.0"',
  sha256: "a hex SHA-256 string",
  scqcStep: 'an object with a "tool" field',
  ikomaPlan: 'a JSON object {"plan": […], "reasoning": "…"}',
  ikomaStep: 'an object {"step", "tool_name", "args", "description"}',
  intakePlan: 'an object with a "steps" list',
  intakeStep: "an object {tool, arguments, intent}",
} as const;

export type ShapeId = keyof typeof SHAPE_WORDS;

/** A shape a value must have, as message data. */
export interface Shape {
  readonly kind: "shape";
  readonly shape: ShapeId;
}

export const place = {
  step: (step: number, nested?: number): StepPlace => (nested === undefined ? { kind: "step", step } : { kind: "step", step, nested }),
  member: (name: string): Place => ({ kind: "member", name }),
  document: (part: DocumentPart): Place => ({ kind: "document", part }),
};

/** A field of a step (`Step 2: "tool"`); of any other place, the member itself. */
export function fieldOf(p: Place, field: string): Place {
  return p.kind === "step" ? { ...p, field } : { kind: "member", name: field };
}

/** A citation of a step (`Step 2: citation 3`). */
export function citationOf(p: StepPlace, citation: number): Place {
  return { ...p, citation };
}

export function shape(id: ShapeId): Shape {
  return { kind: "shape", shape: id };
}

export function placeWords(p: Place): string {
  switch (p.kind) {
    case "step": {
      const step = p.nested === undefined ? `Step ${p.step}` : `Step ${p.step}, nested step ${p.nested}`;
      if (p.field !== undefined) return `${step}: "${p.field}"`;
      return p.citation !== undefined ? `${step}: citation ${p.citation}` : step;
    }
    case "member":
      return `"${p.name}"`;
    case "document":
      return DOCUMENT_WORDS[p.part];
  }
}

export function shapeWords(s: Shape): string {
  return SHAPE_WORDS[s.shape];
}

/** The words of a message placeholder's value. */
export function wordOf(v: string | number | boolean | bigint | Place | Shape): string {
  if (typeof v !== "object") return String(v);
  return v.kind === "shape" ? shapeWords(v) : placeWords(v);
}
