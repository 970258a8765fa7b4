import { childPointer, type Pointer } from "../src/core/pointer.js";

/** Every pointer into a JSON value, the root included. */
export function collectPointers(value: unknown, at: Pointer = "", out: Pointer[] = []): Pointer[] {
  out.push(at);
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) collectPointers(value[i], childPointer(at, i), out);
  }
  else if (typeof value === "object" && value !== null)
    for (const [k, v] of Object.entries(value)) collectPointers(v, childPointer(at, k), out);
  return out;
}
