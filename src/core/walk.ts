import { childPointer, type Pointer } from "./pointer.js";

/** Argument names that carry file content or free text, not instructions to the executor. */
export const CONTENT_ARGUMENTS = new Set([
  "content", "contents", "text", "body", "data", "code", "source_code", "patch", "diff", "find", "replace",
  "old_string", "new_string", "old_str", "new_str", "old_text", "new_text", "message", "prompt", "template", "description",
]);

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
