import { canonicalJson } from "./canonical/jcs.js";
import { globMatcher } from "./glob.js";
import { pathGlobMatcher } from "./path-glob.js";
import { compileSafePattern, regexTooSlow, type SafePattern } from "./regex.js";
import type { PlanFacts } from "./facts.js";
import type { Plan } from "./plan.js";

/** A `$`, a look-alike of it, or an escape sequence (JSON `\u0024`, YAML `\x24`) that may spell one. */
export const MAY_HOLD_DOLLAR = /[$\uFF04\uFE69]|\\[uxU]/;
const DOLLAR_SCAN = Symbol("may-hold-dollar");

/**
 * Whether the plan's text may hold an argument constraint (a `$`, a look-alike or an escape that may spell
 * one): most plans have none, and the rules that read constraints then walk nothing. The text is scanned
 * once per validation, whichever rule asks first.
 */
export function mayHoldDollar(plan: Plan, facts: PlanFacts): boolean {
  return facts.derive(DOLLAR_SCAN, plan, () => mayHoldDollarText(plan.source.text));
}

/** MAY_HOLD_DOLLAR's test, by native searches for single characters (several times faster on a plan's text). */
export function mayHoldDollarText(t: string): boolean {
  if (t.indexOf("$") >= 0 || t.indexOf("\uFF04") >= 0 || t.indexOf("\uFE69") >= 0) return true;
  for (let i = t.indexOf("\\"); i >= 0; i = t.indexOf("\\", i + 1)) {
    const c = t.charCodeAt(i + 1);
    if (c === 0x75 || c === 0x78 || c === 0x55) return true; // u x U
  }
  return false;
}

/*
 * Argument constraints: a plan step (intake, iKOMA) may give an argument a constraint object with one `$`
 * key instead of a literal value, when the policy allows it (`plan.constraints: allow`). The guard then
 * matches a call's argument against the constraint; validation judges the constraint by its worst case.
 *
 *   {"$glob": "tests/**\/*.py"}   a path (workspace-relative, normalised; linear-time, src/core/path-glob.ts) or string matching the glob
 *   {"$regex": "…"}               a full match, by a linear-time engine (RE2)
 *   {"$enum": [v1, v2]}           one of the values (canonical JSON equality)
 *   {"$schema": {…}}              a value the JSON Schema accepts
 *   {"$any": true}                any value
 *   {"$literal": v}               the value v itself (escapes a real value that is an object with a `$` key)
 */

/** The constraint kinds, by their key. */
export const CONSTRAINT_KEYS = ["$glob", "$regex", "$enum", "$schema", "$any"] as const;
export type ConstraintKey = (typeof CONSTRAINT_KEYS)[number];
export const LITERAL_KEY = "$literal";

export type Constraint =
  | { kind: "$glob"; pattern: string }
  | { kind: "$regex"; pattern: string }
  | { kind: "$enum"; values: readonly unknown[] }
  | { kind: "$schema"; schema: unknown }
  | { kind: "$any" };

/** How one argument value reads: a literal (a `$literal` unwrapped), a constraint, or why it is neither. */
export type ArgumentReading = { literal: unknown } | { constraint: Constraint } | { error: string };

/** Is the value an object any of whose keys starts with `$` (a constraint, a `$literal`, or a mistake)? */
export function isDollarObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return false;
  // Own keys only, as JSON has them: an inherited `$` key (a prototype set in code) is no constraint.
  const keys = Object.keys(v);
  for (let i = 0; i < keys.length; i++) if (keys[i]!.startsWith("$")) return true;
  return false;
}

/** Longest glob or regex source a constraint may have. */
export const MAX_CONSTRAINT_PATTERN = 1024;

/**
 * Reads one argument value. Any object with a `$` key must be exactly one constraint or a `$literal`:
 * `{"$glob": …, "other": 1}`, an unknown `$key` or a malformed operand is an error (never a literal),
 * so the validator and the guard cannot read one value two ways.
 */
