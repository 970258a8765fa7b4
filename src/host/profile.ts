import { randomBytes } from "node:crypto";
import { isAbsolute, resolve } from "node:path";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { isDollarObject, LITERAL_KEY, readArgument, type ValueContext } from "../core/constraints.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { HostProfile, HostToolSpec, TeddySource } from "../core/host-profile.js";
import { globMatcher } from "../core/glob.js";
import type { FileProbe } from "../core/file-probe.js";
import { isFileUrl, isInside, normalizeAbsolute, relativeInside, unsafePathReason } from "../core/paths.js";
import type { Plan, Step } from "../core/plan.js";
import { childPointer } from "../core/pointer.js";
import { isPathWhy, type PathWhy, why, wordOf } from "../core/place.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import type { CallInput, ContextFor, ExpectedCall } from "../approval/match.js";
import type { TeddyAction } from "../core/step-extra.js";
import { TEDDY_PARAMS } from "../dialects/teddy/reading.js";

/*
 * A host profile says how an agent host (Claude Code, or a generic executor) calls its tools, so that an
 * approved plan can be compared with the calls the host really makes. Profiles are data: one JSON file
 * per host under profiles/, checked against schemas/host-profile.schema.json.
 */

export type { HostProfile, HostToolSpec, TeddyCall, TeddyMapping, TeddySource } from "../core/host-profile.js";

/** The generic profile: today's exact matching (every key is identity, nothing is normalised). Same as profiles/generic.json. */
export const GENERIC: HostProfile = deepFreeze({
  name: "generic",
  description: "Today's exact matching: every input key is identity, nothing is normalised, no tool is free.",
  tools: {},
  free: [],
});

/**
 * A profile shared by every caller in the process (a built-in, cached) is frozen: code that changed it
 * (`profile.free.push("Bash")`) would change what every later guard allows without changing any hash
 * recorded before.
 */
