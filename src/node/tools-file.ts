import { readConfigText } from "./read-bounded.js";
import { looseName } from "../core/lookalike.js";
import { compileSafePattern, schemaPatterns } from "../core/regex.js";
import type { ToolRegistry } from "../core/tools.js";
import { registryFromNames } from "../core/tools.js";
import type { ToolAnnotations } from "../core/writers.js";
import { isObject } from "../core/type-name.js";
import { MAX_REGISTRY_TOOLS, registryBoundProblem } from "../policy/bounds.js";

/** A problem with a tools file: a usage error, reported with exit code 2. */
export class ToolsFileError extends Error {}

/** A tool name and where it is listed. */
interface Entry {
  name: string;
  place: string;
}

/**
 * Refuses a name listed twice, also spelt differently (case, `_`/`-`/`.` separators, look-alike letters):
 * with two entries for one name, which schema applies would depend on the order the entries are read in,
 * and two names a planner cannot tell apart are one name too many.
 */
function checkDuplicates(entries: Iterable<Entry>, seen = new Map<string, Entry>()): Map<string, Entry> {
  for (const e of entries) {
    const key = looseName(e.name);
    const first = seen.get(key);
    if (first) {
      const how = first.name === e.name ? `the tool "${e.name}" is listed twice` : `the tools "${first.name}" and "${e.name}" differ only in case, separators or look-alike letters`;
      throw new ToolsFileError(`${how}: ${first.place} and ${e.place}; keep one entry (a registry must name each tool once)`);
    }
    seen.set(key, e);
  }
  return seen;
}

