/** How one host tool's input is read. */
export interface HostToolSpec {
  description?: string;
  /** Input keys that are the identity (documentation: every key not incidental is identity). */
  identity?: string[];
  /** Input keys that are not part of the call's identity (Claude Code's Bash `description`, `timeout`). */
  incidental?: string[];
  /** Input keys that name files: normalised to workspace-relative paths before comparison. */
  paths?: string[];
  /** Input keys that are shell command lines: a constraint holds for each simple command. */
  commands?: string[];
  /** Input keys that are file globs matched from the host's search folder (Glob's `pattern`): one that can reach outside it never matches. */
  globs?: string[];
  /** The tool only reads (it may be made free by `guard.free`). */
  read?: boolean;
  /** Values the host assumes for an absent key: an absent key and its default compare equal. */
  defaults?: Record<string, unknown>;
}

/** What a TeDDy action gives one host input key. */
export type TeddySource = "path" | "content" | "fileContent" | "command" | "url" | "find" | "replace" | "matchAll" | "query" | "any";

/** One host call a TeDDy action becomes. */
export interface TeddyCall {
  tool: string;
  args: Record<string, TeddySource>;
  /** One call per EDIT pair, or per RESEARCH query. */
  each?: "edits" | "queries";
  /** Only when the action's resource is a path, or a URL. */
  when?: "path" | "url";
  /** The input key naming a file the call creates: unless the action says Overwrite, it must not exist when the call runs. */
  newFile?: string;
}

/** How a TeDDy action maps: alternatives (the first whose `when` holds), or no call at all. */
export type TeddyMapping = TeddyCall[] | { skip: true; reason: string };

/** An agent host's profile: how it calls its tools (profiles/*.json, src/host/profile.ts reads and applies them). */
export interface HostProfile {
  name: string;
  description?: string;
  /** The host's tools; with no policy allow list, these are the allow list. Empty: any tool (generic). */
  tools: Record<string, HostToolSpec>;
  /** Globs of further host tool names (MCP tools): every key identity. */
  toolPatterns?: string[];
  /** Tools that need no step (still audited and scope-checked). */
  free: string[];
  /** TeDDy action → host calls. Absent: TeDDy steps are matched as they are read (generic). */
  teddy?: Record<string, TeddyMapping>;
}