/** Freezes a value and everything in it (a built-in profile is shared by every caller). */
export function deepFreeze<T>(v: T): T {
  if (v !== null && typeof v === "object" && !Object.isFrozen(v)) {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

/** The profiles shipped in profiles/. */
export const BUILTIN_PROFILES = ["claude-code", "generic"] as const;

/** A profile that cannot be used: the CLI exits 2 with the message. */
export class HostProfileError extends Error {}

/** A profile's identity, recorded in approvals and runs. */
export function profileHash(p: HostProfile): string {
  return "sha256:" + sha256Hex(canonicalJson(p));
}

/** What makes a schema-valid profile inconsistent (a key both incidental and a path, a free tool it does not define…). */
export function profileProblem(p: HostProfile): string | undefined {
  for (const [tool, spec] of Object.entries(p.tools)) {
    const inc = new Set(spec.incidental ?? []);
    for (const k of [...(spec.identity ?? []), ...(spec.paths ?? []), ...(spec.commands ?? []), ...(spec.globs ?? [])])
      if (inc.has(k)) return `tools.${tool}: "${k}" is incidental and also identity, a path, a command or a glob; it can be only one`;
  }
  // Own keys only: "constructor" or "toString" is no tool of the profile, whatever a plain object inherits.
  for (const t of p.free) if (!Object.hasOwn(p.tools, t)) return `free: "${t}" is not one of the profile's tools`;
  for (const [action, m] of Object.entries(p.teddy ?? {})) {
    if (!Array.isArray(m)) continue;
    for (const c of m) {
      const spec = specOf(p, c.tool);
      if (!spec) return `teddy.${action}: "${c.tool}" is not one of the profile's tools`;
      for (const k of Object.keys(c.args)) if (spec.incidental?.includes(k)) return `teddy.${action}: "${k}" is incidental for ${c.tool}, so the plan cannot bind it`;
      const unknown = unknownInput(p, c.tool, Object.keys(c.args));
      if (unknown !== undefined) return `teddy.${action}: "${unknown}" is not one of ${c.tool}'s inputs (${knownInputs(spec).join(", ")})`;
      const usesEach = Object.values(c.args).some((s) => s === "find" || s === "replace" || s === "query");
      if (usesEach && c.each === undefined) return `teddy.${action}: find, replace and query need "each"`;
    }
  }
  return undefined;
}

/** Every input key a tool spec names (identity, incidental, paths, commands, defaults). */
function knownInputs(spec: HostToolSpec): string[] {
  return [...new Set([...(spec.identity ?? []), ...(spec.incidental ?? []), ...(spec.paths ?? []), ...(spec.commands ?? []), ...Object.keys(spec.defaults ?? {})])];
}

/**
 * The first of a plan's keys that a tool whose inputs the profile lists (`identity`) does not have: a
 * plan may not bind it, since the host refuses the call or drops the key (a `cwd` on Claude Code's Bash
 * would be shown to the reviewer and ignored by the host). A call may still carry such a key: it is
 * identity, so it matches no plan step.
 */
function unknownInput(p: HostProfile, tool: string, keys: readonly string[]): string | undefined {
  const spec = specOf(p, tool);
  if (!spec?.identity) return undefined;
  const known = new Set(knownInputs(spec));
  return keys.find((k) => !known.has(k));
}

/** The tool's spec, or undefined for a tool the profile does not describe (every key identity). */
function specOf(p: HostProfile, tool: string): HostToolSpec | undefined {
  return Object.hasOwn(p.tools, tool) ? p.tools[tool] : undefined;
}

/** Is the tool one of the host's (always, for a profile without tools: generic)? */
export function isHostTool(p: HostProfile, tool: string): boolean {
  if (Object.keys(p.tools).length === 0) return true;
  return Object.hasOwn(p.tools, tool) || (p.toolPatterns ?? []).some((g) => globMatcher(g).test(tool));
}

/** The names and patterns a profile's tools give as an allow list (none for generic). */
export function profileAllowList(p: HostProfile): string[] {
  return [...Object.keys(p.tools), ...(p.toolPatterns ?? [])];
}

// ---------------------------------------------------------------------------------------------------
// Paths

/** A path read against the scope: its workspace-relative normalised form, or why it cannot match. */
export type ScopedPath = { rel: string } | { outside: PathWhy };

/** Marks a path value that can never match: a fresh random nonce per call, so no plan value can equal it. */
export const OUTSIDE_PREFIX = "\u0000outside the approved scope";

/** Is the value a path outside the approved scope (callIdentity's replacement)? */
export function isOutsideMarker(v: unknown): v is string {
  return typeof v === "string" && v.startsWith(OUTSIDE_PREFIX);
}

/**
 * Reads a path against the approved scope (an absolute, normalised real path), as both the plan's
 * values and the host's calls are read: `./a//b/` is `a/b`, an absolute path inside the scope is its
 * relative form. Refused, so that it never matches: NUL and control characters, `~`, drive and UNC
 * paths, backslashes (a separator on Windows, a name character on POSIX), `..` (a symlink can send it
 * anywhere, and lexically it may climb out), URLs (`file:` included: the host reads no URL as a path),
 * and anything outside the scope. A scope reached through a symlink (`/home/u/proj` → `/data/proj`)
 * is recognised by resolving the path's ancestors; symlinks inside the scope are not resolved here
 * (the guard resolves each call's paths again on the file system when it runs). Links whose target
 * depends on the process that reads them (`/proc/self/cwd`, `/proc/<pid>/root`, `/dev/fd/3`) are never
 * followed: plangate and the host are different processes and would read different folders. Case is
 * compared exactly.
 */
export function scopedPath(text: string, scope: string, files: FileProbe): ScopedPath {
  return scoped(text, { root: scope, files });
}

/** The approved scope paths are read against, and the file system a symlinked alias of it is resolved on. */
interface Scope {
  root: string;
  files: FileProbe;
}

function scoped(text: string, scope: Scope): ScopedPath {
  if (text === "") return { outside: why("empty") };
  if (isFileUrl(text) || /^[A-Za-z][A-Za-z0-9+.-]+:/.test(text)) return { outside: why("url") };
  const unsafe = unsafePathReason(text);
  if (unsafe) return { outside: unsafe };
  if (text.includes("\\")) return { outside: why("backslash") };
  if (text.split("/").includes("..")) return { outside: why("dotDot") };
  const root = normalizeAbsolute(scope.root);
  const abs = normalizeAbsolute(text.startsWith("/") ? text : `${root}/${text}`);
  if (isInside(abs, root)) return { rel: relativeInside(abs, root) };
  if (text.startsWith("/")) {
    const rel = throughAlias(abs, root, scope.files);
    if (rel !== undefined) return { rel };
  }
  return { outside: why("outsideScope", { root }) };
}

/** Folders whose links mean something else to each process (procfs, /dev/fd, /dev/stdin…). */
const PER_PROCESS = /^\/(?:proc|dev)(?:\/|$)/;

/** The path relative to the scope when one of its ancestors is the scope under another name (a symlink). */
function throughAlias(abs: string, root: string, files: FileProbe): string | undefined {
  if (PER_PROCESS.test(abs)) return undefined;
  const realRoot = files.realpath(root);
  if (realRoot === undefined) return undefined;
  const segs = abs.split("/").filter(Boolean);
  for (let n = Math.min(segs.length, 64); n >= 1; n--) {
    const ancestor = "/" + segs.slice(0, n).join("/");
    const real = files.realpath(ancestor);
    if (real === undefined) continue;
    if (real === realRoot) return segs.slice(n).join("/");
    // Ancestors above an existing one cannot be the scope unless a shorter prefix is: keep walking up.
  }
  return undefined;
}

function outsideMarker(reason: PathWhy, text: string): string {
  const path = text.length > 200 ? text.slice(0, 199) + "…" : text;
  return `${OUTSIDE_PREFIX} ${JSON.stringify({ path, why: reason, nonce: randomBytes(16).toString("hex") })}`;
}

// ---------------------------------------------------------------------------------------------------
// Identity

/** Where the host resolves a call's relative paths and runs its command lines. */
export interface CallContext {
  /**
   * The host's working folder for this call (a hook input's `cwd`): a string, the folder; null, unknown;
   * absent, the scope itself (a library executor that works in the workspace). When it is not the scope,
   * a relative path names another file for the host than for plangate, and a command line runs
   * elsewhere than where the plan's commands were checked (Claude Code's Bash keeps a `cd` for later
   * calls): both are refused.
   */
  cwd?: string | null;
  /**
   * For a tool the profile does not describe (generic's every tool, an MCP tool): the keys of its
   * arguments the host reads against its working folder, each with the text: a relative path (as the
   * path checks find one), and for a shell tool its command line. Only asked when the working folder is
   * known (a string) and is not the scope; each one is then outside. Absent: such a tool is kept as is.
   */
  undescribed?: (tool: string, args: Record<string, unknown>) => readonly { key: string; text: string; command: boolean }[];
}

/**
 * A call reduced to its identity: incidental keys dropped, path keys normalised against the scope. A
 * path outside the scope (or one that cannot be read safely) becomes a marker no plan value can equal;
 * `outsideScope` finds it. A tool the profile does not describe keeps every key as it is. Keys are
 * copied as own keys whatever their name (`__proto__` included), so none can vanish from the identity.
 */
export function callIdentity(p: HostProfile, call: CallInput, scopeRoot: string, files: FileProbe, context: CallContext = {}): CallInput {
  const scope: Scope = { root: scopeRoot, files };
  const spec = specOf(p, call.tool);
  if (!spec) return undescribedIdentity(call, scope, context);
  if (!spec.incidental?.length && !spec.paths?.length && !spec.commands?.length && !spec.globs?.length && !spec.defaults) return call;
  const elsewhere = context.cwd === undefined ? undefined : workingFolderProblem(context.cwd, scope);
  const args: Record<string, unknown> = withDefaults(spec, call.args);
  for (const [k, v] of Object.entries(call.args)) {
    if (spec.incidental?.includes(k)) continue;
    if (spec.paths?.includes(k)) {
      if (typeof v !== "string") {
        setOwn(args, k, outsideMarker(why("notString"), safeText(v)));
        continue;
      }
      if (elsewhere !== undefined && v !== "" && !v.startsWith("/")) {
        setOwn(args, k, outsideMarker(why("relativeElsewhere", { cwd: elsewhere }), v));
        continue;
      }
      const r = scoped(v, scope);
      setOwn(args, k, "rel" in r ? r.rel : outsideMarker(r.outside, v));
    } else if (spec.globs?.includes(k) && (typeof v !== "string" || globReachesOut(v) !== undefined)) {
      setOwn(args, k, outsideMarker(typeof v === "string" ? globReachesOut(v)! : why("notString"), typeof v === "string" ? v : safeText(v)));
    } else if (elsewhere !== undefined && spec.commands?.includes(k)) {
      setOwn(args, k, outsideMarker(why("commandElsewhere", { cwd: elsewhere }), safeText(v)));
    } else setOwn(args, k, v);
  }
  // A path input left out is the working folder to the host (Grep, Glob without `path`): elsewhere, it never matches.
  if (elsewhere !== undefined)
    for (const k of spec.paths ?? [])
      if (!Object.hasOwn(call.args, k) && !Object.hasOwn(spec.defaults ?? {}, k)) setOwn(args, k, outsideMarker(why("absentElsewhere", { cwd: elsewhere }), "(absent)"));
  return { tool: call.tool, args };
}

/**
 * A call to a tool the profile does not describe, kept as it is, unless the host works in another folder
 * than the scope (a known `cwd`): then the relative paths and command lines the caller finds in it
 * (`context.undescribed`) name other files for the host than for plangate (`cat passwd` after `cd /etc`),
 * and each becomes a marker, so the call is refused.
 */
function undescribedIdentity(call: CallInput, scope: Scope, context: CallContext): CallInput {
  if (typeof context.cwd !== "string" || context.undescribed === undefined) return call;
  const elsewhere = workingFolderProblem(context.cwd, scope);
  if (elsewhere === undefined) return call;
  const found = context.undescribed(call.tool, call.args);
  if (found.length === 0) return call;
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.args)) setOwn(args, k, v);
  for (const f of found) setOwn(args, f.key, outsideMarker(why(f.command ? "commandElsewhere" : "relativeElsewhere", { cwd: elsewhere }), f.text));
  return { tool: call.tool, args };
}

