import type { Policy } from "./policy.js";
import type { ToolRegistry } from "./tools.js";
import { compiledFrom } from "./compiled.js";
import { foldLetters } from "./lookalike.js";

/** MCP tool annotations, as far as the writer decision reads them. */
export interface ToolAnnotations {
  readOnlyHint?: unknown;
  destructiveHint?: unknown;
}

function lowerSet(list: readonly string[]): Set<string> {
  return compiledFrom("lower", list, () => new Set(list.map((t) => t.toLowerCase())));
}

/**
 * Does a tool change files? Decided by effect, failing closed:
 * 1. a writer if the policy lists it in `tools.write`;
 * 2. else as the registry's MCP annotations say: a writer for `readOnlyHint: false` or
 *    `destructiveHint: true`, or for either hint spelt other than as a boolean (`"true"`, `1`); a reader
 *    for `readOnlyHint: true`;
 * 3. else a reader if the policy lists it in `tools.read` (defaults: `read_file`, `list_dir`, `grep`,
 *    `Read`, `Glob`, the Markdown `READ`, …);
 * 4. otherwise a writer: a tool whose effect nothing tells (`text_editor`, `sed`, `tee`, an unknown
 *    tool) is assumed to write.
 * Names compare without case; the registry is the operator's, so its annotations are trusted.
 */
export function isWriteTool(tool: string, registry: ToolRegistry | undefined, policy: Pick<Policy, "tools">): boolean {
  return writerReason(tool, registry, policy) !== undefined;
}

/** Why a tool is taken to write: `listed` in `tools.write`, `annotated` so by the registry, or `unknown`: nothing says it only reads. */
export type WriterReason = "listed" | "annotated" | "unknown";

/** Why a tool is taken to write (see isWriteTool and WriterReason), or undefined for a reader. */
export function writerReason(tool: string, registry: ToolRegistry | undefined, policy: Pick<Policy, "tools">): WriterReason | undefined {
  const lower = tool.toLowerCase();
  if (lowerSet(policy.tools.write).has(lower)) return "listed";
  const hints = registry?.annotations?.get(tool);
  if (hints) {
    // Only the booleans the MCP schema defines count as said: `"true"`, `1` or `"no"` tell nothing for sure,
    // so a hint in any other spelling makes the tool a writer rather than letting tools.read decide.
    const ro = hints.readOnlyHint;
    const destructive = hints.destructiveHint;
    if (ro === false || destructive === true) return "annotated";
    if ((ro !== undefined && ro !== true) || (destructive !== undefined && destructive !== false)) return "annotated";
    if (ro === true) return undefined;
  }
  return lowerSet(policy.tools.read ?? []).has(lower) ? undefined : "unknown";
}

/**
 * Argument names whose value is what a tool writes: a reader given one writes after all. Compared without
 * case or separators (`file_text`, `fileText`, `file-text` are one name): `newString`, `new_source` (a
 * notebook cell), `edits` (a list of replacements), `replacement`.
 */
const WRITTEN_CONTENT = new Set(["content", "contents", "filetext", "newstring", "newstr", "newtext", "inserttext", "patch", "append"]);
/** Further names of what a tool writes, counted when they hold text, a list or an object (not a flag). */
const WRITTEN_TEXT = new Set(["newcontent", "newcontents", "newsource", "newcode", "newvalue", "edits", "replacement", "replacewith", "diff", "insert"]);

/**
 * An argument name without case or separators: `file_text`, `fileText` and `File-Text` are `filetext`;
 * letters are folded first (see foldLetters), so `content` in full-width letters or with a Cyrillic U+043E is
 * `content`, as an executor that normalises its argument names reads them.
 */
const bareName = (name: string) => foldLetters(name).replace(/[^A-Za-z0-9]+/g, "").toLowerCase();
/** Last words of argument names that say where a tool writes (`output`, `out_file`, `saveAs`, `to`, `dest`). */
const WRITE_TARGETS = new Set(["output", "out", "outfile", "outdir", "outpath", "dest", "dst", "destination", "to", "save", "saveas", "write", "writeto"]);

const targetMemo = new Map<string, boolean>();
/** Does an argument name say where a tool writes (`output`, `out_file`, `saveAs`, `write_to`)? Such an argument is a path argument. */
export function isWriteTarget(name: string): boolean {
  let hit = targetMemo.get(name);
  if (hit === undefined) {
    const words = nameWords(name);
    // `output_path`, `out_file`, `save_as`, `write_to`: the writing word may come before a path word.
    hit = words.some((w, i) => WRITE_TARGETS.has(w) || (i > 0 && WRITE_TARGETS.has(words[i - 1]! + w)));
    if (targetMemo.size < 4096) targetMemo.set(name, hit);
  }
  return hit;
}

