import type { RuleSetting } from "../core/diagnostic.js";

/** Limits that keep hostile input from exhausting memory or time. */
export interface Limits {
  maxFileBytes: number;
  maxDepth: number;
  maxSteps: number;
}

/** A policy with every field filled in (defaults merged, paths absolute). */
export interface Policy {
  /** Absolute workspace root. */
  workspace: string;
  tools: {
    allow: string[];
    allowFile?: string;
    registry?: string;
    deny: string[];
    write: string[];
  };
  paths: { protected: string[]; arguments: string[] };
  plan: { maxAgeDays: number; requireChecksum: boolean; allowConditionals: boolean };
  markdown: { requireSeparators: boolean };
  returns: { statuses: string[]; successStatuses: string[]; maxSummaryTokens: number; encoding: string };
  delegation: { maxDepth: number };
  limits: Limits;
  rules: Record<string, RuleSetting>;
  /** The file the policy was read from, if any. */
  source?: string;
}
