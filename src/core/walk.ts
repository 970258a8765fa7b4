import { childPointer, type Pointer } from "./pointer.js";

/** Argument names that carry file content or free text, not instructions to the executor. */
export const CONTENT_ARGUMENTS = new Set([
  "content", "contents", "text", "body", "data", "code", "source_code", "patch", "diff", "find", "replace",
  "old_string", "new_string", "old_str", "new_str", "old_text", "new_text", "message", "prompt", "template", "description",
]);

/** A string somewhere in a step's arguments, with the name of the argument that holds it. */
export interface ArgString {
  at: Pointer;
  /** The nearest key above the value. */
  name: string;
  value: string;
  /** Is it (under) a content argument such as `content` or `replace`? */
  content: boolean;
}

// Several rules scan the same arguments: walk each arguments object once per pointer.
const stringsCache = new WeakMap<object, { at: Pointer; out: ArgString[] }>();

/** Every string in an arguments object, depth-first in source order. */
export function argumentStrings(args: Record<string, unknown>, at: Pointer): readonly ArgString[] {
  const hit = stringsCache.get(args);
  if (hit && hit.at === at) return hit.out;
  const out: ArgString[] = [];
  stringsCache.set(args, { at, out });
  const visit = (value: unknown, p: Pointer, name: string, content: boolean, depth: number) => {
    if (depth > 64) return;
    if (typeof value === "string") out.push({ at: p, name, value, content });
    else if (Array.isArray(value)) for (let i = 0; i < value.length; i++) visit(value[i], childPointer(p, i), name, content, depth + 1);
    else if (value !== null && typeof value === "object") {
      // An argument constraint's values (a `$literal`, `$enum` members) and patterns (`$glob`, `$regex`)
      // are read under the argument's own name, so every rule judges them as that argument.
      const entries = Object.entries(value);
      const only = entries.length === 1 ? entries[0]![0] : undefined;
      if (only === "$literal" || only === "$enum" || only === "$glob" || only === "$regex") {
        visit(entries[0]![1], childPointer(p, only), name, content, depth + 1);
        return;
      }
      for (const [k, v] of entries) visit(v, childPointer(p, k), k, content || CONTENT_ARGUMENTS.has(k.toLowerCase()), depth + 1);
    }
  };
  visit(args, at, "", false, 0);
  return out;
}

/** Every key anywhere under a value, with its pointer and value. */
export function allKeys(value: unknown, at: Pointer, depth = 0, out: { at: Pointer; key: string; value: unknown }[] = []) {
  if (depth > 64 || value === null || typeof value !== "object") return out;
  if (Array.isArray(value)) for (let i = 0; i < value.length; i++) allKeys(value[i], childPointer(at, i), depth + 1, out);
  else
    for (const [k, v] of Object.entries(value)) {
      out.push({ at: childPointer(at, k), key: k, value: v });
      allKeys(v, childPointer(at, k), depth + 1, out);
    }
  return out;
}
