import { type Constraint, isDollarObject, LITERAL_KEY, readArgument } from "../core/constraints.js";
import { pathGlobMatcher } from "../core/path-glob.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import type { Step } from "../core/plan.js";
import { compileSafePattern } from "../core/regex.js";
import { holdsCommandLine, keyName } from "./plan.js";
import { replaceBracketed } from "../core/text.js";
import type { WorkMeter } from "../core/work.js";

/*
 * Where argument constraints may stand, and how validation reads them (the guard reads them with
 * readArgument/matchArgument, the same functions): a constraint is a whole top-level argument value. Deeper
 * in a value (inside an object, a list, an `$enum` member), an object with a `$` key must be a
 * `{"$literal": …}`, whose operand is the literal value (itself read the same way by unwrapLiterals).
 */

/** Arguments that name a program (the first word of an argument vector). */
export const PROGRAM_KEYS = new Set(["program", "executable"]);

/** One top-level constrained argument of a step. */
export interface StepConstraint {
  key: string;
  at: Pointer;
  constraint: Constraint;
}

/** What can be wrong with a `$` object: the id of argument-constraint's message for it. */
export type ConstraintMessageId =
  | "invalidConstraint"
  | "unusableRegex"
  | "unreadableGlob"
  | "enumTooLarge"
  | "unusableSchema"
  | "schemaCheckerNotLoaded"
  | "invalidNestedConstraint"
  | "nestedConstraint"
  | "lookalikeKey";

/** What is wrong with a `$` object somewhere in a step's arguments: the message's id and its data. */
export interface ConstraintProblem {
  at: Pointer;
  messageId: ConstraintMessageId;
  data: Readonly<Record<string, string | number>>;
}

/** Keys that look like `$` to a reader but are not (fullwidth ＄, small ﹩, and invisible prefixes). */
const LOOKALIKE_DOLLAR = /^[\uFF04\uFE69\u200B-\u200D\u2060\uFEFF\u00AD]*[\uFF04\uFE69]|^[\u200B-\u200D\u2060\uFEFF\u00AD]+\$/;

/** Is the argument a command line or a program? */
export function isCommandKey(key: string): boolean {
  const k = keyName(key);
  return holdsCommandLine(k) || PROGRAM_KEYS.has(k);
}

/** Most `$glob` and `$regex` constraints a plan may hold, and most characters of them in all. */
export const MAX_PATTERNS = 1000;
export const MAX_PATTERN_CHARS = 64 * 1024;

/**
 * The first `$glob` or `$regex` constraint past the plan's bound on patterns (their number or their length
 * in all, nested steps included), or undefined. Each pattern is searched for a path it admits (a protected
 * file, a file outside the workspace): 0.3 ms for a short one, 3 ms for a KiB of classes and stars, so 10,000
 * patterns, or a MiB of them, took seconds.
 */
export function patternsPastBound(steps: readonly Step[]): { at: Pointer; count: number; chars: number } | undefined {
  const seen = { count: 0, chars: 0 };
  // Indexed loops: this runs on every plan before its rules, often in code V8 has not optimised yet,
  // where for-of over arrays (and an array made per step) allocates.
  for (let i = 0; i < steps.length; i++) {
    const top = steps[i]!;
    const over = stepPatternsPastBound(top, seen);
    if (over) return over;
    const substeps = top.substeps;
    if (substeps)
      for (let j = 0; j < substeps.length; j++) {
        const nested = stepPatternsPastBound(substeps[j]!, seen);
        if (nested) return nested;
      }
  }
  return undefined;
}

const PATTERN_KINDS = ["$glob", "$regex"] as const;

