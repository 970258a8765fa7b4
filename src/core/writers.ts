import type { Policy } from "./policy.js";
import type { ToolRegistry } from "./tools.js";
import { compiledFrom } from "./compiled.js";

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

/** An argument name without case or separators: `file_text`, `fileText` and `File-Text` are `filetext`. */
const bareName = (name: string) => name.replace(/[^A-Za-z0-9]+/g, "").toLowerCase();
/** Last words of argument names that say where a tool writes (`output`, `out_file`, `saveAs`, `to`, `dest`). */
const WRITE_TARGETS = new Set(["output", "out", "outfile", "outdir", "outpath", "dest", "dst", "destination", "to", "save", "saveas", "write", "writeto"]);

const targetMemo = new Map<string, boolean>();
/** Does an argument name say where a tool writes (`output`, `out_file`, `saveAs`, `write_to`)? Such an argument is a path argument. */
export function isWriteTarget(name: string): boolean {
  let hit = targetMemo.get(name);
  if (hit === undefined) {
    const words = name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
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
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== "");
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
 * .git/config}` or `{path: .env, mode: "a"}`, is judged by what it is asked to do. With `contentOnly` (a
 * tool the registry marks read-only, which the operator vouches for), only content and output arguments
 * count: a mode, an operation or a switch is the tool's to interpret.
 */
export function writeArgument(args: unknown, options: { contentOnly?: boolean } = {}, depth = 0): string | undefined {
  if (depth > 64) return "(nested too deep)";
  if (args === null || typeof args !== "object") return undefined;
  const weak = options.contentOnly !== true;
  if (Array.isArray(args)) {
    for (const v of args) {
      const hit = writeArgument(v, options, depth + 1);
      if (hit !== undefined) return hit;
    }
    return undefined;
  }
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    const bare = bareName(k);
    if (WRITTEN_CONTENT.has(bare) || (WRITTEN_TEXT.has(bare) && (typeof v === "string" || typeof v === "object"))) return k;
    if (isWriteTarget(k) && (typeof v === "string" ? /[/\\.~:%]/.test(v) : typeof v === "object")) return k;
    if (weak) {
      if (MODE_NAMES.has(bare) && modeWrites(v)) return k;
      if (OPERATION_NAMES.has(bare) && operationWrites(v)) return k;
      // A path under a switch's name (`export: ".env"`) is where the tool writes, or what it reads: the
      // path rules judge it as such (a reader's is refused when protected), not as a switch turned on.
      if (isWriteSwitch(k, bare) && isSet(v) && (typeof v === "string" ? !/[/\\]|^\s*[.~]/.test(v) : typeof v !== "object" || (!Array.isArray(v) && !isWriteTarget(k)))) return k;
    }
    if (typeof v === "object") {
      const hit = writeArgument(v, options, depth + 1);
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
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
