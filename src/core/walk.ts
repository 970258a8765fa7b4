import { childPointer, type Pointer } from "./pointer.js";

/** Argument names that carry file content or free text, not instructions to the executor. */
export const CONTENT_ARGUMENTS = new Set([
  "content", "contents", "text", "body", "data", "code", "source_code", "patch", "diff", "find", "replace",
  "old_string", "new_string", "old_str", "new_str", "old_text", "new_text", "message", "prompt", "template", "description",
]);

/**
 * The keys anywhere under a value that `pick` accepts (given the key and its value), with their pointers
 * (made only for the keys picked), depth-first in source order.
 */
export function keysWhere(value: unknown, at: Pointer, pick: (key: string, value: unknown) => boolean): { at: Pointer; key: string; value: unknown }[] {
  const out: { at: Pointer; key: string; value: unknown }[] = [];
  const trail: (string | number)[] = [];
  const pointer = () => {
    let p = at;
    for (let i = 0; i < trail.length; i++) p = childPointer(p, trail[i]!);
    return p;
  };
  const visit = (v: unknown, depth: number) => {
    if (depth > 64 || v === null || typeof v !== "object") return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        trail.push(i);
        visit(v[i], depth + 1);
        trail.pop();
      }
      return;
    }
    const members = v as Record<string, unknown>;
    const keys = Object.keys(members);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const child = members[k];
      trail.push(k);
      if (pick(k, child)) out.push({ at: pointer(), key: k, value: child });
      visit(child, depth + 1);
      trail.pop();
    }
  };
  visit(value, 0);
  return out;
}