/** patternsPastBound for one step's arguments, counting into `seen`. */
function stepPatternsPastBound(step: Step, seen: { count: number; chars: number }): { at: Pointer; count: number; chars: number } | undefined {
  const keys = Object.keys(step.args);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    // Malformed ones too (a pattern over 1,024 characters is refused, and still searched as a glob).
    const value = step.args[key];
    if (!isDollarObject(value)) continue;
    for (let n = 0; n < PATTERN_KINDS.length; n++) {
      const kind = PATTERN_KINDS[n]!;
      const pattern = (value as Record<string, unknown>)[kind];
      if (!Object.hasOwn(value, kind) || typeof pattern !== "string") continue;
      seen.count++;
      seen.chars += pattern.length;
      if (seen.count > MAX_PATTERNS || seen.chars > MAX_PATTERN_CHARS) return { at: childPointer(childPointer(step.argsAt, key), kind), count: seen.count, chars: seen.chars };
    }
  }
  return undefined;
}

/** The top-level constraints of a step's arguments (well-formed ones only). */
export function stepConstraints(step: Step): StepConstraint[] {
  const out: StepConstraint[] = [];
  const keys = Object.keys(step.args);
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k]!;
    const value = step.args[key];
    if (!isDollarObject(value)) continue;
    const r = readArgument(value);
    if ("constraint" in r) out.push({ key, at: childPointer(step.argsAt, key), constraint: r.constraint });
  }
  return out;
}

/**
 * Every problem with the `$` objects of a step's arguments when constraints are allowed: a malformed
 * constraint, a pattern or schema that cannot be compiled, a `$` object where only `$literal` may stand,
 * a look-alike of `$`.
 */
export function constraintProblems(
  step: Step,
  loadSchema: ((schema: unknown) => string | undefined) | undefined,
  isPathKey: (key: string) => boolean = () => false,
): ConstraintProblem[] {
  const out: ConstraintProblem[] = [];
  for (const [key, value] of Object.entries(step.args)) {
    const at = childPointer(step.argsAt, key);
    if (!isDollarObject(value)) {
      deeper(value, at, 0, out);
      continue;
    }
    const r = readArgument(value);
    if ("error" in r) {
      out.push({ at, messageId: "invalidConstraint", data: { key, error: r.error } });
      continue;
    }
    if ("literal" in r) {
      literalOperand(r.literal, childPointer(at, LITERAL_KEY), out);
      continue;
    }
    const c = r.constraint;
    const opAt = childPointer(at, c.kind);
    switch (c.kind) {
      case "$regex": {
        const p = compileSafePattern(`^(?:${c.pattern})$`);
        if ("error" in p) out.push({ at: opAt, messageId: "unusableRegex", data: { key, error: p.error } });
        break;
      }
      case "$glob": {
        const m = isPathKey(key) ? pathGlobMatcher(c.pattern) : undefined;
        if (m && "error" in m) out.push({ at: opAt, messageId: "unreadableGlob", data: { key, error: m.error } });
        break;
      }
      case "$enum":
        if (c.values.length > 1000) out.push({ at: opAt, messageId: "enumTooLarge", data: { key, count: c.values.length } });
        c.values.forEach((m, i) => deeper(m, childPointer(opAt, i), 0, out));
        break;
      case "$schema": {
        if (!loadSchema) {
          out.push({ at: opAt, messageId: "schemaCheckerNotLoaded", data: { key } });
          break;
        }
        const why = loadSchema(c.schema);
        if (why) out.push({ at: opAt, messageId: "unusableSchema", data: { key, why } });
        break;
      }
      case "$any":
        break;
    }
  }
  return out;
}

/** Inside a value: only `{"$literal": …}` may have a `$` key; a look-alike `$` key is refused too. */
function deeper(value: unknown, at: Pointer, depth: number, out: ConstraintProblem[]): void {
  if (depth > 64 || value === null || typeof value !== "object" || out.length > 50) return;
  if (Array.isArray(value)) {
    value.forEach((v, i) => deeper(v, childPointer(at, i), depth + 1, out));
    return;
  }
  if (isDollarObject(value)) {
    const r = readArgument(value);
    if ("literal" in r) literalOperand(r.literal, childPointer(at, LITERAL_KEY), out);
    else
      out.push("error" in r ? { at, messageId: "invalidNestedConstraint", data: { error: r.error } } : { at, messageId: "nestedConstraint", data: { kind: r.constraint.kind } });
    return;
  }
  lookalikes(value, at, out);
  for (const [k, v] of Object.entries(value)) deeper(v, childPointer(at, k), depth + 1, out);
}

