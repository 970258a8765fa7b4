import type { FileProbe } from "./file-probe.js";
import { createPathService, type PathService } from "./path-service.js";
import type { Plan, Step } from "./plan.js";
import type { Policy } from "./policy.js";
import { childPointer, type Pointer } from "./pointer.js";
import { isFileUrl, isFolderName, isPathName, isRemoteUrl, MAX_ARGUMENT_DEPTH, mayBeFileName, pathNamesFor, TOO_NESTED, type PathArgument } from "./paths.js";
import type { ToolRegistry } from "./tools.js";
import { CONTENT_ARGUMENTS } from "./walk.js";
import { mayBePatch, patchPaths } from "./patch-paths.js";
import { fileTextArgument, isFileTextName, LINE_BREAK, schemaDefaultWrite, schemaReadArguments, schemaWriteTargets, writeArgument, writerReason, type WriterReason } from "./writers.js";
import { PlanWork, readingUnits } from "./work.js";

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
  /** The object or array that holds the place, and the place's key or index in it. */
  readonly container: object | undefined;
  readonly token: string | number;
  pointer?: Pointer;
}

/** The slot of a member or element. */
function slotIn(parent: Slot | undefined, container: object, token: string | number): Slot {
  return { parent, container, token };
}

/** The slot of a place given by its parent and its container's key (the parent itself at the root). */
function slotAt(parent: Slot, container: object | undefined, token: string | number): Slot {
  return container === undefined ? parent : slotIn(parent, container, token);
}

/** A slot's pointer, made on first use; a root slot holds its pointer from the start (rootSlot). */
function pointerOf(slot: Slot): Pointer {
  if (slot.pointer !== undefined) return slot.pointer;
  const p = childPointer(slot.parent ? pointerOf(slot.parent) : "", slot.token);
  slot.pointer = p;
  return p;
}

/** The slot of a step's arguments object itself, at its pointer. */
function rootSlot(at: Pointer): Slot {
  return { parent: undefined, container: undefined, token: "", pointer: at };
}

/** What an ArgLeaf is besides its tags (LeafTag's bits stay below these), packed into one number. */
const CONTENT = 1 << 8;
const FROM_PATCH = 1 << 9;
const GLOB = 1 << 10;
const REGEX = 1 << 11;

/** A leaf's tags and marks in one number (see ArgLeaf). */
function leafBits(tags: number, content: boolean, constraint?: "$glob" | "$regex", fromPatch = false): number {
  return tags | (content ? CONTENT : 0) | (fromPatch ? FROM_PATCH : 0) | (constraint === "$glob" ? GLOB : constraint === "$regex" ? REGEX : 0);
}

/**
 * A string in a step's arguments (a value, or an object key), with the name of the argument that holds it.
 * Three fields and one number: a 10,000-step plan holds about 80,000 of them through its validation.
 */