export function readArgument(v: unknown): ArgumentReading {
  if (!isDollarObject(v)) return { literal: v };
  const keys = Object.keys(v);
  if (keys.length !== 1) return { error: `an object with a "$" key is a constraint and has exactly one key, not ${keys.length} (${keys.slice(0, 4).map((k) => JSON.stringify(k)).join(", ")})` };
  const key = keys[0]!;
  const operand = v[key];
  switch (key) {
    case LITERAL_KEY:
      return { literal: operand };
    case "$glob":
    case "$regex":
      if (typeof operand !== "string" || operand === "") return { error: `${key} takes a non-empty string` };
      if (operand.length > MAX_CONSTRAINT_PATTERN) return { error: `the ${key} pattern is over ${MAX_CONSTRAINT_PATTERN} characters` };
      return { constraint: { kind: key, pattern: operand } };
    case "$enum":
      if (!Array.isArray(operand) || operand.length === 0) return { error: "$enum takes a non-empty array of values" };
      return { constraint: { kind: "$enum", values: operand } };
    case "$schema":
      if (operand === null || (typeof operand !== "object" && typeof operand !== "boolean") || Array.isArray(operand)) return { error: "$schema takes a JSON Schema (an object)" };
      return { constraint: { kind: "$schema", schema: operand } };
    case "$any":
      if (operand !== true) return { error: "$any takes the value true" };
      return { constraint: { kind: "$any" } };
    default:
      return { error: `"${key}" is not a constraint (${[...CONSTRAINT_KEYS, LITERAL_KEY].join(", ")}); to pass a real value with a "$" key, wrap it as {"$literal": …}` };
  }
}

/** The literal value with every `$literal` wrapper removed (at any depth), as a call would carry it. */
export function unwrapLiterals(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  if (Array.isArray(v)) return v.map(unwrapLiterals);
  const r = readArgument(v);
  if ("literal" in r && r.literal !== v) return r.literal;
  const out: Record<string, unknown> = {};
  // An own `__proto__` key stays a key (plain assignment would set the prototype and drop it).
  for (const [k, x] of Object.entries(v))
    if (k === "__proto__") Object.defineProperty(out, k, { value: unwrapLiterals(x), writable: true, enumerable: true, configurable: true });
    else out[k] = unwrapLiterals(x);
  return out;
}

/** What a value is matched as: a path (normalised workspace-relative) or a command line (each simple command). */
export interface ValueContext {
  /** The argument names a file: globs are path globs (src/core/path-glob.ts, dot files matched) on the normalised relative path. */
  path?: boolean;
  /**
   * The argument is a command line: a constraint must hold for each simple command the shell would run.
   * Returns those commands' texts, or undefined when the line cannot be read (then nothing matches).
   */
  simpleCommands?: (line: string) => readonly string[] | undefined;
  /** Checks a value against a JSON Schema (`$schema`); absent: `$schema` matches nothing. */
  schema?: (schema: unknown, value: unknown) => boolean;
}

const compiled = new Map<string, { test(s: string): boolean }>();

function cached(key: string, make: () => { test(s: string): boolean }): { test(s: string): boolean } {
  let m = compiled.get(key);
  if (!m) {
    if (compiled.size > 512) compiled.clear();
    m = make();
    compiled.set(key, m);
  }
  return m;
}

export { MAX_REGEX_STEPS } from "./regex.js";

/** A `$regex` as a full-match test in linear time; a pattern RE2 cannot run matches nothing, nor does a value it would take too long on. */
function regexTest(pattern: string): { test(s: string): boolean } {
  return cached("r" + pattern, () => {
    const p: SafePattern = compileSafePattern(`^(?:${pattern})$`);
    if ("error" in p) return { test: () => false };
    return { test: (s: string) => !regexTooSlow(p, s.length) && p.test(s) };
  });
}

/** A `$glob` on a path: linear-time (RE2), dot files matched, on the workspace-relative path. */
function pathGlobTest(pattern: string): { test(s: string): boolean } {
  const m = pathGlobMatcher(pattern);
  return "error" in m ? { test: () => false } : m;
}