/**
 * Why a file glob can match outside the folder it is searched from (undefined when it cannot): absolute
 * (also as a brace alternative: `{/etc/*,x}`), `~`, a drive, a `..` segment anywhere (`src/../..`), a
 * backslash (an escape to a glob library, a separator on Windows), a leading class (`[/]etc`), or a
 * control character. Fail closed: such a glob never matches.
 */
export function globReachesOut(glob: string): PathWhy | undefined {
  if (/[\u0000-\u001f\u007f]/.test(glob)) return why("globControl");
  if (glob.includes("\\")) return why("globBackslash");
  if (/(^|[{,(|])\s*(\/|~|[A-Za-z]:|\[)/.test(glob)) return why("globAbsolute");
  if (/(^|[/{,(|])\.\.($|[/},)|])/.test(glob)) return why("globDotDot");
  return undefined;
}

/** Why the host's working folder is not the scope (undefined when it is, under any name). */
function workingFolderProblem(cwd: string | null, scope: Scope): PathWhy | undefined {
  if (cwd === null) return why("cwdUnknown");
  const r = scoped(cwd, scope);
  if ("rel" in r && r.rel === "") return undefined;
  const shown = JSON.stringify(cwd.length > 200 ? cwd.slice(0, 199) + "…" : cwd);
  return why("rel" in r ? "cwdInsideScope" : "cwdOutsideScope", { folder: shown, root: normalizeAbsolute(scope.root) });
}

/** Sets an own, enumerable key, even one named `__proto__` (which plain assignment would take as the prototype). */
function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === "__proto__") Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** The defaults of the keys the arguments leave out (an own copy; the arguments' own keys are set by the caller). */
function withDefaults(spec: HostToolSpec, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(spec.defaults ?? {})) if (!Object.hasOwn(args, k)) setOwn(out, k, v);
  return out;
}

function safeText(v: unknown): string {
  try {
    return canonicalJson(v ?? null);
  } catch {
    return "(unserialisable)";
  }
}

/** The keys of a call identity whose path is outside the scope, with why (empty when none). */
export function outsideScope(identity: CallInput): { key: string; path: string; why: PathWhy }[] {
  const out: { key: string; path: string; why: PathWhy }[] = [];
  for (const [k, v] of Object.entries(identity.args)) {
    if (!isOutsideMarker(v)) continue;
    try {
      const m = JSON.parse(v.slice(OUTSIDE_PREFIX.length + 1)) as { path: string; why: unknown };
      out.push({ key: k, path: m.path, why: isPathWhy(m.why) ? m.why : why("outsideScopeUnread") });
    } catch {
      out.push({ key: k, path: "(unreadable)", why: why("outsideScopeUnread") });
    }
  }
  return out;
}

/** The refusal of a call one of whose paths is outside the approved scope, or undefined. */
export function outsideScopeDiagnostic(identity: CallInput, step: number): Diagnostic | undefined {
  const bad = outsideScope(identity);
  if (bad.length === 0) return undefined;
  const paths = bad.map((b) => `"${b.key}" ${JSON.stringify(b.path)} ${wordOf(b.why)}`).join("; ");
  return ruleDiagnostic("path-outside-workspace", "callOutsideScope", { tool: identity.tool, paths }, {
    step,
    actual: { tool: identity.tool, arguments: Object.fromEntries(bad.map((b) => [b.key, b.path])) },
  });
}

/** A line splitter for command keys: gives the simple commands of a shell line (undefined: unreadable). */
export type SimpleCommands = (line: string) => readonly string[] | undefined;

/**
 * How each argument of a host tool is matched: path keys as paths; command keys with the shell
 * splitter given (without one, a constraint on a command line matches nothing: literals still match).
 */
export function contextFor(p: HostProfile, options: { simpleCommands?: SimpleCommands; schema?: ValueContext["schema"] } = {}): ContextFor {
  const none: SimpleCommands = () => undefined;
  return (tool, key): ValueContext => {
    const spec = specOf(p, tool);
    const ctx: ValueContext = {};
    if (spec?.paths?.includes(key)) ctx.path = true;
    if (spec?.commands?.includes(key)) ctx.simpleCommands = options.simpleCommands ?? none;
    if (options.schema) ctx.schema = options.schema;
    return ctx;
  };
}

// ---------------------------------------------------------------------------------------------------
// Plans → host calls

/** Why a plan's steps cannot be compiled to host calls. */
export class HostMappingError extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => d.message).join("\n"));
  }
}

