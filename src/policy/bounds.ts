import { pointerOf } from "../core/pointer.js";

/*
 * Bounds on what a policy holds, whichever way it arrives: a policy file (and the bases it extends, and
 * its overrides), or a Policy object built in code. Each list is compared with what a plan names (every
 * step's tool, every program a command line runs, every argument's name), so its size multiplies the
 * work of every validation; each is also read, merged and compiled when the policy loads. A
 * `commands.allow` of 120,000 entries (a 1 MB policy) took 1.3 s and 210 MB for a plan of 100 steps, a
 * `tools.allow` of 120,000 globs 8.3 s, and one of 4,096 globs 57 s for a plan of 100,000 steps. Real
 * policies hold tens of entries in each list.
 */

/**
 * Most entries of one list of names (tools, programs, argument names, statuses, fields), counted in all:
 * the defaults, the bases' and the overrides' entries included. Checking whether a policy is within
 * them costs microseconds; each is counted once per list (not per entry) before any entry is read.
 */
export const MAX_POLICY_LIST = 1024;

/** Longest entry of such a list, in characters: no tool, program, argument or field name is longer. */
export const MAX_POLICY_ENTRY_LENGTH = 256;

/**
 * Most globs (entries with `*` or `?`) a list of tool names holds, and most `commands.allow` or
 * `commands.deny` entries whose program is a glob. A name is looked up among the other entries at once,
 * but is matched against each glob in turn: 1,024 globs in `tools.allow` took 15 s for a plan of
 * 100,000 steps. A registry's globs (tools.allow with an allowFile) count in all.
 */
export const MAX_POLICY_GLOBS = 64;

/**
 * Most protected globs a policy holds in all (its own, its overrides' and its bases', the defaults
 * included), and the longest one. Each is compiled, checked when the policy loads and matched against
 * the paths a plan writes, some 170 microseconds a glob: 10,000 took 1.8 s and 270 MB for a plan of 100
 * writes, 200,000 (a 4 MB JSON policy) 35 s and 2.1 GB. Real policies hold tens. No path is longer than
 * 4,096 characters (MAX_PATH_LENGTH), so neither need a glob be.
 */
export const MAX_PROTECTED_GLOBS = 4096;
export const MAX_PROTECTED_GLOB_LENGTH = 4096;

/** Most `overrides` entries a policy holds (its bases' included); each is matched against every plan file's path. */
export const MAX_OVERRIDES = 256;

/** Most rule settings (`rules:` keys) and task operations (`tasks.operations` keys) a policy holds in all. */
export const MAX_POLICY_KEYS = 1024;

/** Most tools a registry holds (a tools file, `--tools`, or all those the policy names together). */
export const MAX_REGISTRY_TOOLS = 32_768;

/** A list of a policy: where it is, its bound, and what its size costs and how to do with fewer. */
interface ListBound {
  path: readonly [string, string];
  max: number;
  length: number;
  /** How messages name its entries, and why none need be longer than `length`. */
  noun: string;
  entry: string;
  longer: string;
  /** Are its globs bounded too, and how: a name's (`*` or `?` anywhere) or a command entry's program. */
  globs?: "name" | "program";
  /** What each entry is compared with. */
  use: string;
  /** How to say the same with fewer entries. */
  fewer: string;
}

const names = (path: readonly [string, string], use: string, fewer: string, globs?: "name" | "program"): ListBound => ({
  path,
  max: MAX_POLICY_LIST,
  length: MAX_POLICY_ENTRY_LENGTH,
  noun: `${path.join(".")} entries`,
  entry: `${path.join(".")} entry`,
  longer: `longer than the ${MAX_POLICY_ENTRY_LENGTH} of any name it is compared with (shorten it)`,
  use,
  fewer,
  ...(globs ? { globs } : {}),
});

