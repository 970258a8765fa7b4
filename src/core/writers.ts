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
  const lower = tool.toLowerCase();
  if (lowerSet(policy.tools.write).has(lower)) return true;
  const hints = registry?.annotations?.get(tool);
  if (hints) {
    // Only the booleans the MCP schema defines count as said: `"true"`, `1` or `"no"` tell nothing for sure,
    // so a hint in any other spelling makes the tool a writer rather than letting tools.read decide.
    const ro = hints.readOnlyHint;
    const destructive = hints.destructiveHint;
    if (ro === false || destructive === true) return true;
    if ((ro !== undefined && ro !== true) || (destructive !== undefined && destructive !== false)) return true;
    if (ro === true) return false;
  }
  return !lowerSet(policy.tools.read ?? []).has(lower);
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
 * Does an arguments object carry a write, whatever its tool is called: a content argument
 * (`content`, `file_text`, `new_string`, …) or an output argument (`output`, `out_file`, `dest`, `to`, …)
 * holding something path-like (a separator, a dot, a `~`, a `file:` URL) at any depth? A tool the
 * registry or `tools.read` calls a reader, given `{path: .git/hooks/pre-commit, content: …}` or
 * `{path: in.txt, output: .git/config}`, is judged by what it is asked to do.
 */
export function argumentsWrite(args: unknown, depth = 0): boolean {
  if (depth > 64 || args === null || typeof args !== "object") return depth > 64;
  if (Array.isArray(args)) return args.some((v) => argumentsWrite(v, depth + 1));
  for (const [k, v] of Object.entries(args)) {
    if (v === undefined || v === null) continue;
    const bare = bareName(k);
    if (WRITTEN_CONTENT.has(bare) || (WRITTEN_TEXT.has(bare) && (typeof v === "string" || typeof v === "object"))) return true;
    if (isWriteTarget(k) && (typeof v === "string" ? /[/\\.~:%]/.test(v) : typeof v === "object")) return true;
    if (typeof v === "object" && argumentsWrite(v, depth + 1)) return true;
  }
  return false;
}

/** Does a step write: its tool is a writer (isWriteTool), or its arguments ask for a write (argumentsWrite)? */
export function stepWrites(tool: string, args: unknown, registry: ToolRegistry | undefined, policy: Pick<Policy, "tools">): boolean {
  return isWriteTool(tool, registry, policy) || argumentsWrite(args);
}