interface StepExtras {
  repeat?: number;
  optional?: boolean;
  confirm?: boolean;
  substeps?: readonly Step[];
}

/**
 * The calls a validated plan's steps make on this host, in order; throws HostMappingError (with a
 * diagnostic per step) when a step maps to no host call and so cannot be enforced.
 */
export function expectedCalls(p: HostProfile, plan: Plan, scope: string, files: FileProbe, options: CompileOptions = {}): ExpectedCall[] {
  const r = compileCalls(p, plan, scope, files, options);
  if ("diagnostics" in r) throw new HostMappingError(r.diagnostics);
  return r.calls;
}

/** How a plan's steps are compiled. */
export interface CompileOptions {
  /**
   * May the plan's arguments be constraints (the policy's `plan.constraints: allow`)? Default false: a
   * `$`-keyed argument value is then wrapped in `$literal`, so it matches only itself, even when the
   * argument-constraint rule was turned off and validation let it through.
   */
  constraints?: boolean;
}

/** The host calls of a plan, or the diagnostics of the steps that map to none (rule unknown-tool). */
export function compileCalls(p: HostProfile, plan: Plan, scope: string, files: FileProbe, options: CompileOptions = {}): { calls: ExpectedCall[] } | { diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  const calls = compileSteps(p, plan, plan.steps, { root: scope, files }, diagnostics, options.constraints === true);
  return diagnostics.length ? { diagnostics } : { calls };
}