/**
 * Verbs that say a tool changes files, as the first word of a switch's name (`overwrite`, `create_if_missing`,
 * `save_to_disk`) or a word of an operation's value (`command: "create"`, `op: "write"`, `action: "str_replace"`).
 */
const WRITE_VERBS = new Set([
  "write", "overwrite", "append", "create", "truncate", "save", "delete", "remove", "unlink", "erase", "wipe", "rename", "move", "copy",
  "mkdir", "mkdirs", "makedirs", "touch", "chmod", "chown", "insert", "replace", "update", "edit", "modify", "patch", "store", "persist",
  "dump", "export", "upload", "download", "apply", "fix", "inplace", "purge", "clean", "prune", "clear",
]);
/** Further words an operation's value says it writes with (`op: "put"`, `action: "rm"`, `method: "DELETE"`). */
const OPERATION_VERBS = new Set([...WRITE_VERBS, "put", "post", "set", "del", "rm", "mv", "cp", "new"]);
/** Words after a switch's verb that name what it writes or when (`create_if_missing`, `overwrite_existing`, `write_back`). */
const SWITCH_OBJECTS = new Set([
  "file", "files", "existing", "output", "outputs", "result", "results", "change", "changes", "all", "back", "disk", "to", "if", "missing", "not",
  "exists", "exist", "in", "place", "dir", "dirs", "directory", "directories", "folder", "folders", "parent", "parents", "it", "path", "paths",
  "target", "always", "anyway", "now", "new",
]);
/** Names of an argument that says how a file is opened (`mode: "w"`, `flags: "a+"`, `permissions: "0755"`). */
const MODE_NAMES = new Set(["mode", "openmode", "filemode", "fmode", "flag", "flags", "openflags", "fileflags", "access", "accessmode", "permission", "permissions", "perms"]);
/** Names of an argument that says what a tool does (`command: "create"`, `op: "write"`). */
const OPERATION_NAMES = new Set(["command", "cmd", "op", "operation", "action", "method", "verb", "subcommand"]);
/** Values of a switch that say no. */
const FALSY = new Set(["", "false", "no", "off", "0", "n", "none", "never", "null", "disabled"]);

/** An argument name's words, lower case (`createIfMissing`, `create-if-missing` are `create if missing`). */
function nameWords(name: string): string[] {
  return foldLetters(name).replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
}

/** Does a switch's name say it makes the tool write (`overwrite`, `create_if_missing`, `in_place`)? */
function isWriteSwitch(name: string, bare: string): boolean {
  if (bare === "inplace" || bare === "writable") return true;
  const words = nameWords(name);
  return words.length > 0 && WRITE_VERBS.has(words[0]!) && words.slice(1).every((w) => SWITCH_OBJECTS.has(w));
}

/** Is a value set: true, a non-zero number, a text other than no/false/off, a non-empty list or object? */
function isSet(v: unknown): boolean {
  if (typeof v === "boolean") return v;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "string") return !FALSY.has(v.trim().toLowerCase());
  if (Array.isArray(v)) return v.length > 0;
  return v !== null && typeof v === "object" && Object.keys(v).length > 0;
}

/**
 * Does a mode say the file is written: an open mode with `w`, `a`, `x` or `+` (`"w"`, `"ab"`, `"r+"`, Node's
 * `"wx"`), a word of writing (`"write"`, `"read_write"`, `"O_WRONLY|O_CREAT"`, `"append"`), permissions
 * (`"0755"`, `"u+x"`: a chmod or a file created), or a non-zero number (flags past O_RDONLY, or permission bits)?
 */
function modeWrites(v: unknown): boolean {
  if (typeof v === "number") return v !== 0;
  if (typeof v !== "string") return false;
  const t = v.trim().toLowerCase();
  // Python's open() modes and Node's flags: `r`, `rb`, `rt`, `rs` read; everything else in them writes.
  if (/^(?:[rwxa][bt]?\+?|[rwxa]\+[bt]|rs\+?|sa\+?|as\+?|wx\+?|xw\+?|ax\+?|xa\+?|rw|wo)$/.test(t)) return /[wxa+]/.test(t);
  if (/^0?[0-7]{3,4}$/.test(t) || /^[ugoa]*[-+=][rwxXst]+$/i.test(v.trim())) return true;
  return /write|wronly|rdwr|creat|trunc|append|overwrite|update|replace|delete|remove|edit|save|insert|excl/.test(t);
}