export class ArgLeaf implements PathArgument {
  readonly #slot: Slot;
  readonly #bits: number;
  constructor(
    slot: Slot,
    /** The nearest key above the value (the key itself, for a key). */
    readonly name: string,
    readonly value: string,
    bits: number,
  ) {
    this.#slot = slot;
    this.#bits = bits;
  }
  /** Is it (under) a content argument such as `content` or `replace`? */
  get content(): boolean {
    return (this.#bits & CONTENT) !== 0;
  }
  /** The leaf's LeafTag bits. */
  get tags(): number {
    return this.#bits & 0xff;
  }
  /** For a path argument: the value is the pattern of this argument constraint, not a path. */
  get constraint(): "$glob" | "$regex" | undefined {
    const b = this.#bits;
    return (b & GLOB) !== 0 ? "$glob" : (b & REGEX) !== 0 ? "$regex" : undefined;
  }
  /** For a path argument: the value is a file name read from the patch text at this place. */
  get fromPatch(): boolean {
    return (this.#bits & FROM_PATCH) !== 0;
  }
  /** The JSON pointer of the value (of the value a key names, for a key), made on first use. */
  get at(): Pointer {
    return pointerOf(this.#slot);
  }
  /** The place the leaf names: its container and key, the same for a value and for a path argument there. */
  get slot(): Slot {
    return this.#slot;
  }
  /** Does the leaf have any of these tags? */
  has(tags: number): boolean {
    return (this.#bits & tags) !== 0;
  }
  /** Is the value printable ASCII without a space or a `:` (mayBeFileName's `word`: nothing to trim, no URL)? */
  isPlainWord(): boolean {
    return (this.#bits & (LeafTag.Space | LeafTag.Hidden | LeafTag.PathLike)) === 0;
  }
}

/** The tags of a text, in one pass. */
export function tagsOf(text: string): number {
  let tags = 0;
  const n = text.length;
  if (n === 0) return 0;
  // A leading . or ~, also after spaces an executor may trim.
  let first = text.charCodeAt(0);
  if (first <= 0x20 || first >= 0x80) {
    const lead = text.search(/\S/);
    first = lead < 0 ? 0 : text.charCodeAt(lead);
  }
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
      case 0x3a: // :
        tags |= LeafTag.PathLike;
        break;
      case 0x25: // % (percent-encoding, and Windows' %NAME%)
        tags |= LeafTag.PathLike | LeafTag.Placeholder;
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

/** A value inside structured text (StepFacts.embedded), with the name of the argument whose text holds it. */
export interface EmbeddedLeaf {
  readonly outer: string;
  readonly leaf: ArgLeaf;
}

/** Why a step writes (StepFacts.writeReason). */
export type StepWriteReason =
  | { kind: "untyped" }
  | { kind: WriterReason }
  /**
   * `value`: the default the tool's registry schema gives the argument, which the step leaves out; `text`:
   * the argument holds a file's text beside a path (core/writers.ts `fileTextArgument`).
   */
  | { kind: "argument" | "download" | "text"; argument: string; reader: boolean; value?: unknown };

/** What one step's arguments hold, walked once. */
export class StepFacts {
  /** Every string value in the arguments, depth-first in source order (argument constraints read as the argument). */
  readonly strings: readonly ArgLeaf[];
  /** Every object key in the arguments outside content arguments, depth-first, at the pointer of the value it names. */
  readonly keys: readonly ArgLeaf[];
  #paths?: ArgLeaf[];
  #pathSlots?: Map<string, Set<string>>;
  #ids?: Map<object, number>;
  #writes?: boolean;
  #writeReason?: StepWriteReason | null;
  #names?: ReadonlySet<string>;
  #folders?: readonly ArgLeaf[];
  #embedded?: readonly EmbeddedLeaf[];
  readonly #lists: readonly { slot: Slot; name: string; parts: readonly string[] }[];

  constructor(
    readonly step: Step,
    private readonly owner: PlanFacts,
  ) {
    const strings: ArgLeaf[] = [];
    const keys: ArgLeaf[] = [];
    const lists: { slot: Slot; name: string; parts: readonly string[] }[] = [];
    const visit = (value: unknown, slot: Slot, name: string, content: boolean, depth: number) => {
      if (depth > 64) return;
      if (typeof value === "string") {
        strings.push(new ArgLeaf(slot, name, value, leafBits(tagsOf(value), content)));
        return;
      }
      if (value === null || typeof value !== "object") return;
      if (Array.isArray(value)) {
        if (!content && value.length >= 2 && value.length <= MAX_JOINED_PARTS && typeof value[0] === "string" && value.every((v) => typeof v === "string" && v.trim() !== ""))
          lists.push({ slot, name, parts: value as string[] });
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          if (typeof v === "string" || (v !== null && typeof v === "object")) visit(v, slotIn(slot, value, i), name, content, depth + 1);
        }
        return;
      }
      // Object.keys rather than entries: one array per object, not one per member (this walks every step).
      const names = Object.keys(value);
      const members = value as Record<string, unknown>;
      // An argument constraint's values (a `$literal`, `$enum` members) and patterns (`$glob`, `$regex`)
      // are read under the argument's own name, so every rule judges them as that argument.
      if (names.length === 1) {
        const only = names[0]!;
        if (only === "$literal" || only === "$enum" || only === "$glob" || only === "$regex") {
          const s = slotIn(slot, value, only);
          if (!content) keys.push(new ArgLeaf(s, only, only, tagsOf(only)));
          visit(members[only], s, name, content, depth + 1);
          return;
        }
      }
      for (let i = 0; i < names.length; i++) {
        const k = names[i]!;
        const v = members[k];
        const s = slotIn(slot, value, k);
        const inContent = content || CONTENT_ARGUMENTS.has(k.toLowerCase());
        if (!inContent) keys.push(new ArgLeaf(s, k, k, tagsOf(k)));
        visit(v, s, k, inContent, depth + 1);
      }
    };
    if (step.args !== null && typeof step.args === "object") visit(step.args, rootSlot(step.argsAt), "", false, 0);
    this.strings = strings;
    this.keys = keys;
    this.#lists = lists;
  }

  /** The value at a leaf's place: for a key, the value it names. */
  valueAt(leaf: ArgLeaf): unknown {
    const slot = leaf.slot;
    return slot.container === undefined ? this.step.args : (slot.container as Record<string | number, unknown>)[slot.token];
  }

  /**
   * The lists of 2 to 64 names (non-empty strings) outside content, at any depth: an executor that joins
   * them (`{path: [".claude", "settings.json"]}`, `{segments: [...]}`) opens one path. With their pointers.
   */
  stringLists(): readonly { at: Pointer; name: string; parts: readonly string[] }[] {
    return this.#lists.length === 0 ? NO_LISTS : this.#lists.map((l) => ({ at: pointerOf(l.slot), name: l.name, parts: l.parts }));
  }

  /**
   * The values held inside structured text in an argument, outside content: a JSON object or list
   * (`{"config": "{\"path\": \".git/config\"}"}`), and the `key: value` and `key=value` pairs of YAML,
   * TOML, INI or option text (`"path: .git/config"`, `"--out=.git/config"`), each under its own key and
   * at the place of the text that holds it. An executor that parses the text opens those paths.
   */
  embedded(): readonly EmbeddedLeaf[] {
    if (this.#embedded) return this.#embedded;
    // Past the validation's bound on values read from inside strings (limit-exceeded), none are read.
    if (this.owner.work.spent("derivedValues")) return (this.#embedded = NO_EMBEDDED);
    const out: EmbeddedLeaf[] = [];
    const strings = this.strings;
    for (let i = 0; i < strings.length; i++) {
      const a = strings[i]!;
      if (a.content || a.constraint !== undefined || a.value.length > MAX_EMBEDDED_TEXT || !(a.value.includes(":") || a.value.includes("=") || a.has(LeafTag.Placeholder)) || !EMBEDDED_HINT.test(a.value)) continue;
      const add = (name: string, value: string) => {
        if (out.length < MAX_EMBEDDED) out.push({ outer: a.name, leaf: new ArgLeaf(a.slot, name, value, tagsOf(value)) });
      };
      const text = a.value.trim();
      let parsed: unknown;
      if (/^[{[]/.test(text)) {
        try {
          parsed = JSON.parse(text);
        } catch {
          parsed = undefined;
        }
      }
      if (parsed !== null && typeof parsed === "object") {
        const walk = (v: unknown, name: string, depth: number) => {
          if (depth > MAX_ARGUMENT_DEPTH) return;
          if (typeof v === "string") add(name, v);
          else if (Array.isArray(v)) for (const x of v) walk(x, name, depth + 1);
          else if (v !== null && typeof v === "object")
            for (const [k, x] of Object.entries(v)) {
              if (CONTENT_ARGUMENTS.has(k.toLowerCase())) continue;
              add("", k);
              walk(x, k, depth + 1);
            }
        };
        walk(parsed, a.name, 0);
        continue;
      }
      for (const piece of text.split(/[\n\r,;{}[\]]+/)) {
        const m = EMBEDDED_PAIR.exec(piece);
        if (!m || CONTENT_ARGUMENTS.has(m[1]!.toLowerCase())) continue;
        // A `key=value` pair's value ends at a blank (`TMPDIR=tmp go test`); a `key: value` one at the line's end.
        const raw = m[3]!.trim();
        const value = (m[2] === "=" ? /^(?:"[^"]*"|'[^']*'|\S)+/.exec(raw)![0] : raw).replace(/^(["'])([^]*)\1$/, "$2");
        if (value !== "") add(m[1]!, value);
      }
    }
    // Each value is checked as a path by the path rules, as a value of the document is, but the document's
    // bound on values does not count them: a plan of 64 MiB held 11 million of them (30 s, 2.7 GB).
    if (out.length > 0 && !this.owner.work.spend("derivedValues", unitsOf(out.map((e) => e.leaf.value)), () => ({ step: this.step.position, at: out[0]!.leaf.at }))) return (this.#embedded = NO_EMBEDDED);
    return (this.#embedded = out);
  }

  /**
   * What a folder of the step may move (see folders): the path arguments `keep` admits (a patch's
   * files are not moved), and every other string outside content that may be a bare file name.
   */
  joinable(args: Iterable<ArgLeaf>, keep: (a: ArgLeaf) => boolean): Set<ArgLeaf> {
    const joined = new Set<ArgLeaf>();
    for (const a of args) if (!a.fromPatch && keep(a)) joined.add(a);
    for (const a of this.strings) if (!a.content && !joined.has(a) && mayBeFileName(a.name, a.value, a.isPlainWord()) && !this.isPathArgument(a, true)) joined.add(a);
    return joined;
  }

  /**
   * The folders the step names that its other relative paths may be read from: each distinct string under
   * a folder name (`cwd`, `workdir`, `workingDirectory`, `dir`, `root`, `options.cwd`, ...; see
   * isFolderName) at any depth, outside content, other than the root itself (`.`) and URLs.
   */
  folders(): readonly ArgLeaf[] {
    if (this.#folders) return this.#folders;
    const seen = new Set<string>();
    const out: ArgLeaf[] = [];
    const strings = this.strings;
    for (let i = 0; i < strings.length; i++) {
      const a = strings[i]!;
      if (a.content || !isFolderName(a.name)) continue;
      const v = a.value.trim().replace(/[/\\]+$/, "");
      if (v === "" || v === "." || seen.has(v) || isRemoteUrl(v)) continue;
      seen.add(v);
      out.push(a);
    }
    return (this.#folders = out);
  }

  /** The step's path argument names: the policy's, plus those its tool's schema marks `format: "path"`. */
  get pathNames(): ReadonlySet<string> {
    return (this.#names ??= pathNamesFor(this.step.tool, this.owner.policy.paths.arguments, this.owner.tools?.schemas));
  }

  /** Does the step write (its tool, or its arguments), decided once? */
  get writes(): boolean {
    return (this.#writes ??= this.writeReason !== undefined);
  }

  /**
   * Why the step writes, decided once, or undefined when it only reads: it has no tool; its tool writes
   * (`listed` in tools.write, `annotated` so by the registry); an argument says it writes (core/writers.ts
   * `writeArgument`: `content`, `output: x/y`, `mode: "w"`, `overwrite: true`, `command: "create"`, or an
   * argument the tool's registry schema describes as where it writes), or one it leaves out whose default
   * in that schema does (schemaDefaultWrite); or it fetches a URL beside a path argument, which names where
   * the download is saved (`{url: "https://...", file: ".env"}`); or it gives a file's text beside a path
   * (`{path: "run.sh", body: "..."}`, `data` or `text` of several lines: core/writers.ts
   * `fileTextArgument`); or, short of all these, nothing says its
   * tool only reads (`unknown`: not in tools.read, no readOnlyHint). A tool the registry marks read-only is
   * judged by its arguments too (all but a path beside a URL): the hint is its author's claim, and an
   * argument that says the step writes outweighs it.
   */
  get writeReason(): StepWriteReason | undefined {
    if (this.#writeReason !== undefined) return this.#writeReason ?? undefined;
    const tool = this.step.tool;
    let reason: StepWriteReason | undefined;
    if (tool === undefined) reason = { kind: "untyped" };
    else {
      const byTool = this.owner.toolWriterReason(tool);
      if (byTool === "listed" || byTool === "annotated") reason = { kind: byTool };
      else {
        const schema = this.owner.tools?.schemas.get(tool);
        const given = writeArgument(this.step.args, { targets: schemaWriteTargets(schema) });
        const byDefault = given === undefined ? schemaDefaultWrite(schema, this.step.args) : undefined;
        const argument = given ?? byDefault?.argument;
        // A path beside a URL is where a download is saved, unless the registry marks the tool read-only:
        // then it may as well be what is compared with the page (a secret sent out is protected-path-write's).
        const vouched = byTool === undefined && this.owner.tools?.annotations?.get(tool)?.readOnlyHint === true;
        const saved = argument === undefined && !vouched ? this.#downloadTarget() : undefined;
        const reader = byTool === undefined;
        // A file's text beside a path (`{path: "run.sh", body: "..."}`, `data` of several lines) is written
        // there, whatever the tool claims of reading.
        const text = argument === undefined && saved === undefined && this.mayHoldFileText() && this.#besidePath() ? fileTextArgument(this.step.args, schemaReadArguments(schema), false, this.#notAPath()) : undefined;
        if (argument !== undefined) reason = byDefault?.value !== undefined ? { kind: "argument", argument, reader, value: byDefault.value } : { kind: "argument", argument, reader };
        else if (saved !== undefined) reason = { kind: "download", argument: saved, reader };
        else if (text !== undefined) reason = { kind: "text", argument: text, reader };
        else if (byTool !== undefined) reason = { kind: byTool };
      }
    }
    this.#writeReason = reason ?? null;
    return reason;
  }

  /**
   * Does the step name a path (not one read from a patch, nor a file's text of several lines under a name
   * like `source`)? A path under such a name counts (`{source: ".env", data: "A=1\nB=2"}`).
   */
  #besidePath(): boolean {
    const paths = this.pathArgs;
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      if (!p.fromPatch && p.value.trim() !== "" && !(isFileTextName(p.name) && LINE_BREAK.test(p.value)) && !isRemoteUrl(p.value.trim())) return true;
    }
    return false;
  }

  /**
   * Whether a text under a name of file text is other than one of the step's paths (a path is one line:
   * `source: ".env"` is where `data` is written, not what is written).
   */
  #notAPath(): (name: string, text: string) => boolean {
    // Made on first use: most steps hold no text under such a name, and never ask.
    let paths: Set<string> | undefined;
    return (name, text) => {
      if (LINE_BREAK.test(text)) return true;
      paths ??= new Set(this.pathArgs.map((p) => `${p.name}\0${p.value}`));
      return !paths.has(`${name}\0${text}`);
    };
  }

  /**
   * Can the arguments hold a file's text (fileTextArgument)? Only under a name of file text: none among
   * the keys the walk listed means none, unless some are under a content argument, which it leaves out.
   */
  mayHoldFileText(): boolean {
    if (this.#fileText === undefined) {
      let may = false;
      const keys = this.keys;
      for (let i = 0; i < keys.length && !may; i++) if (isFileTextName(keys[i]!.value)) may = true;
      const strings = this.strings;
      for (let i = 0; i < strings.length && !may; i++) if (strings[i]!.content) may = true;
      this.#fileText = may;
    }
    return this.#fileText;
  }
  #fileText?: boolean;

  /** The notAPath predicate, for rules. */
  notAPath(): (name: string, text: string) => boolean {
    return this.#notAPath();
  }

  /** The name of a path argument beside a web URL (a download's target), or undefined. */
  #downloadTarget(): string | undefined {
    const strings = this.strings;
    let url = false;
    for (let i = 0; i < strings.length && !url; i++) {
      const a = strings[i]!;
      if (!a.content && /^(?:https?|ftps?|s3|gs):\/\//i.test(a.value.trim())) url = true;
    }
    if (!url) return undefined;
    const paths = this.pathArgs;
    for (let i = 0; i < paths.length; i++) {
      const p = paths[i]!;
      if (p.constraint === undefined && p.value.trim() !== "" && !isRemoteUrl(p.value.trim())) return p.name;
    }
    return undefined;
  }

  /**
   * Every string held under a path-argument name (see core/paths.ts `isPathName`), at any depth of the
   * step's arguments (an `edits` list of `{path}` objects is as much a path as a top-level `path`); lists
   * of strings count too, and so do the keys of an object under such a name (`files: {"a.txt": "…"}`). A
   * `file:` URL is a path under any name, as a value or as a key. An argument constraint is judged by the
   * values it admits: a `$literal` and each `$enum` member as the value itself, a `$glob` or `$regex` by
   * its pattern (marked), under the argument's own name; `$schema` and `$any` are argument-constraint's.
   * A fresh array: callers may add to it.
   */
  pathArguments(): ArgLeaf[] {
    return (this.#paths ??= this.#walkPaths()).slice();
  }

  /** The path arguments (see pathArguments), not copied: for a caller that only reads them. */
  get pathArgs(): readonly ArgLeaf[] {
    return (this.#paths ??= this.#walkPaths());
  }

  /**
   * Is there a path argument at this leaf's place (the value there, or the key naming it); with `sameValue`,
   * one whose text is the leaf's?
   */
  isPathArgument(leaf: ArgLeaf, sameValue = false): boolean {
    const paths = (this.#paths ??= this.#walkPaths());
    const slot = leaf.slot;
    if (paths.length <= SCAN_PATHS) {
      // Few path arguments (the usual case): compare the places directly, with nothing to build.
      for (let i = 0; i < paths.length; i++) {
        const a = paths[i]!;
        if (a.slot.container === slot.container && a.slot.token === slot.token && (!sameValue || a.value === leaf.value)) return true;
      }
      return false;
    }
    if (!this.#pathSlots) {
      this.#pathSlots = new Map();
      for (const a of paths) {
        const key = this.#slotKey(a.slot);
        const values = this.#pathSlots.get(key);
        if (values) values.add(a.value);
        else this.#pathSlots.set(key, new Set([a.value]));
      }
    }
    const values = this.#pathSlots.get(this.#slotKey(slot));
    return values !== undefined && (!sameValue || values.has(leaf.value));
  }

  /** A place's identity: its container's and its key's, so two walks' slots for one place compare equal. */
  #slotKey(slot: Slot): string {
    if (slot.container === undefined) return "";
    const ids = (this.#ids ??= new Map());
    let id = ids.get(slot.container);
    if (id === undefined) {
      id = ids.size;
      ids.set(slot.container, id);
    }
    return `${id}\u0000${slot.token}`;
  }

  #walkPaths(): ArgLeaf[] {
    const names = this.pathNames;
    // A patch text names the files it writes: read under any argument but file content or free text
    // (`content` of a write is what the file will hold), and under every argument of a tool that patches.
    const patching = this.step.tool !== undefined && PATCHING_TOOL.test(this.step.tool);
    const work = this.owner.work;
    const out: ArgLeaf[] = [];
    const add = (slot: Slot, name: string, value: string, constraint?: "$glob" | "$regex", fromPatch = false) =>
      out.push(new ArgLeaf(slot, name, value, leafBits(tagsOf(value), false, constraint, fromPatch)));
    // A place's slot is made only where something is found there or below it: most members hold no path.
    const visit = (value: unknown, parent: Slot, container: object | undefined, token: string | number, name: string | undefined, depth: number) => {
      if (depth > MAX_ARGUMENT_DEPTH) {
        // Deeper than any walk goes: what is down there cannot be shown to be safe.
        if (typeof value === "string" || (value !== null && typeof value === "object")) add(slotAt(parent, container, token), name ?? "", TOO_NESTED);
        return;
      }
      if (typeof value === "string") {
        if (name !== undefined && (isPathName(name, names) || isFileUrl(value))) add(slotAt(parent, container, token), name, value);
        else if ((patching || !CONTENT_ARGUMENTS.has((name ?? "").toLowerCase()) || PATCH_ARGUMENTS.has((name ?? "").toLowerCase())) && mayBePatch(value)) {
          const slot = slotAt(parent, container, token);
          // The names count toward the validation's bound on values read from inside strings (limit-exceeded):
          // past it they are not read.
          if (work.spent("derivedValues")) return;
          const names = patchPaths(value);
          if (names.length > 0 && !work.spend("derivedValues", unitsOf(names), () => ({ step: this.step.position, at: pointerOf(slot) }))) return;
          for (const p of names) add(slot, name ?? "", p, undefined, true);
        }
      } else if (Array.isArray(value)) {
        const slot = slotAt(parent, container, token);
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          if (typeof v === "string" || (v !== null && typeof v === "object")) visit(v, slot, value, i, name, depth + 1);
        }
      } else if (value !== null && typeof value === "object") {
        const slot = slotAt(parent, container, token);
        const members = value as Record<string, unknown>;
        const keys = Object.keys(members);
        if (keys.length === 1 && keys[0]!.startsWith("$")) {
          const k = keys[0]!;
          const v = members[k];
          if (k === "$literal" || k === "$enum") return visit(v, slot, value, k, name, depth + 1);
          if (k === "$glob" || k === "$regex") {
            if (typeof v === "string" && name !== undefined && isPathName(name, names)) add(slotIn(slot, value, k), name, v, k);
            return;
          }
          if (k === "$schema" || k === "$any") return;
        }
        // A map under a path name (`files: {"a.txt": "…"}`) names its paths by its keys.
        const keyed = name !== undefined && isPathName(name, names);
        for (let i = 0; i < keys.length; i++) {
          const k = keys[i]!;
          const v = members[k];
          if (keyed || isFileUrl(k)) {
            const s = slotIn(slot, value, k);
            add(s, name ?? k, k);
            if (typeof v === "string" || (v !== null && typeof v === "object")) visit(v, slot, value, k, k, depth + 1);
          } else if (typeof v === "string" || (v !== null && typeof v === "object")) visit(v, slot, value, k, k, depth + 1);
        }
      }
    };
    visit(this.step.args, rootSlot(this.step.argsAt), undefined, "", undefined, 0);
    return out;
  }
}

/** Text that may hold structured values: a JSON object or list, or a `key: value` or `key=value` pair. */
const EMBEDDED_HINT = /^\s*[{[]|[A-Za-z0-9_"'](?::\s|\s*=)/;
/** A `key: value` (YAML's colon and blank), `key = value` or `--key=value` pair of a piece of text. */
const EMBEDDED_PAIR = /^\s*(?:-\s+|--?)?["']?([A-Za-z_][\w.-]*)["']?\s*(:\s|=)\s*(\S[^]*)$/;
/** Longest text read for structured values, and most values read from one step's texts. */
const MAX_EMBEDDED_TEXT = 64 * 1024;
const MAX_EMBEDDED = 4096;
const NO_LISTS: readonly { at: Pointer; name: string; parts: readonly string[] }[] = [];
const NO_EMBEDDED: readonly EmbeddedLeaf[] = [];

/** What some texts read from inside a string cost the validation's `derivedValues` (core/work.ts): one each, and one per 256 characters. */
function unitsOf(texts: readonly string[]): number {
  let n = 0;
  for (const t of texts) n += readingUnits(t.length);
  return n;
}
/** Positions up to this one are indexed by an array in PlanFacts.step (a plan has at most limits.maxSteps). */
const MAX_POSITION = 1_000_000;
/** Up to this many path arguments, isPathArgument compares places one by one instead of indexing them. */
const SCAN_PATHS = 16;
/** Most members of a list read as the parts of one path (StepFacts.stringLists). */
const MAX_JOINED_PARTS = 64;

/** Tools whose name says they apply a patch or a diff: every argument of theirs may be one. */
const PATCHING_TOOL = /patch|diff|apply/i;
/** Content arguments that hold a patch to apply, not a file's text. */
const PATCH_ARGUMENTS = new Set(["patch", "diff"]);

/** The facts of one validation. */
export class PlanFacts {
  readonly #steps = new Map<Step, StepFacts>();
  readonly #byPosition: (StepFacts | undefined)[] = [];
  /** The one path resolver of this validation. */
  readonly paths: PathService;
  /** The work this validation may still do beyond reading its values (see core/work.ts). */
  readonly work = new PlanWork();
  /** The step whose facts were asked for last: where the path service's walks are, when they stop. */
  #current: Step | undefined;

  constructor(
    readonly policy: Policy,
    readonly tools: ToolRegistry | undefined,
    files: FileProbe,
    /** Where the plan's steps are, for work that stops before any step was asked for. */
    stepsAt: Pointer = "",
  ) {
    this.paths = createPathService(policy.workspace, files, (kind) => {
      const step = this.#current;
      this.work.stop(kind, step ? { step: step.position, at: step.at } : { at: stepsAt });
    });
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

  readonly #writers = new Map<string, WriterReason | null>();

  /** Why a tool writes (core/writers.ts `writerReason`), or undefined for a reader; decided once per tool and validation. */
  toolWriterReason(tool: string): WriterReason | undefined {
    let w = this.#writers.get(tool);
    if (w === undefined) {
      w = writerReason(tool, this.tools, this.policy) ?? null;
      this.#writers.set(tool, w);
    }
    return w ?? undefined;
  }

  /** A step's facts, built on first use. */
  step(step: Step): StepFacts {
    this.#current = step;
    // By position first (an array, not a hash table: this is asked for each step by each rule); a nested
    // step shares its parent's position, so the table keyed by step holds what the array does not.
    const p = step.position;
    const atPosition = this.#byPosition[p];
    if (atPosition !== undefined && atPosition.step === step) return atPosition;
    let f = this.#steps.get(step);
    if (!f) {
      f = new StepFacts(step, this);
      if (atPosition === undefined && Number.isSafeInteger(p) && p >= 0 && p <= MAX_POSITION) {
        while (this.#byPosition.length < p) this.#byPosition.push(undefined);
        this.#byPosition[p] = f;
      } else this.#steps.set(step, f);
    }
    return f;
  }
}

/** Builds the facts of one validation of a plan (the engine's; the guard's for the calls it checks). */
export function planFacts(plan: Plan, policy: Policy, tools: ToolRegistry | undefined, files: FileProbe): PlanFacts {
  return new PlanFacts(policy, tools, files, plan.stepsAt);
}