/** The arguments with every `$`-keyed value wrapped in `$literal` (read as itself, never as a constraint). */
function literalArgs(args: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const [k, v] of Object.entries(args))
    if (isDollarObject(v)) {
      out ??= { ...args };
      setOwn(out, k, { [LITERAL_KEY]: v });
    }
  return out ?? args;
}

/**
 * Does any expected call (nested steps included) hold a constraint that needs validation's readers to
 * be matched: a `$schema` (the JSON Schema checker) or a `$glob` / `$regex` (which, on a command, need
 * the shell parser)? `$enum` and `$any` need neither. Without the readers such constraints match nothing.
 */
export function hasConstraints(calls: readonly ExpectedCall[]): boolean {
  return calls.some(
    (c) =>
      Object.values(c.args).some((v) => {
        const r = readArgument(v);
        return "constraint" in r && r.constraint.kind !== "$enum" && r.constraint.kind !== "$any";
      }) ||
      (c.steps !== undefined && hasConstraints(c.steps)),
  );
}

function compileSteps(p: HostProfile, plan: Plan, steps: readonly Step[], scope: Scope, out: Diagnostic[], constraints: boolean): ExpectedCall[] {
  const calls: ExpectedCall[] = [];
  for (const s of steps) {
    const x = s as Step & StepExtras;
    const base = { repeat: x.repeat ?? 1, optional: x.optional === true, confirm: x.confirm === true };
    const step = constraints ? s : { ...s, args: literalArgs(s.args) };
    const made = plan.dialect === "teddy" && p.teddy ? teddyCalls(p, step, scope, out) : toolCall(p, step, scope, out);
    if (!made) continue;
    for (const c of made) {
      const call: ExpectedCall = { step: s.position, tool: c.tool, args: c.args, ...base, ...((c as NewFileCall).absent !== undefined ? { absent: (c as NewFileCall).absent } : {}) };
      if (x.substeps?.length) call.steps = compileSteps(p, plan, x.substeps, scope, out, constraints);
      calls.push(call);
    }
  }
  return calls;
}

