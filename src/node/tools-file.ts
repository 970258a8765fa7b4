import { readConfigText } from "./read-bounded.js";
import type { ToolRegistry } from "../core/tools.js";
import { parseToolWhitelist, registryFromNames } from "../core/tools.js";
import type { ToolAnnotations } from "../core/writers.js";
import { isObject } from "../dialects/shape.js";

/** A problem with a tools file: a usage error, reported with exit code 2. */
export class ToolsFileError extends Error {}

/**
 * Reads a tool registry: the intake protocol's whitelist (one tool a line, `#` comments) or an MCP `tools/list`
 * result (`{"tools": [{"name", "inputSchema"}]}`, or iKOMA's `parameters`), told apart by content.
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
    const names = new Set<string>();
    const schemas = new Map<string, unknown>();
    const annotations = new Map<string, ToolAnnotations>();
    list.forEach((t, i) => {
      if (!isObject(t) || typeof t.name !== "string" || t.name === "")
        throw new ToolsFileError(`${source}: tools[${i}] has no "name" string`);
      names.add(t.name);
      const schema = t.inputSchema ?? t.input_schema ?? t.parameters;
      if (schema !== undefined) schemas.set(t.name, schema);
      if (isObject(t.annotations)) annotations.set(t.name, t.annotations);
    });
    return { names, patterns: [], schemas, annotations, source };
  }
  return registryFromNames(parseToolWhitelist(body), source);
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

/** Combines registries: a tool is known if any of them knows it. */
export function mergeRegistries(regs: readonly ToolRegistry[]): ToolRegistry | undefined {
  if (regs.length === 0) return undefined;
  if (regs.length === 1) return regs[0];
  const names = new Set<string>();
  const schemas = new Map<string, unknown>();
  const annotations = new Map<string, ToolAnnotations>();
  const patterns: string[] = [];
  for (const r of regs) {
    for (const n of r.names) names.add(n);
    for (const [k, v] of r.schemas) schemas.set(k, v);
    for (const [k, v] of r.annotations ?? []) annotations.set(k, v);
    patterns.push(...r.patterns);
  }
  return { names, patterns, schemas, annotations, source: regs.map((r) => r.source).join(" and ") };
}
