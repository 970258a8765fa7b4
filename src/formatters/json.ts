import type { Diagnostic } from "../core/diagnostic.js";
import type { PlanReport } from "../core/plan-report.js";
import { type FormatOptions, summarize } from "./types.js";

const DIAGNOSTIC_KEYS: readonly (keyof Diagnostic)[] = [
  "rule",
  "severity",
  "message",
  "file",
  "pointer",
  "step",
  "line",
  "column",
  "endLine",
  "endColumn",
  "expected",
  "actual",
  "hint",
];

/** One diagnostic with its members in a fixed order. */
export function diagnosticJson(d: Diagnostic): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of DIAGNOSTIC_KEYS) if (d[k] !== undefined) out[k] = d[k];
  return out;
}

/**
 * The report object of SPEC §5 (version 1), with the policy file used (null: the built-in defaults);
 * `policies`, one per report, when files were judged by different policies.
 */
export function reportJson(reports: readonly PlanReport[], options: FormatOptions & { policies?: readonly (string | null)[] } = {}) {
  const s = summarize(reports);
  const several = options.policies !== undefined && new Set(options.policies).size > 1;
  return {
    version: 1,
    policy: options.policy ?? null,
    results: reports.map((r, i) => {
      const o: Record<string, unknown> = { file: r.file ?? "-", dialect: r.dialect ?? null, valid: r.valid };
      if (r.planHash !== undefined) o.planHash = r.planHash;
      o.steps = r.steps;
      o.diagnostics = r.diagnostics.map(diagnosticJson);
      if (several) o.policy = options.policies![i] ?? null;
      return o;
    }),
    summary: { files: s.files, valid: s.valid, errors: s.errors, warnings: s.warnings },
  };
}

/** One result of a command's report: the file, its verdict, the command's own members and the diagnostics. */
export interface ResultEntry {
  file: string;
  valid: boolean;
  /** The command's own members (`planHash`, `record`, `run`, `level`…), placed between `valid` and `diagnostics`. */
  extra?: Record<string, unknown>;
  diagnostics: readonly Diagnostic[];
}

/**
 * The one envelope every command prints with `--output json` (SPEC §5's report): `{version, results,
 * summary}`, one result per file with `file`, `valid`, the command's own members and `diagnostics`.
 */
export function resultsJson(entries: readonly ResultEntry[], top: Record<string, unknown> = {}) {
  let errors = 0;
  let warnings = 0;
  for (const e of entries)
    for (const d of e.diagnostics) {
      if (d.severity === "error") errors++;
      else if (d.severity === "warning") warnings++;
    }
  return {
    version: 1,
    ...top,
    results: entries.map((e) => ({ file: e.file, valid: e.valid, ...(e.extra ?? {}), diagnostics: e.diagnostics.map(diagnosticJson) })),
    summary: { files: entries.length, valid: entries.filter((e) => e.valid).length, errors, warnings },
  };
}

/** `--output json`: exactly one JSON document. */
export function formatJson(reports: readonly PlanReport[], options: FormatOptions & { policies?: readonly (string | null)[] } = {}): string {
  return JSON.stringify(reportJson(reports, options), null, 2) + "\n";
}