/** Does an operation's value name a write (`"create"`, `"str_replace"`, `"undo_edit"`, `"PUT"`)? */
function operationWrites(v: unknown): boolean {
  if (typeof v !== "string" || v.length > 256) return false;
  return nameWords(v).some((w) => OPERATION_VERBS.has(w));
}

/**
 * The name of an argument that says a step writes, whatever its tool is called, or undefined: a content
 * argument (`content`, `file_text`, `new_string`, …), an output argument (`output`, `out_file`, `dest`,
 * `to`, …) holding something path-like (a separator, a dot, a `~`, a `file:` URL), a mode that opens for
 * writing (`mode: "w"`, `flags: "a+"`, `permissions: "0755"`), an operation that writes (`command:
 * "create"`, `op: "write"`, `action: "delete"`), or a switch that is on (`overwrite: true`,
 * `create_if_missing: true`, `in_place: true`, `replace: "text"`), at any depth. A tool the registry or
 * `tools.read` calls a reader, given `{path: .git/hooks/pre-commit, content: …}`, `{path: in.txt, output:
 * .git/config}` or `{path: .env, mode: "a"}`, is judged by what it is asked to do, and so is one the
 * registry marks read-only (the hint is its author's claim). Names are compared with their letters folded
 * (bareName). `targets`: arguments the tool's registry schema describes as where it writes (schemaWriteTargets).
 */
