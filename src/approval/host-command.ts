import type { CommandPolicy } from "../commands/match.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { FileProbe } from "../core/file-probe.js";

/** What the guard checks a host's shell call against: the policy's commands, workspace and protected paths. */
export interface HostCommandPolicy {
  workspace: string;
  commands: CommandPolicy;
  protected: readonly string[];
}

/** Host tools whose calls are shell command lines (Claude Code's `Bash`, its `command` input). */
export const HOST_SHELL_TOOLS: ReadonlySet<string> = new Set(["Bash"]);

/**
 * The refusal of a host's shell call whose command the policy does not allow: a denied or unknown
 * program (also behind `xargs`, `sh -c`...), syntax the parser cannot read, a file outside the workspace
 * or a protected one. Chaining is allowed, as in a TeDDy EXECUTE block: each program is checked.
 * Undefined for calls that are not shell calls, and for commands that pass. `files` makes a fresh probe
 * of the real file system, which the command's paths are resolved on. The command analysis loads only
 * for a shell call (./host-command-check.ts), so that a hook call for any other tool does not load it.
 */
export async function hostCommandRefusal(tool: string, args: unknown, policy: HostCommandPolicy, files: () => FileProbe): Promise<Diagnostic | undefined> {
  if (!HOST_SHELL_TOOLS.has(tool)) return undefined;
  const { shellCallRefusal } = await import("./host-command-check.js");
  return shellCallRefusal(tool, args, policy, files);
}
