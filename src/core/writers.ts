import type { Policy } from "../policy/types.js";
import type { ToolRegistry } from "./tools.js";

/** MCP tool annotations, as far as the writer decision reads them. */
export interface ToolAnnotations {
  readOnlyHint?: unknown;
  destructiveHint?: unknown;
}

const lowerSets = new WeakMap<readonly string[], Set<string>>();
function lowerSet(list: readonly string[]): Set<string> {
  let s = lowerSets.get(list);
  if (!s) {
    s = new Set(list.map((t) => t.toLowerCase()));
    lowerSets.set(list, s);
  }
  return s;
}

/**
 * Does a tool change files? Decided by effect, failing closed:
 * 1. a writer if the policy lists it in `tools.write`;
 * 2. else as the registry's MCP annotations say: a writer for `readOnlyHint: false` or
 *    `destructiveHint: true`, a reader for `readOnlyHint: true`;
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
    if (hints.readOnlyHint === false || hints.destructiveHint === true) return true;
    if (hints.readOnlyHint === true) return false;
  }
  return !lowerSet(policy.tools.read ?? []).has(lower);
}