const LISTS: readonly ListBound[] = [
  names(["tools", "allow"], "every step's tool is looked up in it", "list the tools in tools.allowFile or tools.registry, or allow a server's tools with one glob (mcp__server__*)", "name"),
  names(["tools", "deny"], "every step's tool is compared with it", "deny a family of tools with one glob", "name"),
  names(["tools", "write"], "every step's tool is looked up in it", "list only the tools the plans call"),
  names(["tools", "read"], "every step's tool is looked up in it", "list only the tools the plans call, or mark readers readOnlyHint: true in tools.registry"),
  {
    path: ["paths", "protected"],
    max: MAX_PROTECTED_GLOBS,
    length: MAX_PROTECTED_GLOB_LENGTH,
    noun: "protected globs",
    entry: "protected glob",
    longer: `longer than the ${MAX_PROTECTED_GLOB_LENGTH} of any path a system opens (shorten it, or protect a folder above it)`,
    use: "each is compiled and matched against every path a plan writes",
    fewer: "protect folders rather than each file in them, or use fewer, broader globs",
  },
  names(["paths", "unprotect"], "each is taken out of the protected globs", "name each default protected glob once"),
  names(["paths", "arguments"], "every argument's name is looked up in it", "list only the names the plans' tools use"),
  names(["commands", "allow"], "every program a command line runs is compared with it", "allow a program without listing each of its arguments", "program"),
  names(["commands", "deny"], "every program a command line runs is compared with it", "deny a program without listing each of its arguments", "program"),
  names(["commands", "installOutside"], "every install outside the workspace is compared with it", "name each package manager once"),
  names(["commands", "inlineCode"], "every interpreter given code on its line is compared with it", "name each interpreter once"),
  names(["commands", "writtenCode"], "every file of code the plan writes and a program runs or loads is compared with it", "name each language once"),
  names(["returns", "statuses"], "every return's status is looked up in it", "list the statuses the orchestrator uses"),
  names(["returns", "successStatuses"], "every return's status is looked up in it", "list the statuses the orchestrator uses"),
  names(["returns", "requiredFields"], "every return is searched for each", "list the fields the orchestrator reads"),
  names(["returns", "artifactFields"], "every artifact is searched for each", "list the fields the orchestrator reads"),
  { path: ["guard", "free"], max: 200, length: 200, noun: "guard.free entries", entry: "guard.free entry", longer: "longer than the 200 of any tool name a host gives (shorten it)", use: "every call the hook sees is compared with it", fewer: "list the tools that only read" },
];

/** Where a bound is passed: the pointer into the policy (a file's or the object's), and what to say there. */
export interface PolicyBoundProblem {
  pointer: string;
  message: string;
}

/** What `base` may add to a list's count: the entries a file's list is merged into (the defaults'). */
export type PolicyBoundBase = Partial<Record<string, number>>;

/** A policy as these checks read it: a policy file's shape or a Policy object's (their lists sit at the same keys). */
type Shape = Record<string, unknown>;

function listAt(o: unknown, path: readonly string[]): unknown[] | undefined {
  let v: unknown = o;
  for (const k of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Shape)[k];
  }
  return Array.isArray(v) ? v : undefined;
}

function keysAt(o: unknown, path: readonly string[]): string[] | undefined {
  let v: unknown = o;
  for (const k of path) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Shape)[k];
  }
  return v !== null && typeof v === "object" && !Array.isArray(v) ? Object.keys(v) : undefined;
}

const isGlob = (s: string) => s.includes("*") || s.includes("?");
/** A command entry's program: its first word. */
const programOf = (s: string) => s.trim().split(/\s+/)[0] ?? "";

/**
 * The first bound a policy passes (see the constants above), or undefined. `p` is a policy file's value
 * (after its schema check) or a Policy object; its `overrides` count with its own lists; `base` counts
 * what a file's lists are merged into (the defaults). Only lengths are read until a list is known to be
 * within its bound; then its entries' lengths, once each.
 */
