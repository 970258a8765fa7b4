import type { FileProbe } from "./file-probe.js";
import { createPathService, type PathService } from "./path-service.js";
import type { Plan, Step } from "./plan.js";
import type { Policy } from "./policy.js";
import { childPointer, type Pointer } from "./pointer.js";
import { pathArguments, pathNamesFor, type PathArgument } from "./paths.js";
import type { ToolRegistry } from "./tools.js";
import { CONTENT_ARGUMENTS } from "./walk.js";
import { stepWrites } from "./writers.js";

/*
 * The facts of one validation, built once right after a dialect has normalised the plan and read by every
 * step rule instead of walking the arguments again: each step's argument leaves (strings and keys), tagged
 * by one combined pre-check, its path arguments, whether it writes; and the path service. Pointers are
 * made only when a rule reports a leaf.
 */

/** A leaf's tags, from one pass over its characters: a rule skips the leaves whose tags rule it out. */
export const enum LeafTag {
  /** `<`, `{`, `$`, `?`, `[`, `…` or `...`: what a stand-in needs unless it is written in words (see unresolved-argument). */
  Placeholder = 1,
  /** `$`, `` ` ``, `(`, `{`, or `/dev/` in any case: what a value chosen at run time needs unless it is a name such as `uuidgen` (see non-deterministic). */
  RunTime = 2,
  /** `/`, `\`, a leading `.` or `~`, `%`, `:` — what a path or a URL needs. */
  PathLike = 4,
  /** A character outside printable ASCII (controls, non-ASCII: invisible, bidi and look-alike characters). */
  Hidden = 8,
  /** Whitespace. */
  Space = 16,
  /** Three letters or more: what a stand-in or run-time value written in words (`TODO`, `uuidgen`) needs. */
  Words = 32,
}

/** A place in the arguments: the member or element a leaf sits in, with its parent, for a lazy pointer. */
interface Slot {
  readonly parent: Slot | undefined;
  readonly token: string | number;
  pointer?: Pointer;
}

function pointerOf(slot: Slot, root: Pointer): Pointer {
  if (slot.pointer !== undefined) return slot.pointer;
  const p = childPointer(slot.parent ? pointerOf(slot.parent, root) : root, slot.token);
  slot.pointer = p;
  return p;
}

/** A string in a step's arguments (a value, or an object key), with the name of the argument that holds it. */
export class ArgLeaf {
  readonly #slot: Slot;
  readonly #root: Pointer;
  constructor(
    slot: Slot,
    root: Pointer,
    /** The nearest key above the value (the key itself, for a key). */
    readonly name: string,
    readonly value: string,
    /** Is it (under) a content argument such as `content` or `replace`? */
    readonly content: boolean,
    readonly tags: number,
  ) {
    this.#slot = slot;
    this.#root = root;
  }
  /** The JSON pointer of the value (of the value a key names, for a key), made on first use. */
  get at(): Pointer {
    return pointerOf(this.#slot, this.#root);
  }
  /** Does the leaf have any of these tags? */
  has(tags: number): boolean {
    return (this.tags & tags) !== 0;
  }
}

/** The tags of a text, in one pass. */
export function tagsOf(text: string): number {
  let tags = 0;
  const n = text.length;
  if (n === 0) return 0;
  const first = text.charCodeAt(0);
  if (first === 0x2e || first === 0x7e) tags |= LeafTag.PathLike; // . ~
  let letters = 0;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x61 ? c <= 0x7a : c >= 0x41 && c <= 0x5a) {
      letters++;
      continue;
    }
    if (c >= 0x30 && c <= 0x39) continue;
    switch (c) {
      case 0x2f: // /
        tags |= LeafTag.PathLike;
        if (i + 4 < n && text.slice(i, i + 5).toLowerCase() === "/dev/") tags |= LeafTag.RunTime;
        break;
      case 0x5c: // \
      case 0x25: // %
      case 0x3a: // :
        tags |= LeafTag.PathLike;
        break;
      case 0x24: // $
      case 0x7b: // {
        tags |= LeafTag.Placeholder | LeafTag.RunTime;
        break;
      case 0x60: // `
      case 0x28: // (
        tags |= LeafTag.RunTime;
        break;
      case 0x3c: // <
      case 0x3f: // ?
      case 0x5b: // [
        tags |= LeafTag.Placeholder;
        break;
      case 0x2e: // .
        if (text.startsWith("...", i)) tags |= LeafTag.Placeholder;
        break;
      case 0x20:
        tags |= LeafTag.Space;
        break;
      default:
        if (c < 0x20 || c >= 0x7f) {
          tags |= LeafTag.Hidden;
          if (c === 0x09 || c === 0x0a || c === 0x0b || c === 0x0c || c === 0x0d || c === 0x85 || c === 0xa0 || c >= 0x1680) tags |= LeafTag.Space;
          if (c === 0x2026) tags |= LeafTag.Placeholder; // …
        }
    }
  }
  if (letters >= 3) tags |= LeafTag.Words;
  return tags;
}

