/** Is the value a plain object (not an array, not null)? */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/**
 * JSON-ish type name for messages ("must be a string, not an integer"). `integers: false` names every
 * number "a number" (where the format does not tell integers apart).
 */
export function typeName(value: unknown, options: { integers?: boolean } = {}): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return "a string";
  if (typeof value === "number") return options.integers !== false && Number.isInteger(value) ? "an integer" : "a number";
  if (typeof value === "boolean") return "a boolean";
  return typeof value;
}
