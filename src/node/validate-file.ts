import { readFileSync, statSync } from "node:fs";
import { type PlanReport, type ValidateOptions, validatePlan } from "../engine.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { defaultPolicy } from "../policy/defaults.js";

/** Reads and validates a plan file. A missing or unreadable file is a `file-not-found` diagnostic. */
export async function validateFile(path: string, options: ValidateOptions = {}): Promise<PlanReport> {
  const opts: ValidateOptions = { ...options, file: options.file ?? path };
  const policy = options.policy ?? defaultPolicy(options.workspace ?? process.cwd());
  let bytes: Uint8Array;
  try {
    const st = statSync(path);
    if (st.isDirectory()) return notFound(opts, path, "is a directory, not a plan file");
    if (st.size > policy.limits.maxFileBytes)
      return rejected(opts, {
        rule: "limit-exceeded",
        severity: "error",
        message: `The file is ${st.size} bytes, over the ${policy.limits.maxFileBytes}-byte limit.`,
        hint: "split the plan, or raise limits.maxFileBytes in plangate.yaml if the input is trusted",
        expected: policy.limits.maxFileBytes,
        actual: st.size,
      });
    bytes = readFileSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return notFound(opts, path, code === "ENOENT" ? "does not exist" : `cannot be read (${code ?? (err as Error).message})`);
  }
  return validatePlan(bytes, { ...opts, policy });
}

function notFound(opts: ValidateOptions, path: string, why: string): PlanReport {
  return rejected(opts, {
    rule: "file-not-found",
    severity: "error",
    message: `Plan file not found: ${path} ${why}.`,
    hint: "check the path, or that the plan was written before validation runs",
  });
}

function rejected(opts: ValidateOptions, d: Diagnostic): PlanReport {
  const diagnostic: Diagnostic = { ...d };
  if (opts.file !== undefined) diagnostic.file = opts.file;
  return { file: opts.file, valid: false, steps: 0, diagnostics: [diagnostic] };
}