/** A `$literal` operand is the value itself; only look-alike `$` keys inside it are refused. */
function literalOperand(value: unknown, at: Pointer, out: ConstraintProblem[], depth = 0): void {
  if (depth > 64 || value === null || typeof value !== "object" || out.length > 50) return;
  if (Array.isArray(value)) value.forEach((v, i) => literalOperand(v, childPointer(at, i), out, depth + 1));
  else {
    lookalikes(value, at, out);
    for (const [k, v] of Object.entries(value)) literalOperand(v, childPointer(at, k), out, depth + 1);
  }
}

function lookalikes(value: object, at: Pointer, out: ConstraintProblem[]): void {
  for (const k of Object.keys(value))
    if (LOOKALIKE_DOLLAR.test(k))
      out.push({ at: childPointer(at, k), messageId: "lookalikeKey", data: { key: k } });
}

/** Top-level look-alike keys in step arguments (also checked when constraints are refused). */
export function lookalikeProblems(step: Step): ConstraintProblem[] {
  const out: ConstraintProblem[] = [];
  for (const [key, value] of Object.entries(step.args)) if (value !== null && typeof value === "object" && !isDollarObject(value)) deeperLookalikes(value, childPointer(step.argsAt, key), 0, out);
  return out;
}

function deeperLookalikes(value: unknown, at: Pointer, depth: number, out: ConstraintProblem[]): void {
  if (depth > 64 || value === null || typeof value !== "object" || out.length > 50) return;
  if (Array.isArray(value)) value.forEach((v, i) => deeperLookalikes(v, childPointer(at, i), depth + 1, out));
  else {
    lookalikes(value, at, out);
    for (const [k, v] of Object.entries(value)) deeperLookalikes(v, childPointer(at, k), depth + 1, out);
  }
}

/** Every `$` object (not `$literal`) anywhere in a step's arguments: what `plan.constraints: refuse` reports. */
export function dollarObjects(step: Step): { at: Pointer; key: string }[] {
  const out: { at: Pointer; key: string }[] = [];
  const visit = (v: unknown, at: Pointer, depth: number) => {
    if (depth > 64 || v === null || typeof v !== "object" || out.length > 50) return;
    if (Array.isArray(v)) return v.forEach((x, i) => visit(x, childPointer(at, i), depth + 1));
    if (isDollarObject(v)) {
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === LITERAL_KEY) return;
      out.push({ at, key: keys.find((k) => k.startsWith("$"))! });
      return;
    }
    for (const [k, x] of Object.entries(v)) visit(x, childPointer(at, k), depth + 1);
  };
  visit(step.args, step.argsAt, 0);
  return out;
}

/** Instances of a glob: its wildcards filled with each of the fills (`**` also with nothing). */
function instances(glob: string, fills: readonly string[]): string[] {
  const out = new Set<string>();
  const fillClass = (body: string) => (body.startsWith("!") || body.startsWith("^") ? "x" : (body.replace(/\\/g, "")[0] ?? "x"));
  // Brace alternatives, innermost first, at most 32 spellings in all (a hostile glob has many groups).
  const expandBraces = (glob0: string): string[] => {
    let todo = [glob0];
    const done: string[] = [];
    while (todo.length > 0 && done.length < 32) {
      const next: string[] = [];
      for (const g of todo) {
        const m = /\{([^{}]*)\}/.exec(g);
        if (!m) done.push(g);
        else for (const alt of m[1]!.split(",").slice(0, 8)) if (next.length < 64) next.push(g.slice(0, m.index) + alt + g.slice(m.index + m[0].length));
      }
      todo = next;
    }
    return done.slice(0, 32);
  };
  for (const g of expandBraces(glob)) {
    const cleaned = replaceBracketed(g, fillClass).replace(/[@!+]\(([^)]*)\)/g, (_, b: string) => b.split("|")[0] ?? "x");
    for (const f of fills) {
      const seg = f.split("/").pop() ?? f;
      out.add(cleaned.replace(/\*\*\/?/g, (m) => (f === "" ? "" : f + (m.endsWith("/") ? "/" : ""))).replace(/\*/g, seg).replace(/\?/g, seg[0] ?? "x"));
      out.add(cleaned.replace(/\*\*\/?/g, "").replace(/\*/g, seg).replace(/\?/g, seg[0] ?? "x"));
    }
  }
  return [...out];
}

