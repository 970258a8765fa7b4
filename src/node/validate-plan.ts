import type { PlanReport } from "../core/plan-report.js";
import { type EngineIo, type ValidateOptions, validateWith } from "../engine.js";

/** The file probe's module, loaded on the first validation that needs it and kept (an import() per validation cost as much as reading a small plan). */
let probes: typeof import("./file-probe.js") | undefined;

const io: EngineIo = {
  // A fresh probe per validation: the probe caches file contents, and a long-lived process must see a file
  // changed (or a symlink swapped) since the last plan was checked.
  files: () => (probes ? probes.createFileProbe() : import("./file-probe.js").then((m) => (probes = m).createFileProbe())),
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