/** A `$glob` on other text (a command): `*` is any run of characters, `?` one. */
function textGlobTest(pattern: string): { test(s: string): boolean } {
  return cached("t" + pattern, () => globMatcher(pattern));
}

function matchOne(c: Constraint, actual: unknown, ctx: ValueContext, asPath: boolean): boolean {
  switch (c.kind) {
    case "$any":
      return true;
    case "$enum": {
      const a = canonicalOrUndefined(actual);
      return a !== undefined && c.values.some((v) => canonicalOrUndefined(unwrapLiterals(v)) === a);
    }
    case "$schema":
      return ctx.schema ? ctx.schema(c.schema, actual) : false;
    case "$regex":
      return typeof actual === "string" && (!asPath || isPlainRelativePath(actual)) && regexTest(c.pattern).test(actual);
    case "$glob":
      if (typeof actual !== "string") return false;
      if (asPath) return isPlainRelativePath(actual) && pathGlobTest(c.pattern).test(actual);
      return textGlobTest(c.pattern).test(actual);
  }
}

/**
 * A path a `$glob` may match: workspace-relative and normalised. An absolute path, `~`, a drive, a
 * backslash, an empty, `.` or `..` segment, or a control character never matches (fail closed: the
 * caller normalises the call's path against the workspace first).
 */
export function isPlainRelativePath(p: string): boolean {
  if (p === "" || p.startsWith("/") || p.startsWith("~") || /^[A-Za-z]:/.test(p) || p.includes("\\") || /[\u0000-\u001f\u007f]/.test(p)) return false;
  return p.split("/").every((seg) => seg !== "" && seg !== "." && seg !== "..");
}

/**
 * Characters that make a simple command more than a program and its words: redirections, pipes, lists,
 * substitutions, subshells, braces, here-documents, quoting that hides them. A `$glob` or `$regex` on a
 * command never matches a simple command holding one (write such a command literally instead).
 */
export const COMMAND_OPERATORS = /[;&|<>()`$\\{}\n\r]/;

function canonicalOrUndefined(v: unknown): string | undefined {
  try {
    return canonicalJson(v ?? null);
  } catch {
    return undefined;
  }
}

/**
 * Does a call's value satisfy the plan's value (a literal, or a constraint)? Literals compare as
 * canonical JSON. A constraint on a command line must hold for every simple command in it.
 */
export function matchArgument(expected: unknown, actual: unknown, ctx: ValueContext = {}): boolean {
  const r = readArgument(expected);
  if ("error" in r) return false;
  if ("literal" in r) {
    const a = canonicalOrUndefined(actual);
    return a !== undefined && a === canonicalOrUndefined(unwrapLiterals(r.literal));
  }
  const c = r.constraint;
  if (ctx.simpleCommands && c.kind !== "$any") {
    if (typeof actual !== "string") return false;
    // An $enum of command lines names whole lines, each checked as a command by validation.
    if (c.kind === "$enum") return matchOne(c, actual, ctx, false);
    if (c.kind === "$schema") return matchOne(c, actual, ctx, false);
    const commands = ctx.simpleCommands(actual);
    return (
      commands !== undefined &&
      commands.length > 0 &&
      commands.every((cmd) => !COMMAND_OPERATORS.test(cmd) && matchOne(c, cmd, ctx, false))
    );
  }
  return matchOne(c, actual, ctx, ctx.path === true);
}

/** The three ways a value is read, with the same checkers validation uses. */
export interface ValueContexts {
  /** Any other argument: `$schema` checked by ajv (patterns on RE2). */
  value: ValueContext;
  /** A path argument (normalised workspace-relative by the caller). */
  path: ValueContext;
  /** A command line: each simple command (src/commands/analyse.ts `simpleCommandsOf`; the default set is src/commands/value-contexts.ts). */
  command: ValueContext;
}