function refuse(out: Diagnostic[], d: Diagnostic): undefined {
  out.push(d);
  return undefined;
}

/** Where a refusal of a step's host call points. */
function at(s: Step, pointer: string): { step: number; pointer: string } {
  return { step: s.position, pointer };
}

/** An intake / iKOMA / scQC step: the tool is a host tool, the arguments its identity arguments. */
function toolCall(p: HostProfile, s: Step, scope: Scope, out: Diagnostic[]): CallInput[] | undefined {
  const step = s.position;
  if (s.tool === undefined) return refuse(out, ruleDiagnostic("unknown-tool", "hostNoTool", { step }, at(s, s.toolAt)));
  const tool = s.tool;
  if (!isHostTool(p, tool)) {
    const tools = Object.keys(p.tools).slice(0, 12).join(", ") + (p.toolPatterns?.length ? `, ${p.toolPatterns.join(", ")}` : "");
    return refuse(out, ruleDiagnostic("unknown-tool", "hostNotATool", { step, tool, host: p.name, tools }, at(s, s.toolAt)));
  }
  const unknown = unknownInput(p, tool, Object.keys(s.args));
  if (unknown !== undefined) {
    const inputs = knownInputs(specOf(p, tool)!).join(", ");
    return refuse(out, ruleDiagnostic("unknown-tool", "hostUnknownInput", { step, input: unknown, host: p.name, tool, inputs }, at(s, childPointer(s.argsAt, unknown))));
  }
  const args = planIdentity(p, tool, s.args, scope, (key, reason) => refuse(out, ruleDiagnostic("unknown-tool", "hostPathRefused", { step, tool, key, why: reason }, at(s, childPointer(s.argsAt, key)))));
  return args ? [{ tool: s.tool, args }] : undefined;
}

