import type { HostProfile } from "../core/host-profile.js";
import { looseName } from "../core/lookalike.js";
import type { Policy } from "../core/policy.js";
import type { ToolRegistry } from "../core/tools.js";
import { isWriteTool } from "../core/writers.js";
import { DEFAULT_WRITE_TOOLS } from "../policy/defaults.js";

/**
 * Tools that write files, run commands or start agents under any host, compared without case,
 * separators or look-alike letters (`bash`, `Bаsh` with a Cyrillic a, `multi-edit`): never free, whatever
 * `tools.read` or a registry says. Claude Code's writers and the default write tools.
 */
const NEVER_FREE = new Set(
  [...DEFAULT_WRITE_TOOLS, "Write", "Edit", "MultiEdit", "NotebookEdit", "Bash", "BashOutput", "KillShell", "KillBash", "Task", "Agent", "SlashCommand", "Skill", "ExitPlanMode"].map(looseName),
);

/**
 * Why a `guard.free` entry must not be free, or undefined. A free tool runs with no approved step, so
 * only a tool that only reads may be one (what runs must stay what was approved):
 * - one of the host profile's own free tools (`TodoWrite`) is free already;
 * - a tool the profile describes is free only when the profile marks it `read: true` (claude-code's
 *   `Read`, `Glob`, `Grep`, `LS`): `tools.read` cannot make the host's `Write` a reader;
 * - a name spelt like one of the profile's tools but not it (`read`, `Reаd`) is refused with the name to write;
 * - a tool the profile does not describe (every tool of `generic`, an MCP tool) must not be a known writer
 *   in any spelling, and must be a reader as the policy and the registry say (`tools.read`, `readOnlyHint: true`).
 */
export function freeToolProblem(tool: string, profile: HostProfile, policy: Pick<Policy, "tools">, registry: ToolRegistry | undefined): string | undefined {
  if (profile.free.includes(tool)) return undefined;
  const readers = Object.keys(profile.tools).filter((t) => profile.tools[t]!.read === true);
  const onlyReaders = readers.length > 0 ? ` (the ${profile.name} profile's tools that only read: ${readers.join(", ")})` : "";
  const writes = `a free call runs with no approved step, so what runs would no longer be what was approved: remove it from guard.free${onlyReaders}`;
  if (Object.hasOwn(profile.tools, tool)) {
    if (profile.tools[tool]!.read === true) return undefined;
    return `"${tool}" cannot be free: the ${profile.name} profile's "${tool}" writes files, runs commands or reaches out (the profile does not mark it read-only), and ${writes}`;
  }
  const loose = looseName(tool);
  const twin = Object.keys(profile.tools).find((t) => looseName(t) === loose);
  if (twin !== undefined)
    return `"${tool}" is spelt like the ${profile.name} profile's tool "${twin}" but is not it (case, separators or look-alike letters): the host calls "${twin}", so the entry would free nothing, or another tool of that look; write "${twin}" if that is the tool meant`;
  if (NEVER_FREE.has(loose)) return `"${tool}" cannot be free: a tool of that name writes files, runs commands or starts an agent, and ${writes}`;
  if (isWriteTool(tool, registry, policy))
    return `"${tool}" cannot be free: nothing says it only reads (a tool not known to read is taken as a writer), and ${writes}; if it only reads, list it in tools.read or mark it readOnlyHint: true in tools.registry`;
  return undefined;
}

/** The first `guard.free` entry that must not be free: its index and why. */
export function freeToolsProblem(free: readonly string[], profile: HostProfile, policy: Pick<Policy, "tools">, registry: ToolRegistry | undefined): { index: number; why: string } | undefined {
  for (const [index, tool] of free.entries()) {
    const why = freeToolProblem(tool, profile, policy, registry);
    if (why !== undefined) return { index, why };
  }
  return undefined;
}

/** A policy whose `guard.free` lists a tool that must not be free, read with this host's profile: the usage error's text, or undefined. */
export function freeToolsRefusal(policy: Pick<Policy, "tools" | "guard" | "source">, profile: HostProfile, registry: ToolRegistry | undefined): string | undefined {
  const problem = freeToolsProblem(policy.guard.free, profile, policy, registry);
  return problem === undefined ? undefined : `${policy.source ?? "policy"}: guard.free: ${problem.why}`;
}