export function writeArgument(args: unknown, options: { targets?: ReadonlySet<string> } = {}, depth = 0): string | undefined {
  if (depth > 64) return "(nested too deep)";
  if (args === null || typeof args !== "object") return undefined;
  // The arguments the tool's registry schema describes as where it writes (schemaWriteTargets), by their own name.
  if (depth === 0 && options.targets !== undefined && options.targets.size > 0 && !Array.isArray(args))
    for (const k of options.targets) {
      const v = Object.hasOwn(args, k) ? (args as Record<string, unknown>)[k] : undefined;
      if (typeof v === "string" ? v.trim() !== "" : v !== null && typeof v === "object") return k;
    }
  if (Array.isArray(args)) {
    for (const v of args) {
      const hit = writeArgument(v, options, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const record = args as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    // An own `__proto__` key (JSON.parse makes one) is read as a property, not through the accessor.
    const v = k === "__proto__" ? Object.getOwnPropertyDescriptor(record, k)?.value : record[k];
    if (v === undefined || v === null) continue;
    const kind = nameKind(k);
    if (kind !== 0) {
      if ((kind & CONTENT) !== 0 || ((kind & TEXT) !== 0 && (typeof v === "string" || typeof v === "object"))) return k;
      if ((kind & TARGET) !== 0 && (typeof v === "string" ? /[/\\.~:%]/.test(v) : typeof v === "object")) return k;
      if ((kind & MODE) !== 0 && modeWrites(v)) return k;
      if ((kind & OPERATION) !== 0 && operationWrites(v)) return k;
      // A path under a switch's name (`export: ".env"`) is where the tool writes, or what it reads: the
      // path rules judge it as such (a reader's is refused when protected), not as a switch turned on.
      if ((kind & SWITCH) !== 0 && isSet(v) && (typeof v === "string" ? !/[/\\]|^\s*[.~]/.test(v) : typeof v !== "object" || (!Array.isArray(v) && (kind & TARGET) === 0))) return k;
    }
    if (typeof v === "object") {
      const hit = writeArgument(v, options, depth + 1);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

const CONTENT = 1;
const TEXT = 2;
const TARGET = 4;
const MODE = 8;
const OPERATION = 16;
const SWITCH = 32;
/** A file's text under any text (FILE_TEXT), a list of its lines (FILE_LINES), text of several lines (FILE_TEXT_MULTILINE). */
const FILE_ALWAYS = 64;
const FILE_LINE_LIST = 128;
const FILE_MULTILINE = 256;
const kindMemo = new Map<string, number>();
/** What an argument's name can say of a write (the bits above; 0 for a name that says nothing), worked out once a name. */
function nameKind(name: string): number {
  let kind = kindMemo.get(name);
  if (kind === undefined) {
    const bare = bareName(name);
    kind =
      (WRITTEN_CONTENT.has(bare) ? CONTENT : 0) |
      (WRITTEN_TEXT.has(bare) ? TEXT : 0) |
      (isWriteTarget(name) ? TARGET : 0) |
      (MODE_NAMES.has(bare) ? MODE : 0) |
      (OPERATION_NAMES.has(bare) ? OPERATION : 0) |
      (isWriteSwitch(name, bare) ? SWITCH : 0) |
      (FILE_TEXT.has(bare) || isEncodedText(name) ? FILE_ALWAYS : 0) |
      (FILE_LINES.has(bare) ? FILE_LINE_LIST : 0) |
      (FILE_TEXT_MULTILINE.has(bare) ? FILE_MULTILINE : 0);
    if (kindMemo.size < 4096) kindMemo.set(name, kind);
  }
  return kind;
}

/** Words of a tool's name that say it writes, besides WRITE_VERBS (`mcp__fs__put`, `git_commit`, `tee`). */
const TOOL_WRITE_WORDS = new Set([...WRITE_VERBS, "put", "set", "commit", "push", "sync", "tee", "sed", "editor", "writer", "install", "generate", "render", "emit", "archive", "extract", "unpack", "clone", "checkout", "restore", "format", "mutate", "change", "transform", "mv", "cp", "rm"]);

/** Does a tool's name say it writes (a word of it is a writing verb: `save_report`, `fs.putObject`, `mcp__fs__move`)? */
export function nameSaysWrite(tool: string): boolean {
  return nameWords(tool).some((w) => TOOL_WRITE_WORDS.has(w));
}

/** Does an arguments object carry a write, whatever its tool is called (see writeArgument)? */
export function argumentsWrite(args: unknown): boolean {
  return writeArgument(args) !== undefined;
}

/** Does a step write: its tool is a writer (isWriteTool), or its arguments ask for a write (argumentsWrite)? */
export function stepWrites(tool: string, args: unknown, registry: ToolRegistry | undefined, policy: Pick<Policy, "tools">): boolean {
  return isWriteTool(tool, registry, policy) || argumentsWrite(args);
}

/** Bound on the subschemas looked through in one tool's input schema (a registry's schema may be large or cyclic). */
const MAX_SCHEMA_NODES = 2048;

/** The value a local JSON pointer (`#/$defs/Mode`, `#/definitions/A`, `#`) names in a schema, or undefined. */
function localRef(root: unknown, ref: string): unknown {
  if (!ref.startsWith("#")) return undefined;
  let node = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    } catch {
      return undefined;
    }
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/**
 * A schema and every subschema that applies with it to the same value: its local `$ref` (`#/$defs/X`,
 * `#/definitions/X`), `allOf`, and the alternatives of `anyOf` and `oneOf` (any of them may be the one
 * that applies), followed to any depth within the budget.
 */
function alike(root: unknown, node: unknown, out: Record<string, unknown>[], seen: Set<object>, budget: { left: number }, alternatives: Set<object>, alternative = false): void {
  if (node === null || typeof node !== "object" || Array.isArray(node) || seen.has(node) || --budget.left < 0) return;
  seen.add(node);
  const n = node as Record<string, unknown>;
  out.push(n);
  if (alternative) alternatives.add(n);
  if (typeof n.$ref === "string") alike(root, localRef(root, n.$ref), out, seen, budget, alternatives, alternative);
  if (Array.isArray(n.allOf)) for (const sub of n.allOf as unknown[]) alike(root, sub, out, seen, budget, alternatives, alternative);
  // One alternative alone is no choice: it applies as allOf's members do.
  for (const key of ["anyOf", "oneOf"])
    if (Array.isArray(n[key])) for (const sub of n[key] as unknown[]) alike(root, sub, out, seen, budget, alternatives, alternative || (n[key] as unknown[]).length > 1);
  // A conditional's branches may apply too (their defaults count; their `const` is no default).
  for (const key of ["then", "else"]) alike(root, n[key], out, seen, budget, alternatives, true);
}

/** What a tool's input schema says of each argument, found through $ref, allOf, anyOf and oneOf (see alike). */
interface SchemaArguments {
  /** The subschemas of each argument. */
  readonly properties: ReadonlyMap<string, readonly Record<string, unknown>[]>;
  /** The subschemas that are one alternative of an anyOf or oneOf: their `const` or `enum` is no default. */
  readonly alternatives: ReadonlySet<object>;
  /** Whether the schema had more subschemas than are looked through. */
  readonly exhausted: boolean;
  readonly root: unknown;
  /** The arguments of each object argument, found when first needed. */
  readonly nested: Map<string, SchemaArguments | null>;
}

const schemaMemo = new WeakMap<object, SchemaArguments>();

function argumentsOf(root: unknown, node: unknown): SchemaArguments {
  const budget = { left: MAX_SCHEMA_NODES };
  const properties = new Map<string, Record<string, unknown>[]>();
  const alternatives = new Set<object>();
  const at: Record<string, unknown>[] = [];
  alike(root, node, at, new Set(), budget, alternatives);
  for (const s of at) {
    const props = s.properties;
    if (props === null || typeof props !== "object" || Array.isArray(props)) continue;
    for (const [name, p] of Object.entries(props as Record<string, unknown>)) {
      const list = properties.get(name) ?? [];
      alike(root, p, list, new Set(), budget, alternatives);
      properties.set(name, list);
    }
  }
  return { properties, alternatives, exhausted: budget.left < 0, root, nested: new Map() };
}

/** The arguments of a tool's input schema (memoised per schema object). */
function schemaArguments(schema: unknown): SchemaArguments | undefined {
  if (schema === null || typeof schema !== "object") return undefined;
  let found = schemaMemo.get(schema);
  if (found === undefined) schemaMemo.set(schema, (found = argumentsOf(schema, schema)));
  return found;
}

/** The arguments of an object argument's schema, or null when its subschemas describe none. */
function nestedArguments(args: SchemaArguments, name: string): SchemaArguments | null {
  let found = args.nested.get(name);
  if (found === undefined) {
    const list = args.properties.get(name) ?? [];
    found = list.some((s) => s.properties !== undefined) ? argumentsOf(args.root, { allOf: list }) : null;
    args.nested.set(name, found);
  }
  return found;
}

/**
 * The values a schema gives an argument left out: each `default` (one in an alternative too), and a `const`
 * or the one member of an `enum` that every value must be.
 */
function defaultsOf(list: readonly Record<string, unknown>[], alternatives: ReadonlySet<object>): unknown[] {
  const out: unknown[] = [];
  for (const s of list) {
    if (s.default !== undefined) out.push(s.default);
    if (alternatives.has(s)) continue;
    if (s.const !== undefined) out.push(s.const);
    if (Array.isArray(s.enum) && s.enum.length === 1) out.push(s.enum[0]);
  }
  return out;
}

/** The first object among an argument's defaults (what it is filled from), or an empty one. */
function objectIn(defaults: readonly unknown[]): Record<string, unknown> {
  const o = defaults.find((d) => d !== null && typeof d === "object" && !Array.isArray(d));
  return (o as Record<string, unknown> | undefined) ?? {};
}

/** The strings in a registry default (a text, or the texts of a list or object), at most 256, 64 levels deep. */
export function defaultStrings(value: unknown): string[] {
  const out: string[] = [];
  const walk = (v: unknown, depth: number) => {
    if (out.length >= 256 || depth > 64) return;
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) for (const x of v) walk(x, depth + 1);
    else if (v !== null && typeof v === "object") for (const x of Object.values(v)) walk(x, depth + 1);
  };
  walk(value, 0);
  return out;
}

/** Bound on the defaults schemaDefaults lists for one step. */
const MAX_DEFAULTS = 256;

/**
 * The values the tool's input schema gives the arguments a step leaves out (see defaultsOf), found through
 * `$ref`, `allOf`, `anyOf` and `oneOf`, and inside an object argument the step gives: each with the
 * argument's dotted place (`options.output`) and its own name (`output`). The tool uses them as if given,
 * so a path among them is judged as one the step names.
 */
export function schemaDefaults(schema: unknown, given: unknown): { argument: string; name: string; value: unknown }[] {
  const top = schemaArguments(schema);
  const out: { argument: string; name: string; value: unknown }[] = [];
  if (top === undefined) return out;
  const walk = (args: SchemaArguments, value: Record<string, unknown>, prefix: string, depth: number) => {
    for (const [name, list] of args.properties) {
      if (out.length >= MAX_DEFAULTS) return;
      if (Object.hasOwn(value, name)) {
        const v = value[name];
        if (depth < 8 && v !== null && typeof v === "object" && !Array.isArray(v)) {
          const inner = nestedArguments(args, name);
          if (inner !== null) walk(inner, v as Record<string, unknown>, `${prefix}${name}.`, depth + 1);
        }
        continue;
      }
      const found = defaultsOf(list, args.alternatives);
      for (const d of found) out.push({ argument: `${prefix}${name}`, name, value: d });
      // An object argument left out is filled with its own arguments' defaults (a nested model's defaults):
      // those its default object gives are counted above.
      const inner = depth < 8 ? nestedArguments(args, name) : null;
      if (inner !== null) walk(inner, objectIn(found), `${prefix}${name}.`, depth + 1);
    }
  };
  walk(top, given !== null && typeof given === "object" && !Array.isArray(given) ? (given as Record<string, unknown>) : {}, "", 0);
  return out;
}

/**
 * The argument a step leaves out whose default in the tool's input schema says it writes (see
 * writeArgument: `mode: {default: "w"}`, `overwrite: {const: true}`, `output: {default: ".git/x"}`), found
 * through `$ref`, `allOf`, `anyOf` and `oneOf`, and inside an object argument the step gives (`options:
 * {}` whose schema defaults `overwrite` to true), with the default (a path there is where the tool
 * writes). A schema past the bound on what is looked through counts as one that writes. Undefined when
 * none does.
 */
export function schemaDefaultWrite(schema: unknown, given: unknown): { argument: string; value?: unknown } | undefined {
  const top = schemaArguments(schema);
  if (top === undefined) return undefined;
  const targets = schemaWriteTargets(schema);
  const walk = (args: SchemaArguments, value: Record<string, unknown>, prefix: string, depth: number): { argument: string; value?: unknown } | undefined => {
    if (args.exhausted) return { argument: `${prefix}(a schema too large to read through)` };
    for (const [name, list] of args.properties) {
      if (Object.hasOwn(value, name)) {
        const v = value[name];
        if (depth < 8 && v !== null && typeof v === "object" && !Array.isArray(v)) {
          const inner = nestedArguments(args, name);
          const hit = inner === null ? undefined : walk(inner, v as Record<string, unknown>, `${prefix}${name}.`, depth + 1);
          if (hit !== undefined) return hit;
        }
        continue;
      }
      const found = defaultsOf(list, args.alternatives);
      for (const d of found) if (writeArgument({ [name]: d }, { targets: depth === 0 ? targets : undefined }) !== undefined) return { argument: `${prefix}${name}`, value: d };
      // An object argument left out is filled with its own arguments' defaults, as one given empty is.
      const inner = depth < 8 ? nestedArguments(args, name) : null;
      const hit = inner === null ? undefined : walk(inner, objectIn(found), `${prefix}${name}.`, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  };
  return walk(top, given !== null && typeof given === "object" && !Array.isArray(given) ? (given as Record<string, unknown>) : {}, "", 0);
}

/**
 * Words of an argument's description (or title) in a tool's input schema that say it is where the tool
 * writes: "output file", "destination path", "where to save", "path to write to", "the file the report is
 * written to".
 */
const WRITE_DESCRIPTION = [
  /\b(?:output|destination|target|save|export|dump|backup)\s+(?:file|path|dir|directory|folder|location)/i,
  /\b(?:file|path|dir|directory|folder|location)\s+(?:to\s+(?:write|save|store|create|export|dump|overwrite)\b|(?:where|in\s+which|into\s+which|to\s+which)\b)/i,
  /\bwhere\s+(?:to\s+)?(?:write|save|store|put|export|dump|place)\b/i,
  /\bwhere\b[^.;]{0,60}\b(?:is|are|will\s+be|gets?|get)\s+(?:written|saved|stored|exported|dumped|created|placed)\b/i,
  /\b(?:written|saved|stored|exported|dumped)\s+(?:to|into|at|under)\s+(?:this|the\s+given|the\s+named)\b/i,
  /\b(?:file|path|dir|directory|folder|location)\b[^.;:]{0,40}\b(?:is|are|will\s+be|gets?)\s+(?:written|saved|stored|exported|dumped)\b/i,
];

const targetsMemo = new WeakMap<object, ReadonlySet<string>>();
const NO_TARGETS: ReadonlySet<string> = new Set();

/**
 * The arguments a tool's input schema describes as where it writes (see WRITE_DESCRIPTION), whatever
 * their names (`report: {description: "File the report is written to"}`): a path given there is written,
 * whatever the tool's annotations claim.
 */
export function schemaWriteTargets(schema: unknown): ReadonlySet<string> {
  const args = schemaArguments(schema);
  if (args === undefined || schema === null || typeof schema !== "object") return NO_TARGETS;
  let found = targetsMemo.get(schema);
  if (found === undefined) {
    const out = new Set<string>();
    for (const [name, list] of args.properties)
      if (list.some((s) => [s.description, s.title].some((t) => typeof t === "string" && t.length <= 4096 && WRITE_DESCRIPTION.some((re) => re.test(t))))) out.add(name);
    targetsMemo.set(schema, (found = out.size === 0 ? NO_TARGETS : out));
  }
  return found;
}

/**
 * Words of an argument's description (or title) in a tool's input schema that say the tool reads what it
 * names or looks for it: "file to read", "input file", "path of the file to search", "text to search
 * for", "search term". A description that also says the argument is written (WRITE_DESCRIPTION) is no
 * reading one.
 */
const READ_DESCRIPTION = [
  /\b(?:file|path|dir|directory|folder|document|location)\b[^.;:]{0,40}\bto\s+(?:read|search|view|open|list|inspect|scan|load|analy[sz]e|parse|check|lint|compare|diff|validate|hash|count|summari[sz]e)\b/i,
  /\b(?:input|source)\s+(?:file|path|dir|directory|folder|document)\b/i,
  /\b(?:read|searched|scanned|loaded|parsed)\s+(?:from|in)\b/i,
  /\b(?:text|string|term|terms|pattern|query|regex|regular\s+expression|words?|phrase|keywords?)\s+to\s+(?:search|find|look|match|grep)\b/i,
  /\bsearch\s+(?:text|term|terms|string|query|pattern|phrase|keywords?)\b/i,
];

/**
 * Words of a description that say the argument is changed too, however worded ("Input file to read and
 * then overwrite", "File to read. Output is written here too", "path of the file to check (will be
 * replaced)"): a description with any of them is no reading one.
 */
const CHANGE_WORDS =
  /\b(?:writ(?:e|es|ten|ing)|wrote|overwrit\w*|re-?writ\w*|sav(?:e|es|ed|ing)|stor(?:e|es|ed|ing)|replac\w*|modif\w*|updat\w*|edit\w*|chang\w*|creat\w*|append\w*|truncat\w*|delet\w*|remov\w*|insert\w*|patch\w*|fix\w*|format\w*|mov(?:e|es|ed|ing)|renam\w*|copy|copie[sd]|export\w*|dump\w*|emit\w*|generat\w*|output\w*|result\w*|destination|target|in[\s-]+place|back\s+up|backup)\b/i;

const readMemo = new WeakMap<object, ReadonlySet<string>>();

/**
 * The arguments a tool's input schema describes as what it reads or looks for (see READ_DESCRIPTION),
 * whatever their names (`report: {description: "Input file to read"}`, `text: {description: "Text to
 * search for"}`): a reader given a protected path or text there is taken to read it. One the schema also
 * describes as where the tool writes (schemaWriteTargets) is not.
 */
export function schemaReadArguments(schema: unknown): ReadonlySet<string> {
  const args = schemaArguments(schema);
  if (args === undefined || schema === null || typeof schema !== "object") return NO_TARGETS;
  let found = readMemo.get(schema);
  if (found === undefined) {
    const writes = schemaWriteTargets(schema);
    const out = new Set<string>();
    for (const [name, list] of args.properties) {
      if (writes.has(name)) continue;
      // Every description and title of the argument counts: one that says it is changed, or that is too
      // long to read through, makes it no reading argument, whatever another says.
      const texts = list.flatMap((s) => [s.description, s.title]).filter((t): t is string => typeof t === "string");
      if (texts.some((t) => t.length > 4096 || CHANGE_WORDS.test(foldLetters(t)))) continue;
      if (texts.some((t) => READ_DESCRIPTION.some((re) => re.test(foldLetters(t))))) out.add(name);
    }
    readMemo.set(schema, (found = out.size === 0 ? NO_TARGETS : out));
  }
  return found;
}

/**
 * Names of arguments that hold the text of a file, compared without case or separators: given beside a
 * path, by any text (`body`, `lines`, `source_code`, `file_content`, `file_data`), a tool writes that text
 * there, whatever it claims of reading. A list of lines counts under them too, but not line numbers
 * (`lines: "1-20"`, `lines: [1, 20]`: what a reader shows).
 */
const FILE_TEXT = new Set([
  "body", "sourcecode", "filecontent", "filecontents", "filedata", "filebody", "textcontent", "rawtext", "filestring", "payload", "snippet", "template",
  "blob", "rawcontent", "rawcontents", "rawdata", "filetemplate", "filesnippet", "filepayload", "fileblob",
]);
/**
 * Words of a name that say its text is encoded (`contents_b64`, `data_base64`, `fileHex`, `body_encoded`): with
 * a word of a file's text, or alone (`base64`, `b64`), such a name holds a file's text.
 */
const ENCODED_WORDS = new Set(["b64", "base64", "base64url", "hex", "encoded", "bytes"]);
const TEXT_WORDS = new Set(["content", "contents", "data", "text", "body", "file", "source", "code", "blob", "payload", "raw", "bytes", "lines"]);
/** Is a name an encoded file text's (`contents_b64`, `dataBase64`, `base64`)? */
function isEncodedText(name: string): boolean {
  const words = nameWords(name);
  if (!words.some((w) => ENCODED_WORDS.has(w) && w !== "bytes") && !(words.includes("bytes") && words.length > 1)) return false;
  return words.length === 1 || words.some((w) => TEXT_WORDS.has(w));
}
/** Names of a file's lines: a list of texts (not line numbers) under them is a file's text, and so is a text of several lines. */
const FILE_LINES = new Set(["lines", "filelines", "newlines", "textlines"]);
/**
 * Names that hold a file's text or something a reader looks for (`text: "TODO"` beside a path is a search;
 * `data` a value to check, `code` an error code, `source` a file read): their text counts as a file's only
 * when it holds a line break, as file text does and a search term does not.
 */
const FILE_TEXT_MULTILINE = new Set([
  "text", "data", "code", "source", "sourcetext", "value", "message", "string", "str", "src", "raw", "json", "yaml", "yml", "toml", "xml", "ini",
  "markdown", "md", "html", "script", "document", "doc",
]);
/** Line numbers or ranges (`12`, `1-20`, `10:`, `5,9`), what a reader's `lines` argument shows. */
const LINE_NUMBERS = /^\s*\d*\s*(?:[-:,.]+\s*\d*\s*)*$/;
export const LINE_BREAK = /[\n\r\u0085\u2028\u2029]/;

/** Is an argument name one of a file's text (FILE_TEXT or FILE_TEXT_MULTILINE)? */
export function isFileTextName(name: string): boolean {
  return (nameKind(name) & (FILE_ALWAYS | FILE_LINE_LIST | FILE_MULTILINE)) !== 0;
}

/**
 * The name of an argument, at any depth, that holds the text of a file (see FILE_TEXT, FILE_LINES
 * and FILE_TEXT_MULTILINE): a text or a list of texts. With `loose`, any text that is not line numbers under
 * either kind of name counts, one line of it too (`{path: ".env", data: "TOKEN=x"}`). `exempt`: names the
 * tool's registry schema describes as what it reads or looks for (schemaReadArguments). `besides`: whether
 * a text under a name is other than the path it is to be written to (`{source: ".env", data: "A=1\nB=2"}`:
 * `source` is the path, `data` the text).
 */
export function fileTextArgument(args: unknown, exempt: ReadonlySet<string>, loose = false, besides: (name: string, text: string) => boolean = () => true, depth = 0): string | undefined {
  if (depth > 64 || args === null || typeof args !== "object") return undefined;
  if (Array.isArray(args)) {
    for (const v of args) {
      const hit = fileTextArgument(v, exempt, loose, besides, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  const record = args as Record<string, unknown>;
  for (const k of Object.keys(record)) {
    const v = k === "__proto__" ? Object.getOwnPropertyDescriptor(record, k)?.value : record[k];
    if (v === undefined || v === null) continue;
    const kind = nameKind(k);
    const always = (kind & FILE_ALWAYS) !== 0;
    const lines = (kind & FILE_LINE_LIST) !== 0;
    if ((kind & (FILE_ALWAYS | FILE_LINE_LIST | FILE_MULTILINE)) !== 0 && !exempt.has(k)) {
      const list = Array.isArray(v);
      const texts = typeof v === "string" ? [v] : list ? v.filter((x): x is string => typeof x === "string") : [];
      if (texts.some((t) => t.trim() !== "" && !LINE_NUMBERS.test(t) && (always || loose || (lines && list) || LINE_BREAK.test(t)) && besides(k, t))) return k;
    }
    if (typeof v === "object") {
      const hit = fileTextArgument(v, exempt, loose, besides, depth + 1);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}