/** The names a witness is made of, from the protected globs' own names: once per list of globs. */
const FILLS = new WeakMap<readonly string[], readonly string[]>();
function fillsOf(protectedGlobs: readonly string[]): readonly string[] {
  let fills = FILLS.get(protectedGlobs);
  if (fills !== undefined) return fills;
  const names = new Set<string>(["x", ""]);
  for (const p of protectedGlobs) {
    const segs = p.replace(/^\/+/, "").split("/").filter((s) => s !== "**" && s !== "");
    for (let i = 0; i < segs.length; i++) {
      const s = replaceBracketed(segs[i]!, (b) => b[0] ?? "x").replace(/\{([^{},]*)[^{}]*\}/g, "$1").replace(/[*?]/g, "x");
      names.add(s);
      if (i + 1 < segs.length) names.add(s + "/x");
    }
    if (names.size >= 200) break;
  }
  fills = [...names].slice(0, 200);
  FILLS.set(protectedGlobs, fills);
  return fills;
}

/**
 * Can a path glob match a path a protected glob matches? A witness search both ways: the glob's wildcards
 * filled with the protected globs' names and folders, and the protected globs' wildcards filled with the
 * glob's literal folder and names. Returns the witness path, or undefined.
 */
export function globReachesProtected(glob: string, protectedGlobs: readonly string[], isProtected: (path: string) => boolean, meter?: WorkMeter): string | undefined {
  // Each witness tried costs a test against every protected glob, and each constraint tries some for
  // every protected glob: the work is constraints x globs^2 (1,000 $glob writers under 4,000 protected
  // globs took 6 s). The validation's meter bounds it; past it nothing is tried (the caller reports).
  // A unit is one witness tested against up to 256 protected globs (they are matched 256 to an expression).
  const per = 1 + (protectedGlobs.length >>> 8);
  const take = (n: number) => meter === undefined || (meter.left -= n * per) >= 0;
  if (meter !== undefined && meter.left < 0) return undefined;
  const fills = fillsOf(protectedGlobs);
  // The guard's own matcher, and without case: a case-insensitive file system writes .GIT as .git.
  const m = pathGlobMatcher(glob);
  if ("error" in m) return "";
  const lower = pathGlobMatcher(glob.toLowerCase());
  const match = (p: string) => m.test(p) || m.test(p.toLowerCase()) || (!("error" in lower) && lower.test(p.toLowerCase()));
  // The protected test first: it is one cheap regular expression, where the glob's own matcher builds its
  // states for every witness (a glob of 1024 characters took 25 ms a step).
  const own = instances(glob, fills);
  if (!take(own.length)) return undefined;
  for (const w of own) if (w !== "" && isProtected(w) && match(w)) return w;
  const prefix = glob.split("/").filter((_, i, a) => i < a.length - 1 && !/[*?[{(]/.test(a.slice(0, i + 1).join("/"))).join("/");
  const folders = ["", "x", ...(prefix ? [prefix, prefix + "/x"] : [])];
  const few = [...folders, ...fills.slice(0, 50)];
  for (const p of protectedGlobs) {
    const ws = instances(p, few);
    if (!take(ws.length)) return undefined;
    for (const w of ws) {
      const rel = w.replace(/^\/+/, "");
      if (rel !== "" && isProtected(rel) && match(rel)) return rel;
    }
  }
  return undefined;
}
