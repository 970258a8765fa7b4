import type { Diagnostic } from "../src/core/diagnostic.js";
import type { ToolRegistry } from "../src/core/tools.js";
import type { PlanReport } from "../src/core/plan-report.js";
import type { ValidateOptions } from "../src/engine.js";
import { validatePlan } from "../src/node/validate-plan.js";
import { join } from "node:path";
import { expect } from "vitest";
import { loadPolicy, PolicyError } from "../src/node/policy.js";
import { parseToolsText } from "../src/node/tools-file.js";

/** The fixed clock every test uses. */
export const NOW = new Date("2026-11-22T12:00:00Z");

/** A registry from names. */
export function tools(...names: string[]): ToolRegistry {
  return parseToolsText(names.join("\n"), "tools.txt");
}

/** Validates with the fixed clock and a file name (so the syntax follows the extension). */
export function run(text: string | Uint8Array, options: ValidateOptions = {}): Promise<PlanReport> {
  return validatePlan(text, { file: "plan.json", now: NOW, workspace: "/workspace", ...options });
}

/** The diagnostics of one rule. */
export async function diagnosticsOf(rule: string, text: string | Uint8Array, options: ValidateOptions = {}): Promise<Diagnostic[]> {
  const report = await run(text, options);
  return report.diagnostics.filter((d) => d.rule === rule);
}

/** The rule ids of a report, in order. */
export function ids(report: PlanReport): string[] {
  return report.diagnostics.map((d) => d.rule);
}

/** A sealed scQC envelope text built with the Python-compatible checksum. */
export async function envelope(plan: unknown, extra: Record<string, unknown> = {}): Promise<string> {
  const { pythonChecksum } = await import("../src/core/canonical/python-json.js");
  const base = { version: "1.0", created_at: "2026-11-20T10:00:00", message: "m", intent: "i", checksum: pythonChecksum(plan), ...extra, plan };
  return JSON.stringify(base, null, 2);
}

/** Loads the policy file `file` of the folder `root`. */
export const loadPolicyIn = (root: string, file: string) => loadPolicy({ file: join(root, file), cwd: root });

/** The message of the PolicyError loading the policy file `file` of `root` fails with (the test fails if it loads). */
export async function policyRefusal(root: string, file: string): Promise<string> {
  try {
    await loadPolicyIn(root, file);
  } catch (err) {
    expect(err).toBeInstanceOf(PolicyError);
    return (err as Error).message;
  }
  throw new Error("the policy was accepted");
}
