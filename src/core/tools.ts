import type { ToolAnnotations } from "./writers.js";

/** The tools a plan may call: names, and the input schema of each where the registry has one. */
export interface ToolRegistry {
  names: ReadonlySet<string>;
  /** Glob patterns of allowed names (policy `tools.allow` entries with `*` or `?`). */
  patterns: readonly string[];
  schemas: ReadonlyMap<string, unknown>;
  /** MCP annotations (`readOnlyHint`, `destructiveHint`) of the tools that have them: see isWriteTool. */
  annotations?: ReadonlyMap<string, ToolAnnotations>;
  /** Where the names came from, for messages. */
  source: string;
  /** Where each name is listed (`tools.txt:3`, `tools.json tools[2]`), for messages about a name listed twice. */
  places?: ReadonlyMap<string, string>;
}

/** How messages name the policy's allow list. */
export const ALLOW_SOURCE = "the policy's tools.allow";

/** A registry from a list of names, where entries with `*` or `?` are globs. */
export function registryFromNames(entries: readonly string[], source: string): ToolRegistry {
  const patterns = entries.filter((e) => e.includes("*") || e.includes("?"));
  return { names: new Set(entries.filter((e) => !patterns.includes(e))), patterns, schemas: new Map(), source };
}

/** Reads the intake protocol's whitelist format: one tool a line, `#` comments, blank lines ignored. */
export function parseToolWhitelist(text: string): string[] {
  const names: string[] = [];
  for (const raw of text.split(/\r\n|\r|\n/)) {
    const hash = raw.indexOf("#");
    const line = (hash >= 0 ? raw.slice(0, hash) : raw).trim();
    if (line !== "") names.push(line);
  }
  return names;
}

/** Levenshtein distance, bounded: returns max+1 as soon as the distance exceeds max. */
export function editDistance(a: string, b: string, max = 8): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/** The closest candidate to a name, if one is close enough to be a likely typo. */
export function closest(name: string, candidates: Iterable<string>): string | undefined {
  const limit = Math.max(1, Math.min(4, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestD = limit + 1;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(lower, c.toLowerCase(), limit);
    if (d < bestD || (d === bestD && best !== undefined && c < best)) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= limit ? best : undefined;
}