export function policyBoundProblem(p: unknown, base?: PolicyBoundBase): PolicyBoundProblem | undefined {
  if (p === null || typeof p !== "object") return undefined;
  const overrides = listAt(p, ["overrides"]) ?? [];
  if (overrides.length > MAX_OVERRIDES)
    return { pointer: pointerOf("overrides", MAX_OVERRIDES), message: `the policy holds more than ${MAX_OVERRIDES} overrides (its bases' included): each is matched against every plan file's path (give one override several globs in its files)` };
  // The policy's own lists, then each override's, in the order they merge.
  const holders: { at: readonly (string | number)[]; o: unknown }[] = [{ at: [], o: p }, ...overrides.map((o, i) => ({ at: ["overrides", i], o }))];
  for (const list of LISTS) {
    const key = list.path.join(".");
    let left = list.max - (base?.[key] ?? 0);
    for (const { at, o } of holders) {
      const entries = listAt(o, list.path);
      if (entries === undefined) continue;
      if (entries.length > left)
        return { pointer: pointerOf(...at, ...list.path, Math.max(left, 0)), message: `the policy holds more than ${list.max} ${list.noun} in all (${inAll(base, key)}): ${list.use} (${list.fewer})` };
      left -= entries.length;
    }
    let globs = MAX_POLICY_GLOBS;
    for (const { at, o } of holders) {
      const entries = listAt(o, list.path) ?? [];
      for (let j = 0; j < entries.length; j++) {
        const e = entries[j];
        if (typeof e !== "string") continue;
        if (e.length > list.length)
          return { pointer: pointerOf(...at, ...list.path, j), message: `the ${list.entry} is ${e.length} characters long, ${list.longer}` };
        if (list.globs === undefined || !isGlob(list.globs === "program" ? programOf(e) : e) || --globs >= 0) continue;
        return {
          pointer: pointerOf(...at, ...list.path, j),
          message:
            list.globs === "name"
              ? `${key} holds more than ${MAX_POLICY_GLOBS} globs (entries with * or ?) in all: every step's tool is matched against each in turn (name the tools, or use fewer, broader globs)`
              : `${key} holds more than ${MAX_POLICY_GLOBS} entries whose program is a glob (* or ?) in all: every program a command line runs is matched against each in turn (name the programs, or use fewer, broader globs)`,
        };
      }
    }
  }
  // Override globs: matched against every plan file's path.
  let files = MAX_POLICY_LIST;
  for (const [i, o] of overrides.entries()) {
    const globs = listAt(o, ["files"]) ?? [];
    if (globs.length > files) return { pointer: pointerOf("overrides", i, "files", Math.max(files, 0)), message: `the overrides' files hold more than ${MAX_POLICY_LIST} globs in all: each is matched against every plan file's path (use fewer, broader globs)` };
    files -= globs.length;
    const j = globs.findIndex((g) => typeof g === "string" && g.length > MAX_PROTECTED_GLOB_LENGTH);
    if (j >= 0) return { pointer: pointerOf("overrides", i, "files", j), message: `the overrides entry's glob is longer than ${MAX_PROTECTED_GLOB_LENGTH} characters, longer than any path a system opens (shorten it)` };
  }
  // Maps: rule settings and task operations (with their statuses).
  for (const [path, what] of [
    [["rules"], "rule settings"],
    [["tasks", "operations"], "task operations"],
  ] as const) {
    let left = MAX_POLICY_KEYS;
    for (const { at, o } of holders) {
      const keys = keysAt(o, path);
      if (keys === undefined) continue;
      if (keys.length > left) return { pointer: pointerOf(...at, ...path), message: `the policy holds more than ${MAX_POLICY_KEYS} ${what} in all (its bases' and its overrides' included): each is looked up for every finding or task (set each once)` };
      left -= keys.length;
      const long = keys.find((k) => k.length > MAX_POLICY_ENTRY_LENGTH);
      if (long !== undefined) return { pointer: pointerOf(...at, ...path, long), message: `the ${path.join(".")} key is ${long.length} characters long, longer than ${MAX_POLICY_ENTRY_LENGTH}: no rule or operation is named that long (shorten it)` };
    }
  }
  let statuses = MAX_POLICY_LIST;
  for (const op of keysAt(p, ["tasks", "operations"]) ?? []) {
    const list = listAt(p, ["tasks", "operations", op]) ?? [];
    if (list.length > statuses) return { pointer: pointerOf("tasks", "operations", op, Math.max(statuses, 0)), message: `tasks.operations holds more than ${MAX_POLICY_LIST} statuses in all: every task's status is looked up in them (list the statuses the orchestrator uses)` };
    statuses -= list.length;
  }
  return undefined;
}

/**
 * What a count in all takes in: for a policy file, the defaults its list is merged into (their number), its
 * bases' and its overrides' entries; for a Policy object, its defaults and its overrides' entries.
 */
function inAll(base: PolicyBoundBase | undefined, key: string): string {
  if (base === undefined) return "the defaults and the overrides' included";
  const defaults = base[key];
  return defaults ? `the ${defaults} defaults, its bases' and its overrides' included` : "its bases' and its overrides' included";
}

/** A tool registry's bounds: the names it holds and its globs, or why it passes one. */
export function registryBoundProblem(names: number, globs: number): string | undefined {
  if (names > MAX_REGISTRY_TOOLS)
    return `the tools hold more than ${MAX_REGISTRY_TOOLS} names in all: each is read, kept and compared with the steps' tools (list the tools the plans call)`;
  if (globs > MAX_POLICY_GLOBS)
    return `the tools hold more than ${MAX_POLICY_GLOBS} globs (names with * or ?) in all: every step's tool is matched against each in turn (name the tools, or use fewer, broader globs)`;
  return undefined;
}