/**
 * A plan step's arguments as the identity a host call is compared with: incidental keys dropped (the
 * call's are too), path values normalised like the call's (a plan path may be relative). A constraint
 * object stays as it is (it matches the call's normalised path); a `$literal` path is normalised inside.
 */
function planIdentity(p: HostProfile, tool: string, args: Record<string, unknown>, scope: Scope, bad: (key: string, reason: PathWhy) => void): Record<string, unknown> | undefined {
  const spec = specOf(p, tool);
  if (!spec) return args;
  const out: Record<string, unknown> = withDefaults(spec, args);
  let ok = true;
  for (const [k, v] of Object.entries(args)) {
    if (spec.incidental?.includes(k)) continue;
    if (!spec.paths?.includes(k)) {
      setOwn(out, k, v);
      continue;
    }
    const r = readArgument(v);
    const text = "literal" in r ? r.literal : undefined;
    if ("constraint" in r && r.constraint.kind === "$enum") {
      // Each listed path is read as a call's path is (absolute inside the scope = relative), or refused.
      const members = enumPaths(r.constraint.values, scope, (reason) => bad(k, reason));
      if (members) setOwn(out, k, { $enum: members });
      else ok = false;
      continue;
    }
    if ("constraint" in r || "error" in r) {
      setOwn(out, k, v);
      continue;
    }
    if (typeof text !== "string") {
      bad(k, why("notString"));
      ok = false;
      continue;
    }
    const sp = scoped(text, scope);
    if ("outside" in sp) {
      bad(k, sp.outside);
      ok = false;
    } else setOwn(out, k, sp.rel);
  }
  return ok ? out : undefined;
}

/** The members of a path `$enum` read against the scope, or undefined (after `bad`) when one is no path inside it. */
function enumPaths(values: readonly unknown[], scope: Scope, bad: (reason: PathWhy) => void): string[] | undefined {
  const out: string[] = [];
  for (const m of values) {
    const r = readArgument(m);
    const text = "literal" in r ? r.literal : undefined;
    if (typeof text !== "string") {
      bad(why("enumNotPath", { value: clipValue(m) }));
      return undefined;
    }
    const sp = scoped(text, scope);
    if ("outside" in sp) {
      bad(why("enumOutside", { path: JSON.stringify(text.length > 200 ? text.slice(0, 199) + "…" : text), why: sp.outside }));
      return undefined;
    }
    out.push(sp.rel);
  }
  return out;
}

function clipValue(v: unknown): string {
  const s = safeText(v);
  return s.length > 80 ? s.slice(0, 79) + "…" : s;
}

/** A host call that creates the file its `absent` key names. */
type NewFileCall = CallInput & { absent?: string };

