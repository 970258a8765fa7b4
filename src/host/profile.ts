import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import type { ValueContext } from "../core/constraints.js";
import type { Plan } from "../core/plan.js";
import type { CallInput, ContextFor, ExpectedCall } from "../approval/match.js";

/*
 * A host profile says how an agent host (Claude Code, or a generic executor) calls its tools, so that an
 * approved plan can be compared with the calls the host really makes. Profiles are data: one JSON file
 * per host under profiles/, checked against schemas/host-profile.schema.json.
 */

/** How one host tool's input is read. */
export interface HostToolSpec {
  /** Input keys that are not part of the call's identity (Claude Code's Bash `description`, `timeout`). */
  incidental?: string[];
  /** Input keys that name files: normalised to workspace-relative paths before comparison. */
  paths?: string[];
  /** Input keys that are shell command lines: a constraint holds for each simple command. */
  commands?: string[];
  /** The tool only reads (it may be made free by `guard.free`). */
  read?: boolean;
}

export interface HostProfile {
  name: string;
  description?: string;
  /** The host's tools; with no policy allow list, these are the allow list. Empty: any tool (generic). */
  tools: Record<string, HostToolSpec>;
  /** Tools that need no step (still audited and scope-checked). */
  free: string[];
}

/** The generic profile: today's exact matching (every key is identity, nothing is normalised). */
export const GENERIC: HostProfile = { name: "generic", tools: {}, free: [] };

/** A profile's identity, recorded in approvals and runs. */
export function profileHash(p: HostProfile): string {
  return "sha256:" + sha256Hex(canonicalJson(p));
}

/** A call reduced to its identity: incidental keys dropped, path keys normalised against the scope. */
export function callIdentity(p: HostProfile, call: CallInput, _scope: string): CallInput {
  const spec = p.tools[call.tool];
  if (!spec?.incidental?.length) return call;
  const args: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(call.args)) if (!spec.incidental.includes(k)) args[k] = v;
  return { tool: call.tool, args };
}

/** How each argument of a host tool is matched. */
export function contextFor(p: HostProfile): ContextFor {
  return (tool, key): ValueContext => {
    const spec = p.tools[tool];
    return { path: spec?.paths?.includes(key) === true };
  };
}

/** The calls a validated plan's steps make on this host, in order. */
export function expectedCalls(_p: HostProfile, plan: Plan, _scope: string): ExpectedCall[] {
  return plan.steps.map((s) => ({ step: s.position, tool: s.tool ?? "", args: s.args, repeat: 1, optional: false, confirm: false }));
}
