import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The folder of real plans from the seed projects, read in place and never copied into this repository:
 * `PLANGATE_REAL_PLANS` when set, else `../shared/real-plans` beside the clone. Tests that need it skip
 * when it is absent; the global setup says so once per run (test/global-setup.ts).
 */
export const REAL_PLANS = process.env.PLANGATE_REAL_PLANS
  ? resolve(process.env.PLANGATE_REAL_PLANS)
  : join(import.meta.dirname, "../../shared/real-plans");

/** The contract the rule catalogue is checked against: `PLANGATE_SPEC` or `../shared/SPEC.md`. */
export const SPEC_FILE = process.env.PLANGATE_SPEC ? resolve(process.env.PLANGATE_SPEC) : join(import.meta.dirname, "../../shared/SPEC.md");

/** Is the real-plan corpus there (its provenance file marks it)? */
export const realPlansPresent = existsSync(join(REAL_PLANS, "provenance.json"));

/** A path inside the corpus. */
export const realPlan = (...parts: string[]): string => join(REAL_PLANS, ...parts);
