import type { ToolRegistry } from "../core/tools.js";
import type { PlanReport } from "../core/plan-report.js";

/** Options every formatter accepts. */
export interface FormatOptions {
  color?: boolean;
  /** Tool version, for SARIF and the approval record. */
  version?: string;
  /** Working directory, to print relative paths. */
  cwd?: string;
  /** Absolute path of the policy file used, or null for the built-in defaults (undefined: not said). */
  policy?: string | null;
  /** The policy of each report, when a run used several (each file's own). */
  policies?: readonly (string | null)[];
  /** The tool registry in force: feedback lists the allowed tools and their arguments from it. */
  tools?: ToolRegistry;
}

/** A formatter: a pure function from reports to text. */
export type Formatter = (reports: readonly PlanReport[], options?: FormatOptions) => string;

/** Totals over several reports. */
export function summarize(reports: readonly PlanReport[]) {
  let errors = 0;
  let warnings = 0;
  let infos = 0;
  let valid = 0;
  for (const r of reports) {
    if (r.valid) valid++;
    for (const d of r.diagnostics) {
      if (d.severity === "error") errors++;
      else if (d.severity === "warning") warnings++;
      else infos++;
    }
  }
  return { files: reports.length, valid, errors, warnings, infos };
}