function shorten(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/**
 * Most program instructions the patterns of one registry may compile to. A pattern is typically 20 to 40
 * (`^[a-z0-9_-]+$`: 25), so this allows some ten thousand; a counted repetition makes thousands from a
 * few characters (`(x|y|z){1,1000}`: 4,000, 2 MB and 8 ms to compile), and 5,000 such patterns in a
 * 650 KB registry took minutes and gigabytes.
 */
export const MAX_REGISTRY_INSTRUCTIONS = 500_000;

/**
 * Most values (objects, lists, strings, numbers, booleans, nulls) one tool's inputSchema may hold, and the
 * inputSchemas of one registry in all. ajv compiles a schema in about 50 to 150 µs a value, a little worse
 * than linearly (50,000 properties: 9.8 s and 2 GB; a 230 KB tree of `anyOf`: 11.5 s), and a step compiles
 * its tool's schema: one schema compiles in about a second at most. Real tools hold tens to hundreds of
 * values and real registries a few thousand, so several MCP servers' tools together stay well under the
 * registry's bound.
 */
export const MAX_SCHEMA_VALUES = 10_000;
export const MAX_REGISTRY_SCHEMA_VALUES = 100_000;

/** Counts down the values of a schema (iteratively: a schema may nest thousands deep); past either bound, a ToolsFileError. */
function checkSchemaSize(schema: unknown, where: string, budget: { values: number }): void {
  const over = (what: string) => new ToolsFileError(`${where} inputSchema: ${what}; list fewer tools, or shorten their schemas`);
  let own = MAX_SCHEMA_VALUES;
  const stack: unknown[] = [schema];
  while (stack.length > 0) {
    const v = stack.pop();
    if (--own < 0) throw over(`the schema holds more than ${MAX_SCHEMA_VALUES} values`);
    if (--budget.values < 0) throw over(`the registry's inputSchemas hold more than ${MAX_REGISTRY_SCHEMA_VALUES} values`);
    if (v === null || typeof v !== "object") continue;
    const inside = Object.values(v);
    if (inside.length > own) throw over(`the schema holds more than ${MAX_SCHEMA_VALUES} values`);
    for (const x of inside) stack.push(x);
  }
}

/**
 * Refuses a schema whose regular expressions cannot run in linear time (see src/core/regex.ts), or that
 * take the registry's patterns past MAX_REGISTRY_INSTRUCTIONS (`budget` counts them down).
 */
function checkPatterns(schema: unknown, where: string, budget: { left: number }): void {
  for (const { pointer, pattern } of schemaPatterns(schema)) {
    const c = compileSafePattern(pattern);
    if ("error" in c)
      throw new ToolsFileError(
        `${where} inputSchema ${pointer}: the pattern ${JSON.stringify(shorten(pattern))} cannot be used: ${c.error}; registry patterns run on a linear-time engine (RE2): rewrite it without backreferences or lookaround, or remove it`,
      );
    budget.left -= c.size;
    if (budget.left < 0)
      throw new ToolsFileError(
        `${where} inputSchema ${pointer}: the registry's patterns compile to more than ${MAX_REGISTRY_INSTRUCTIONS} instructions by the pattern ${JSON.stringify(shorten(pattern))}; replace large counted repetitions ({1,1000}) with maxLength, or remove patterns`,
      );
  }
}

/**
 * Reads a tool registry: the intake protocol's whitelist (one tool a line, `#` comments) or an MCP `tools/list`
 * result (`{"tools": [{"name", "inputSchema"}]}`, or iKOMA's `parameters`), told apart by content. A tool listed
 * twice, or a schema pattern that cannot run in linear time, is a ToolsFileError.
 */
export function parseToolsText(text: string, source: string): ToolRegistry {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const first = body.trimStart()[0];
  if (first === "{" || first === "[") {
    let doc: unknown;
    try {
      doc = JSON.parse(body);
    } catch (err) {
      throw new ToolsFileError(`${source}: not valid JSON (${(err as Error).message}); write an MCP tools/list result or one tool a line`);
    }
    const root = isObject(doc) && isObject(doc.result) ? doc.result : doc;
    const list = Array.isArray(root) ? root : isObject(root) ? root.tools : undefined;
    if (!Array.isArray(list))
      throw new ToolsFileError(`${source}: expected {"tools": [{"name": …, "inputSchema": …}]} (an MCP tools/list result)`);
    // Counted before any is read: each is kept, checked for its twins and compared with the steps' tools.
    if (list.length > MAX_REGISTRY_TOOLS) throw new ToolsFileError(`${source} ${Array.isArray(root) ? "" : "tools"}[${MAX_REGISTRY_TOOLS}]: ${registryBoundProblem(list.length, 0)}`);
    const prefix = Array.isArray(root) ? "" : "tools";
    const names = new Set<string>();
    const schemas = new Map<string, unknown>();
    const places = new Map<string, string>();
    const seen = new Map<string, Entry>();
    const annotations = new Map<string, ToolAnnotations>();
    const budget = { left: MAX_REGISTRY_INSTRUCTIONS };
    const size = { values: MAX_REGISTRY_SCHEMA_VALUES };
    list.forEach((t, i) => {
      const where = `${source} ${prefix}[${i}]`;
      if (!isObject(t) || typeof t.name !== "string" || t.name === "") throw new ToolsFileError(`${where} has no "name" string`);
      checkDuplicates([{ name: t.name, place: `${where} ("${t.name}")` }], seen);
      names.add(t.name);
      places.set(t.name, `${where} ("${t.name}")`);
      const schema = t.inputSchema ?? t.input_schema ?? t.parameters;
      if (schema !== undefined) {
        checkSchemaSize(schema, `${where} ("${t.name}")`, size);
        checkPatterns(schema, `${where} ("${t.name}")`, budget);
        schemas.set(t.name, schema);
      }
      if (isObject(t.annotations)) annotations.set(t.name, t.annotations);
    });
    return { names, patterns: [], schemas, annotations, source, places };
  }
  const entries: Entry[] = [];
  let globs = 0;
  const lines = body.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!;
    const hash = raw.indexOf("#");
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line === "") continue;
    entries.push({ name: line, place: `${source}:${i + 1}` });
    if (line.includes("*") || line.includes("?")) globs++;
    // Past a bound the rest is not read: each name is kept and checked for its twins, each glob matched against every step's tool.
    const over = registryBoundProblem(entries.length, globs);
    if (over !== undefined) throw new ToolsFileError(`${source}:${i + 1}: ${over}`);
  }
  const reg = registryFromNames(
    entries.map((e) => e.name),
    source,
  );
  checkDuplicates(entries.filter((e) => reg.names.has(e.name)));
  return { ...reg, places: new Map(entries.map((e) => [e.name, e.place])) };
}

/** Reads a tools file from disk. */
export function loadToolsFile(path: string, name: string = path): ToolRegistry {
  let text: string;
  try {
    text = readConfigText(path);
  } catch (err) {
    throw new ToolsFileError(`cannot read tools file ${name}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseToolsText(text, name);
}

/**
 * Combines registries: a tool is known if any of them knows it. A tool two registries both list is a
 * ToolsFileError naming both places: which entry would win is not something to leave to the order of files.
 */
export function mergeRegistries(regs: readonly ToolRegistry[]): ToolRegistry | undefined {
  if (regs.length === 0) return undefined;
  if (regs.length === 1) return regs[0];
  const names = new Set<string>();
  const schemas = new Map<string, unknown>();
  const places = new Map<string, string>();
  const annotations = new Map<string, ToolAnnotations>();
  const patterns: string[] = [];
  const seen = new Map<string, Entry>();
  for (const r of regs) {
    checkDuplicates(
      [...r.names].map((n) => ({ name: n, place: r.places?.get(n) ?? `${r.source} ("${n}")` })),
      seen,
    );
    for (const n of r.names) {
      names.add(n);
      places.set(n, r.places?.get(n) ?? `${r.source} ("${n}")`);
    }
    for (const [k, v] of r.schemas) schemas.set(k, v);
    for (const [k, v] of r.annotations ?? []) annotations.set(k, v);
    patterns.push(...r.patterns);
  }
  return { names, patterns, schemas, annotations, source: regs.map((r) => r.source).join(" and "), places };
}
