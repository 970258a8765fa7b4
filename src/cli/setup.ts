import { resolve } from "node:path";
import type { ToolRegistry } from "../core/tools.js";
import { loadToolsFile, mergeRegistries, ToolsFileError } from "../node/tools-file.js";
import { defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../policy/types.js";
import { type CliIO, UsageError } from "./io.js";

/** Flags shared by the commands that validate a plan. */
export interface PlanFlags {
  workspace?: string;
  tools?: string;
  maxAge?: string;
}

export interface Setup {
  policy: Policy;
  tools: ToolRegistry | undefined;
}

/** Parses a non-negative number flag, or throws a usage error that names the flag. */
export function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number, not "${value}"`);
  return n;
}

/** The policy, the tool registry and the workspace for a command, flags winning over the policy. */
export function resolveSetup(flags: PlanFlags, io: CliIO): Setup {
  const workspace = resolve(io.cwd, flags.workspace ?? ".");
  const policy = defaultPolicy(workspace);
  const maxAge = numberFlag(flags.maxAge, "--max-age");
  if (maxAge !== undefined) policy.plan.maxAgeDays = maxAge;
  const regs: ToolRegistry[] = [];
  try {
    if (flags.tools !== undefined) regs.push(loadToolsFile(resolve(io.cwd, flags.tools), flags.tools));
  } catch (err) {
    if (err instanceof ToolsFileError) throw new UsageError(err.message);
    throw err;
  }
  return { policy, tools: mergeRegistries(regs) };
}