/** What one step's arguments hold, walked once. */
export class StepFacts {
  /** Every string value in the arguments, depth-first in source order (argument constraints read as the argument). */
  readonly strings: readonly ArgLeaf[];
  /** Every object key in the arguments outside content arguments, depth-first, at the pointer of the value it names. */
  readonly keys: readonly ArgLeaf[];
  #paths?: { names: ReadonlySet<string>; out: readonly PathArgument[] };
  #writes?: boolean;
  #names?: ReadonlySet<string>;

  constructor(
    readonly step: Step,
    private readonly owner: PlanFacts,
  ) {
    const strings: ArgLeaf[] = [];
    const keys: ArgLeaf[] = [];
    const root = step.argsAt;
    const visit = (value: unknown, slot: Slot | undefined, name: string, content: boolean, depth: number) => {
      if (depth > 64) return;
      if (typeof value === "string") {
        strings.push(new ArgLeaf(slot ?? { parent: undefined, token: "" }, root, name, value, content, tagsOf(value)));
        return;
      }
      if (value === null || typeof value !== "object") return;
      if (Array.isArray(value)) {
        for (let i = 0; i < value.length; i++) visit(value[i], { parent: slot, token: i }, name, content, depth + 1);
        return;
      }
      const entries = Object.entries(value);
      // An argument constraint's values (a `$literal`, `$enum` members) and patterns (`$glob`, `$regex`)
      // are read under the argument's own name, so every rule judges them as that argument.
      if (entries.length === 1) {
        const only = entries[0]![0];
        if (only === "$literal" || only === "$enum" || only === "$glob" || only === "$regex") {
          if (!content) keys.push(new ArgLeaf({ parent: slot, token: only }, root, only, only, false, tagsOf(only)));
          visit(entries[0]![1], { parent: slot, token: only }, name, content, depth + 1);
          return;
        }
      }
      for (const [k, v] of entries) {
        const s: Slot = { parent: slot, token: k };
        const inContent = content || CONTENT_ARGUMENTS.has(k.toLowerCase());
        if (!inContent) keys.push(new ArgLeaf(s, root, k, k, false, tagsOf(k)));
        visit(v, s, k, inContent, depth + 1);
      }
    };
    if (step.args !== null && typeof step.args === "object") visit(step.args, undefined, "", false, 0);
    this.strings = strings;
    this.keys = keys;
  }

  /** The step's path argument names: the policy's, plus those its tool's schema marks `format: "path"`. */
  get pathNames(): ReadonlySet<string> {
    return (this.#names ??= pathNamesFor(this.step.tool, this.owner.policy.paths.arguments, this.owner.tools?.schemas));
  }

  /** Does the step write (its tool, or its arguments), decided once? */
  get writes(): boolean {
    return (this.#writes ??= this.step.tool === undefined || stepWrites(this.step.tool, this.step.args, this.owner.tools, this.owner.policy));
  }

  /**
   * Every string held under a path-argument name, at any depth (see core/paths.ts `pathArguments`, whose
   * reading this is), for the step's own path names. A fresh array: callers may add to it.
   */
  pathArguments(): PathArgument[] {
    const names = this.pathNames;
    if (this.#paths?.names !== names) this.#paths = { names, out: pathArguments(this.step, names) };
    return this.#paths.out.slice();
  }
}

/** The facts of one validation. */
export class PlanFacts {
  readonly #steps = new Map<Step, StepFacts>();
  /** The one path resolver of this validation. */
  readonly paths: PathService;

  constructor(
    readonly policy: Policy,
    readonly tools: ToolRegistry | undefined,
    files: FileProbe,
  ) {
    this.paths = createPathService(policy.workspace, files);
  }

  readonly #derived = new Map<symbol, Map<object, unknown>>();

  /**
   * What a group of rules derives from a plan once per validation (the TeDDy simulation, the analysed
   * command lines): made on first use under `key`, for the plan given (a nested plan has its own).
   */
  derive<T>(key: symbol, plan: object, make: () => T): T {
    let byPlan = this.#derived.get(key);
    if (!byPlan) {
      byPlan = new Map();
      this.#derived.set(key, byPlan);
    }
    if (byPlan.has(plan)) return byPlan.get(plan) as T;
    const value = make();
    byPlan.set(plan, value);
    return value;
  }

  /** A step's facts, built on first use. */
  step(step: Step): StepFacts {
    let f = this.#steps.get(step);
    if (!f) {
      f = new StepFacts(step, this);
      this.#steps.set(step, f);
    }
    return f;
  }
}

/** Builds the facts of one validation of a plan (the engine's; the guard's for the calls it checks). */
export function planFacts(_plan: Plan, policy: Policy, tools: ToolRegistry | undefined, files: FileProbe): PlanFacts {
  return new PlanFacts(policy, tools, files);
}
