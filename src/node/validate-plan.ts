import type { PlanReport } from "../core/plan-report.js";
import { type EngineIo, type ValidateOptions, validateWith } from "../engine.js";

const io: EngineIo = {
  // A fresh probe per validation: the probe caches file contents, and a long-lived process must see a file
  // changed (or a symlink swapped) since the last plan was checked.
  files: async () => (await import("./file-probe.js")).createFileProbe(),
  now: () => new Date(),
  hostDiagnostics: async (profile, plan, scope, options) => {
    // A symlinked alias of the workspace is resolved on the real file system, as the guard will.
    const [{ hostDiagnostics }, { createFileProbe }] = await Promise.all([import("../host/profile.js"), import("./file-probe.js")]);
    return hostDiagnostics(profile, plan, scope, createFileProbe(), options);
  },
};

/** Validates a plan given as text or bytes, on the real file system and clock unless the options give others. */
export function validatePlan(input: string | Uint8Array, options: ValidateOptions = {}): Promise<PlanReport> {
  return validateWith(input, options, io);
}
