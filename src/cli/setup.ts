import { resolve } from "node:path";
import { registryFromNames, type ToolRegistry } from "../core/tools.js";
import { type HostProfile, HostProfileError, profileAllowList } from "../host/profile.js";
import { loadPolicy, overridesTools, PolicyError, policyForFile, policyTools, resolvedPolicyHash } from "../node/policy.js";
import { loadToolsFile, mergeRegistries, ToolsFileError } from "../node/tools-file.js";
import type { Policy } from "../core/policy.js";
import { type CliIO, UsageError } from "./io.js";
import { loadHostProfile } from "../node/host-profile.js";

/** Flags shared by the commands that read a policy. */
export interface PlanFlags {
  /** A policy file; false with --no-policy (the built-in defaults). */
  policy?: string | false;
  workspace?: string;
  tools?: string;
  maxAge?: string;
  /** A host profile name or file (--host); wins over the policy's `host:`. */
  host?: string;
}

export interface Setup {
  /** --max-age (it wins over the policy's and its overrides'). */
  flagMaxAge?: number;
  /** The registry given with --tools (it wins over the policy's and its overrides'). */
  flagTools?: ToolRegistry;
  policy: Policy;
  tools: ToolRegistry | undefined;
  /** sha256: identity of the resolved policy in force, host profile included (see resolvedPolicyHash). */
  policyHash: string;
  /** The host profile in force (generic when neither --host nor the policy names one). */
  host: HostProfile;
}

/** Parses a non-negative number flag, or throws a usage error that names the flag. */
export function numberFlag(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`${flag} must be a non-negative number, not "${value}"`);
  return n;
}

/** Parses an integer flag within bounds, or returns a message for a usage error. */
export function intFlag(value: string | undefined, flag: string, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be an integer ≥ ${min}, not "${value}"`);
  }
  return Number(value);
}

/** The policy, the tool registry and the workspace for a command: flags win over the policy, which wins over the defaults. */
export async function resolveSetup(flags: PlanFlags, io: CliIO): Promise<Setup> {
  const maxAge = numberFlag(flags.maxAge, "--max-age");
  let loaded: Awaited<ReturnType<typeof loadPolicy>>;
  try {
    loaded = await loadPolicy({ file: flags.policy, cwd: io.cwd, workspace: flags.workspace });
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(err.message);
    throw err;
  }
  const policy = loaded.policy;
  if (maxAge !== undefined) policy.plan.maxAgeDays = maxAge;
  const regs: ToolRegistry[] = [];
  let flagTools: ToolRegistry | undefined;
  try {
    if (flags.tools !== undefined) regs.push(loadToolsFile(resolve(io.cwd, flags.tools), flags.tools));
    flagTools = mergeRegistries(regs);
  } catch (err) {
    if (err instanceof ToolsFileError) throw new UsageError(err.message);
    throw err;
  }
  let host: HostProfile;
  const hostName = flags.host ?? policy.host ?? "generic";
  try {
    host = await loadHostProfile(hostName, io.cwd);
  } catch (err) {
    if (err instanceof HostProfileError) throw new UsageError(`${flags.host !== undefined ? "--host" : "the policy's host"}: ${err.message}`);
    throw err;
  }
  // --tools replaces the policy's registry: the flag wins over the file. With neither, the host's tools are the allow list.
  const hostTools = profileAllowList(host);
  const tools = flagTools ?? loaded.tools ?? (hostTools.length > 0 ? registryFromNames(hostTools, `the ${host.name} host profile`) : undefined);
  const setup: Setup = { policy, tools, policyHash: resolvedPolicyHash(policy, host), host };
  if (flagTools !== undefined) setup.flagTools = flagTools;
  if (maxAge !== undefined) setup.flagMaxAge = maxAge;
  return setup;
}

/**
 * The setup a plan file is judged by: the policy with the `overrides` that match the file applied (its
 * tools read again when an override changes them, unless --tools was given). The policy hash stays the
 * resolved policy's, overrides included: one policy, one identity.
 */
export function setupForFile(setup: Setup, planPath: string, io: CliIO): Setup {
  const policy = policyForFile(setup.policy, planPath);
  if (policy === setup.policy) return setup;
  let tools = setup.tools;
  if (setup.flagTools === undefined && overridesTools(setup.policy, planPath)) {
    try {
      tools = policyTools(policy, io.cwd) ?? tools;
    } catch (err) {
      if (err instanceof PolicyError) throw new UsageError(err.message);
      throw err;
    }
  }
  // The policy made for the file is shared by the files its overrides match: --max-age goes on a copy.
  const own = setup.flagMaxAge === undefined ? policy : { ...policy, plan: { ...policy.plan, maxAgeDays: setup.flagMaxAge } };
  return { ...setup, policy: own, tools };
}
