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
  const patterns: string[] = [];
  const names = new Set<string>();
  for (const e of entries) {
    if (e.includes("*") || e.includes("?")) patterns.push(e);
    else names.add(e);
  }
  return { names, patterns, schemas: new Map(), source };
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

/** Work left for closest() to compare names: table cells of the edit distances it computes. */
export interface HintBudget {
  left: number;
}

/**
 * Levenshtein distance, bounded: max + 1 as soon as it exceeds max. Only the cells within `max` of the
 * diagonal are computed (a cell farther off is more than max), so a pair costs (2 max + 1) cells per
 * character of `a`, not the product of the lengths; `budget` is charged the cells computed.
 */
export function editDistance(a: string, b: string, max = 8, budget?: HintBudget): number {
  const n = a.length;
  const m = b.length;
  if (Math.abs(n - m) > max) return max + 1;
  const big = max + 1;
  let prev = new Int32Array(m + 1);
  let cur = new Int32Array(m + 1);
  for (let j = 0; j <= m; j++) prev[j] = j <= max ? j : big;
  for (let i = 1; i <= n; i++) {
    const lo = Math.max(1, i - max);
    const hi = Math.min(m, i + max);
    if (budget !== undefined) budget.left -= hi - lo + 1;
    cur[0] = i <= max ? i : big;
    if (lo > 1) cur[lo - 1] = big;
    let rowMin = cur[0]!;
    const ca = a.charCodeAt(i - 1);
    for (let j = lo; j <= hi; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      let v = prev[j - 1]! + cost;
      const up = j <= i - 1 + max ? prev[j]! + 1 : big;
      const left = cur[j - 1]! + 1;
      if (up < v) v = up;
      if (left < v) v = left;
      if (v > big) v = big;
      cur[j] = v;
      if (v < rowMin) rowMin = v;
    }
    if (hi < m) cur[hi + 1] = big;
    if (rowMin > max) return big;
    [prev, cur] = [cur, prev];
  }
  return Math.min(prev[m]!, big);
}

/**
 * The closest candidate to a name, if one is close enough to be a likely typo. With a `budget`, the
 * comparisons stop when it is spent (a hint, not a check: a plan naming thousands of unknown tools against
 * a registry of thousands took minutes), and the closest found so far is given.
 */
export function closest(name: string, candidates: Iterable<string>, budget?: HintBudget): string | undefined {
  const limit = Math.max(1, Math.min(4, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestD = limit + 1;
  const lower = name.toLowerCase();
  for (const c of candidates) {
    if (budget !== undefined && (budget.left -= 1 + c.length) <= 0) break;
    const d = c.toLowerCase() === lower ? 0.5 : editDistance(lower, c.toLowerCase(), limit, budget);
    if (d < bestD || (d === bestD && best !== undefined && c < best)) {
      best = c;
      bestD = d;
    }
  }
  return bestD <= limit ? best : undefined;
}
