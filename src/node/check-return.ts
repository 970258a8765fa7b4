import { checkReturnWith, type ReturnCheckOptions, type ReturnCheckResult } from "../orchestration/return.js";
import { LSTAT_PROBE } from "./lstat-probe.js";

/** Checks a subagent's return (orchestration/return.ts) on the real file system, relative to the working directory unless the options say otherwise. */
export function checkReturn(input: string | Uint8Array, options: ReturnCheckOptions = {}): Promise<ReturnCheckResult> {
  return checkReturnWith(input, options, { files: LSTAT_PROBE, cwd: () => process.cwd() });
}
