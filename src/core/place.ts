/**
 * Where in a plan a shape problem is, what shape a value must have, and why a path is refused, as data.
 * Dialects, the path service and the host profiles report these; messages word them through `{{what}}`,
 * `{{expected}}` and `{{why}}` (formatMessage calls wordOf). The words of every place, shape and path
 * reason are here, once, for all the rules that name them (invalid-type, missing-field, unknown-key,
 * empty-plan, step-numbering, limit-exceeded, path-outside-workspace, scope-mismatch, unknown-tool), as
 * typeName's are for value types.
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

/** Why a path can never be a safe path inside the workspace (or the approved scope), by id. */
const PATH_WHY = {
  undecodable: "percent-encodes bytes that are not valid UTF-8 (an overlong form such as %c0%af for /), which decoders read differently",
  tooNested: "is nested more than {{max}} levels deep in the arguments, too deep to check",
  tooLong: "is {{length}} characters long, longer than the {{max}} of any path a system opens",
  encodedThrice: "is percent-encoded three or more times (%25252e…), which executors decode a different number of times",
  nul: "holds a NUL byte, which cuts the path short for C-based executors",
  control: "holds control characters",
  tilde: "starts with ~, which a shell expands to a home folder outside the workspace",
  unc: "is a network (UNC) path",
  drive: "is a Windows drive path",
  percentU: "holds a %uXXXX escape, which some servers decode to any character",
  lookalike: 'holds {{code}}, a look-alike of "/", "\\" or "." that some executors read as the real one',
  dotNames: "has a name of dots and spaces, which Windows reads as . or ..",
  resolvesTo: "resolves to {{path}}",
  symlinkLoop: "goes through a symlink loop",
  foldUnlisted: "is missing as written, in a folder ({{folder}}) that holds more than {{max}} entries or cannot be listed, so whether a file system that ignores case or Unicode normalization (macOS, Windows) opens another entry for it, a symlink perhaps, could not be checked; name it as such a file system would (lower case, no trailing dots or spaces) or put it in a smaller folder",
  linksUnwalked: "goes through a symlink after the plan's paths had read {{max}} names from symlinks' targets, more than plangate follows in one validation",
  pathsUnresolved: "was not resolved: the plan's paths before it had passed {{max}} units of distinct paths, more than plangate resolves in one validation",
  throughSymlink: "resolves through a symlink to {{path}}",
  hardLink: "is a hard link (the file has {{links}} names, which may be outside the workspace), so writing it changes the file under every name",
  empty: "is empty",
  url: "is a URL, not a file path",
  backslash: "holds a backslash, which Windows reads as a separator and POSIX as part of a name",
  dotDot: 'holds "..", which a symlink can send anywhere; write the plain path',
  outsideScope: "is outside the approved scope {{root}}",
  outsideScopeUnread: "is outside the approved scope",
  notString: "is not a string",
  enumNotPath: "lists {{value}}, which is not a path",
  enumOutside: "lists {{path}}, which {{why}}",
  globControl: "holds a control character",
  globBackslash: "holds a backslash, which glob libraries read as an escape and Windows as a separator",
  globAbsolute: "is absolute, starts from ~ or a drive, or starts with a character class, so it can match outside the folder it searches",
  globDotDot: 'climbs out of the folder it searches with ".."',
  patternMatch: "is a pattern that matches {{path}}, which {{why}}",
  patternUnbounded: "is a pattern with more matches than plangate looks through, or one in a folder it cannot list",
  // The host's working folder, when it is not the approved scope ({{cwd}} below is one of these three).
  cwdUnknown: "the host did not say",
  cwdInsideScope: "is {{folder}}, a folder inside the approved scope {{root}} but not the scope itself",
  cwdOutsideScope: "is {{folder}}, outside the approved scope {{root}}",
  relativeElsewhere: "is relative, and the host resolves it against its working folder, which {{cwd}}; give the absolute path",
  commandElsewhere: "runs in the host's working folder, which {{cwd}}, not where the plan's commands were checked",
  absentElsewhere: "is left out, so the host uses its working folder, which {{cwd}}",
} as const;

export type PathWhyId = keyof typeof PATH_WHY;

/** Why a path is refused, as message data (`{{why}}`). */
export interface PathWhy {
  readonly kind: "why";
  readonly why: PathWhyId;
  readonly data?: Readonly<Record<string, string | number | PathWhy>>;
}

export function why(id: PathWhyId, data?: PathWhy["data"]): PathWhy {
  return data === undefined ? { kind: "why", why: id } : { kind: "why", why: id, data };
}

/** Is the value a PathWhy (one read back from JSON included)? */
export function isPathWhy(v: unknown): v is PathWhy {
  return typeof v === "object" && v !== null && (v as PathWhy).kind === "why" && Object.hasOwn(PATH_WHY, (v as PathWhy).why);
}

const FILL = /\{\{(\w+)\}\}/g;

export function pathWhyWords(w: PathWhy): string {
  const template: string = PATH_WHY[w.why];
  const data = w.data;
  return data === undefined ? template : template.replace(FILL, (whole, name: string) => (Object.hasOwn(data, name) ? wordOf(data[name]!) : whole));
}

/** The words of a message placeholder's value. */
export function wordOf(v: string | number | boolean | bigint | Place | Shape | PathWhy): string {
  if (typeof v !== "object") return String(v);
  return v.kind === "shape" ? shapeWords(v) : v.kind === "why" ? pathWhyWords(v) : placeWords(v);
}
