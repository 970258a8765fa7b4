import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cache = new Map<string, Record<string, unknown>>();

/**
 * A published JSON Schema from the package's schemas/ folder (generated from the typebox definitions
 * and kept in sync by the drift check). Reading the JSON keeps typebox out of start-up.
 */
export function publishedSchema(name: string): Record<string, unknown> {
  let s = cache.get(name);
  if (!s) {
    s = JSON.parse(readFileSync(new URL(`../../schemas/${name}.schema.json`, import.meta.url), "utf8")) as Record<string, unknown>;
    cache.set(name, s);
  }
  return s;
}

/** Where a published schema file is on this machine (inside the installed package). */
export function publishedSchemaPath(name: string): string {
  return fileURLToPath(new URL(`../../schemas/${name}.schema.json`, import.meta.url));
}