function teddyCalls(p: HostProfile, s: Step, scope: Scope, out: Diagnostic[]): NewFileCall[] | undefined {
  const action = s.extra?.action as TeddyAction | undefined;
  const type = action?.type ?? s.tool ?? "";
  const mapping = Object.hasOwn(p.teddy!, type) ? p.teddy![type] : undefined;
  const step = s.position;
  const host = p.name;
  if (!action || !mapping) {
    const actions = Object.keys(p.teddy ?? {}).join(", ");
    return refuse(out, type === "" ? ruleDiagnostic("unknown-tool", "teddyUntitledNoCall", { step, host, actions }, at(s, s.toolAt)) : ruleDiagnostic("unknown-tool", "teddyNoCall", { step, action: type, host, actions }, at(s, s.toolAt)));
  }
  if (!Array.isArray(mapping)) return [];
  const kind = action.url !== undefined ? "url" : "path";
  const call = mapping.find((c) => c.when === undefined || c.when === kind);
  if (!call) return refuse(out, ruleDiagnostic("unknown-tool", kind === "url" ? "teddyUrlNoCall" : "teddyFileNoCall", { step, action: type, host }, at(s, s.toolAt)));
  // A setting TeDDy does not read and no host call carries ("Working Directory: build" over `rm -rf dist`)
  // would be read by the reviewer and applied by no one.
  const readable = new Set(["path", "url", "command", "queries", ...(Object.hasOwn(TEDDY_PARAMS, type) ? TEDDY_PARAMS[type]! : [])]);
  const ignored = Object.keys(s.args).find((k) => !readable.has(k));
  if (ignored !== undefined)
    return refuse(out, ruleDiagnostic("unknown-tool", "teddyIgnoredSetting", { step, key: ignored, action: type, host }, at(s, childPointer(s.argsAt, ignored))));
  // The host's shell call has a command and nothing else: a folder or environment the plan sets cannot be bound.
  const unbound = Object.values(call.args).includes("command") ? ["cwd", "env", "environment"].find((k) => s.args[k] !== undefined) : undefined;
  if (unbound) return refuse(out, ruleDiagnostic("unknown-tool", "teddyUnbound", { step, action: type, key: unbound, host, tool: call.tool }, at(s, childPointer(s.argsAt, unbound))));
  const items: ({ find?: string; replace?: string } | { query: string } | undefined)[] =
    call.each === "edits" ? action.edits : call.each === "queries" ? ((s.args.queries as string[] | undefined) ?? []).map((query) => ({ query })) : [undefined];
  if (items.length === 0) return refuse(out, ruleDiagnostic("unknown-tool", call.each === "edits" ? "teddyNoEdits" : "teddyNoQuery", { step, action: type }, at(s, s.at)));
  const calls: NewFileCall[] = [];
  for (const item of items) {
    const args: Record<string, unknown> = {};
    for (const [key, source] of Object.entries(call.args)) {
      const v = teddyValue(action, s, source, item);
      if (v === undefined) return refuse(out, ruleDiagnostic("unknown-tool", "teddyNoValue", { step, action: type, source, tool: call.tool, key }, at(s, s.at)));
      // An empty search string matches everywhere, and Claude Code's Edit reads it as "create the file".
      if (source === "find" && v === "") return refuse(out, ruleDiagnostic("unknown-tool", "teddyEmptyFind", { step, action: type, tool: call.tool, key }, at(s, s.at)));
      args[key] = v;
    }
    const id = planIdentity(p, call.tool, args, scope, (key, reason) =>
      refuse(out, ruleDiagnostic("unknown-tool", "teddyPathRefused", { step, tool: call.tool, key, value: String(args[key]), why: reason }, at(s, action.pathAt ?? s.at))),
    );
    if (!id) return undefined;
    calls.push(call.newFile !== undefined && !action.overwrite ? { tool: call.tool, args: id, absent: call.newFile } : { tool: call.tool, args: id });
  }
  return calls;
}

function teddyValue(a: TeddyAction, s: Step, source: TeddySource, item: { find?: string; replace?: string } | { query: string } | undefined): unknown {
  switch (source) {
    case "path":
      return a.path;
    case "url":
      return a.url;
    case "content":
      return a.content;
    case "fileContent":
      // TeDDy writes the block without its final line breaks; a model writing the file ends it with one.
      return a.content === undefined ? undefined : { $enum: [a.content, a.content + "\n"] };
    case "command":
      return typeof s.args.command === "string" ? s.args.command : undefined;
    case "find":
      return item && "find" in item ? item.find : undefined;
    case "replace":
      return item && "replace" in item ? item.replace : undefined;
    case "query":
      return item && "query" in item ? item.query : undefined;
    case "matchAll":
      return a.matchAll;
    case "any":
      return { $any: true };
  }
}

/**
 * The diagnostics a plan gets on this host at validation: steps that map to no host call (none for
 * generic). `constraints` must be what the guard will compile with (the policy's `plan.constraints`).
 */
export function hostDiagnostics(p: HostProfile, plan: Plan, scope: string, files: FileProbe, options: CompileOptions = {}): Diagnostic[] {
  if (Object.keys(p.tools).length === 0 && !p.teddy) return [];
  const r = compileCalls(p, plan, isAbsolute(scope) ? scope : resolve(scope), files, options);
  return "diagnostics" in r ? r.diagnostics : [];
}
