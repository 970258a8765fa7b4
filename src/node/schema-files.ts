import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { join } from "node:path";
import { SCHEMAS, publishedSchema, schemaText } from "../schemas/index.js";

/** Writes every published schema into `dir` (created if needed); returns the file names written. */
export function writeSchemas(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  for (const e of SCHEMAS) writeFileSync(join(dir, e.file), schemaText(e));
  return SCHEMAS.map((e) => e.file);
}

/** One file that does not match what plangate would write. */
export interface SchemaDrift {
  file: string;
  problem: "missing" | "not-json" | "differs" | "unexpected";
  message: string;
}

/** Compares `dir` with the published schemas by parsed JSON (formatting does not count); [] means no drift. */
export function checkSchemas(dir: string): SchemaDrift[] {
  const drift: SchemaDrift[] = [];
  for (const e of SCHEMAS) {
    let text: string;
    try {
      text = readFileSync(join(dir, e.file), "utf8");
    } catch {
      drift.push({ file: e.file, problem: "missing", message: `${e.file} is missing` });
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (err) {
      drift.push({ file: e.file, problem: "not-json", message: `${e.file} is not valid JSON (${(err as Error).message})` });
      continue;
    }
    if (!isDeepStrictEqual(value, publishedSchema(e)))
      drift.push({ file: e.file, problem: "differs", message: `${e.file} differs from the schema plangate publishes` });
  }
  // A schema file plangate no longer writes is drift too: consumers would keep validating against it.
  const known = new Set(SCHEMAS.map((e) => e.file));
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".schema.json"));
  } catch {
    // A missing folder already shows as every file missing.
  }
  for (const n of names.sort())
    if (!known.has(n)) drift.push({ file: n, problem: "unexpected", message: `${n} is not a schema plangate publishes` });
  return drift;
}
