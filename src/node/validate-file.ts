import type { PlanReport } from "../core/plan-report.js";
import type { ValidateOptions } from "../engine.js";
import { validatePlan } from "./validate-plan.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { defaultPolicy } from "../policy/defaults.js";
import { inputTooLarge, planFileNotFound, readFileBounded } from "./read-bounded.js";

/** Reads and validates a plan file. A missing or unreadable file is a `file-not-found` diagnostic. */
export async function validateFile(path: string, options: ValidateOptions = {}): Promise<PlanReport> {
  const opts: ValidateOptions = { ...options, file: options.file ?? path };
  const policy = options.policy ?? defaultPolicy(options.workspace ?? process.cwd());
  const read = readFileBounded(path, policy.limits.maxFileBytes);
  if (!read.ok) {
    if (read.reason === "too-large") {
      return rejected(opts, inputTooLarge({ max: policy.limits.maxFileBytes, size: read.size }));
    }
    return rejected(opts, planFileNotFound(path, read, { validation: true }));
  }
  const bytes = read.bytes;
  return validatePlan(bytes, { ...opts, policy });
}

function rejected(opts: ValidateOptions, d: Diagnostic): PlanReport {
  const diagnostic: Diagnostic = { ...d };
  if (opts.file !== undefined) diagnostic.file = opts.file;
  return { file: opts.file, valid: false, steps: 0, diagnostics: [diagnostic] };
}
