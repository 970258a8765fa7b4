import { DEFAULT_MAX_VALUES, type Policy } from "../core/policy.js";

/**
 * Tools that think or plan instead of acting: an approved plan must not hand control back to a planner. A plan
 * step is an action, not a thought. Compared without case or separators (`Sequential-Thinking` is
 * `sequential_thinking`); the hosts' own planning tools are named as the hosts spell them.
 */
export const DEFAULT_DENIED_TOOLS = [
  "think",
  "plan",
  "reason",
  "reasoning",
  "planner",
  "planning",
  "create_plan",
  "update_plan",
  "replan",
  "sequential_thinking",
  "sequentialthinking",
  "chain_of_thought",
  // Hosts' planning modes and thinking servers (Claude Code, MCP sequential-thinking).
  "ExitPlanMode",
  "EnterPlanMode",
  "plan_mode",
  "sequential-thinking",
  "mcp__sequential-thinking__sequentialthinking",
];

export const DEFAULT_WRITE_TOOLS = [
  "write_file",
  "create_file",
  "edit_file",
  "delete_file",
  "move_file",
  "copy_file",
  "append_file",
  "apply_patch",
  "run_command",
  "shell",
  "bash",
  "exec",
  "execute",
  "create_text_file",
  // Markdown (teddy) actions that write files.
  "CREATE",
  "EDIT",
];

/**
 * Tools that only read: the common file-system readers of MCP servers and agents, and the Markdown
 * `READ`. Any tool not here (nor marked `readOnlyHint: true` in the registry) is taken as a writer.
 */
export const DEFAULT_READ_TOOLS = [
  "read_file",
  "read_text_file",
  "read_media_file",
  "read_multiple_files",
  "list_dir",
  "list_directory",
  "list_directory_with_sizes",
  "list_files",
  "directory_tree",
  "get_file_info",
  "list_allowed_directories",
  "search",
  "search_files",
  "grep",
  "glob",
  "find_files",
  "view_file",
  "Read",
  "Glob",
  "Grep",
  "LS",
  "WebFetch",
  "WebSearch",
  // Markdown (teddy) action that reads a file or a URL.
  "READ",
];

export const DEFAULT_PROTECTED_PATHS = [
  ".git/**",
  ".git",
  // A nested repository's (vendor/lib/.git/hooks/…) runs hooks as surely as the top one's.
  "**/.git/**",
  "**/.git",
  ".env",
  ".env*",
  "**/.env*",
  "**/*.pem",
  "**/*.key",
  "**/id_rsa*",
  "**/id_ed25519*",
  "**/.ssh/**",
  // The host's hook configuration, which runs the guard, and the scripts its hooks run: a plan that
  // rewrote them would turn enforcement off for the sessions after it.
  "**/.claude/settings.json",
  "**/.claude/settings.local.json",
  "**/.claude/hooks/**",
  // What else makes a written file run code, or widens what the agent may do, outside the approved plan:
  // read by the agent host or the editor in the folder it is started in, so at any depth. The host's MCP
  // servers (started with the session), Claude Code's commands, subagents and skills (their front matter
  // grants tools, sets a permission mode or adds hooks), the editor's tasks (run when the folder opens),
  // settings (programs and terminals it runs), launch configurations and dev containers
  // (`initializeCommand` runs on the machine), and husky's git hooks.
  "**/.mcp.json",
  "**/.claude/commands/**",
  "**/.claude/agents/**",
  "**/.claude/skills/**",
  "**/.cursor/mcp.json",
  "**/.gemini/settings.json",
  "**/.vscode/mcp.json",
  "**/.vscode/tasks.json",
  "**/.vscode/settings.json",
  "**/.vscode/launch.json",
  "**/*.code-workspace",
  "**/.devcontainer/**",
  "**/.devcontainer.json",
  "**/.husky/**",
  // Read at the workspace root only, where a CI service or git reads them: CI workflows, run with the
  // repository's secrets on the next push, and the git hook managers' configuration, run on the next
  // commit. Packages ship such files (`node_modules/x/.travis.yml`), so `rm -rf node_modules` stays possible.
  // (`.envrc`, which direnv runs, is already `.env*`.)
  ".github/workflows/**",
  ".gitea/workflows/**",
  ".forgejo/workflows/**",
  ".gitlab-ci.yml",
  ".circleci/**",
  ".travis.yml",
  ".buildkite/**",
  ".drone.yml",
  ".woodpecker.yml",
  ".woodpecker/**",
  "azure-pipelines.yml",
  "bitbucket-pipelines.yml",
  "Jenkinsfile",
  ".pre-commit-config.yaml",
  "lefthook.yml",
  "lefthook.yaml",
  ".lefthook.yml",
  ".lefthook.yaml",
  "lefthook-local.yml",
  "lefthook-local.yaml",
  ".lefthook-local.yml",
  ".lefthook-local.yaml",
  ".lefthook/**",
  // The policy under every name plangate looks for, at any depth (a policy is found walking up).
  "**/.plangate/**",
  "**/plangate.yaml",
  "**/.plangate.yaml",
  "**/plangate.yml",
  "**/.plangate.yml",
  "**/plangate.json",
];

/**
 * The default protected globs whose files hold secrets: credentials and keys, a repository's
 * configuration (a token in a remote's URL), the hosts' settings and MCP server configurations (tokens
 * in their environment). A command line may not read them either. The other defaults (CI files, git
 * hook managers, the editor's and the host's files that run code, the policy) may be read by a program
 * that only reads its operands (`cat .github/workflows/ci.yml`), as by a read tool; a glob a policy adds
 * is read as a secret.
 */
export const DEFAULT_SECRET_PATHS = [
  ".git/**",
  ".git",
  "**/.git/**",
  "**/.git",
  ".env",
  ".env*",
  "**/.env*",
  "**/*.pem",
  "**/*.key",
  "**/id_rsa*",
  "**/id_ed25519*",
  "**/.ssh/**",
  "**/.claude/settings.json",
  "**/.claude/settings.local.json",
  "**/.mcp.json",
  "**/.cursor/mcp.json",
  "**/.gemini/settings.json",
  "**/.vscode/mcp.json",
];

export const DEFAULT_PATH_ARGUMENTS = [
  "path",
  "file",
  "file_path",
  "filepath",
  "filename",
  "target",
  "destination",
  "dest",
  "source",
  "src",
  "cwd",
  "dir",
  "directory",
  "root",
];

/** The five fields of the orchestrator validation strategy's subagent return; `session_id` may sit in `metadata`. */
export const DEFAULT_RETURN_FIELDS = ["status", "summary", "artifacts", "metadata", "session_id"];

/**
 * Operation → task statuses (snake_case, as state.json writes them; TODO.md's `[NOT STARTED]` reads as
 * `not_started`) from which it may start. In-progress, completed and abandoned tasks allow nothing.
 */
export const DEFAULT_TASK_OPERATIONS: Record<string, string[]> = {
  research: ["not_started", "researched", "partial", "blocked"],
  plan: ["not_started", "researched", "partial", "blocked"],
  revise: ["planned", "revised", "partial", "blocked"],
  implement: ["planned", "revised", "partial"],
};

/**
 * Rules whose verdict the rest depends on: with them off or lowered, a plan that could not be read
 * (or was read one way of two) would be "valid". A policy may not change them, like approval checks.
 * `unsafe-value` is one: a value the executor reads otherwise than plangate (a YAML 1.1 boolean, a
 * rounded integer, a lone surrogate) makes the plan that was checked another than the one that runs.
 * An executor that reads YAML 1.2 says so with `yaml.executor`, which turns those refusals off.
 */
export const STRUCTURAL_RULES: ReadonlySet<string> = new Set(["parse-error", "unknown-format", "duplicate-key", "limit-exceeded", "unsafe-value"]);

/**
 * Rules that keep a plan inside what the person approves: a policy may not switch them off or lower them
 * (a usage error), and a Policy built in code cannot either. Each has a narrow way out that says what it
 * lets through, which is what its message gives:
 * - `protected-path-write`: with it lowered, a plan may rewrite the host's hook configuration that runs the
 *   guard, git hooks, CI workflows and the policy file itself, and every plan after it runs unchecked;
 * - `path-outside-workspace`: a plan could read or write any file the executor can (`~/.ssh`, `/etc`);
 * - `scope-mismatch`: a plan could declare a scope outside the workspace;
 * - `disallowed-tool`: denied tools and programs, planning tools, look-alike names, inline code and the
 *   settings that change what a command runs (`PATH=`, `LD_PRELOAD=`) would run;
 * - `unknown-tool`: a tool outside the allow list, or one no host call makes, would pass;
 * - `argument-constraint`: a constraint the policy does not allow could leave a path or command open;
 * - `hash-mismatch`: `--expected-hash` would check nothing.
 */
export const PROTECTION_RULES: ReadonlyMap<string, { why: string; instead: string }> = new Map([
  [
    "protected-path-write",
    {
      why: "a plan could then rewrite the hook configuration that runs the guard, git hooks, CI workflows or this policy, and no plan after it would be checked",
      instead: "to let some plans write a default protected path, name its glob in paths.unprotect (best in an overrides entry)",
    },
  ],
  [
    "path-outside-workspace",
    {
      why: "a plan could then read or write any file the executor can, outside the workspace (~/.ssh, /etc, another project)",
      instead: "to let plans reach a folder, make the policy's workspace a folder that holds it; to let some plans install outside it, name the package manager in commands.installOutside",
    },
  ],
  [
    "scope-mismatch",
    {
      why: "a plan could then declare a scope outside the workspace",
      instead: "to let plans work in a wider folder, make the policy's workspace that folder",
    },
  ],
  [
    "disallowed-tool",
    {
      why: "denied tools and programs, planning tools, look-alike tool names, code given inline to an interpreter and settings that change what a command runs (PATH=, LD_PRELOAD=) would then run",
      instead: "to let a tool or program run, take it out of tools.deny or commands.deny; to let an interpreter run inline code, name it in commands.inlineCode (best in an overrides entry)",
    },
  ],
  [
    "unknown-tool",
    {
      why: "a plan could then call a tool outside the allow list, or one no host call makes",
      instead: 'to let plans call a tool, add it to tools.allow, tools.allowFile or tools.registry; to accept every tool on purpose, write tools.allow: ["*"]',
    },
  ],
  [
    "argument-constraint",
    {
      why: "a plan could then carry a constraint object the policy does not allow, or one that leaves a path or a command open",
      instead: "to let plans use constraint objects, write plan.constraints: allow; to let one leave a path or a command open, plan.allowOpenArguments: true (best in an overrides entry)",
    },
  ],
  [
    "hash-mismatch",
    {
      why: "--expected-hash would then check nothing",
      instead: "to check no hash, leave --expected-hash out",
    },
  ],
]);

/** Largest PreToolUse hook input the guard reads (1 MiB); more is blocked, never buffered whole. */
export const DEFAULT_MAX_INPUT_BYTES = 1024 * 1024;

/** The embedded defaults, used where a policy file is absent or silent. */
export function defaultPolicy(workspace: string): Policy {
  return {
    workspace,
    tools: { allow: [], deny: [...DEFAULT_DENIED_TOOLS], write: [...DEFAULT_WRITE_TOOLS], read: [...DEFAULT_READ_TOOLS] },
    paths: { protected: [...DEFAULT_PROTECTED_PATHS], arguments: [...DEFAULT_PATH_ARGUMENTS] },
    plan: { maxAgeDays: 30, requireChecksum: false, allowConditionals: false, constraints: "refuse", allowOpenArguments: false },
    markdown: { requireSeparators: true },
    commands: { allow: [], deny: [], allowCompound: false },
    returns: {
      statuses: ["completed", "partial", "failed", "blocked"],
      successStatuses: ["completed"],
      maxSummaryTokens: 100,
      encoding: "o200k_base",
      requiredFields: [...DEFAULT_RETURN_FIELDS],
    },
    tasks: { operations: structuredClone(DEFAULT_TASK_OPERATIONS) },
    delegation: { maxDepth: 3, sessionTtlSeconds: 24 * 3600 },
    approval: { singleUse: true, onPlanAccepted: "pending" },
    guard: { maxInputBytes: DEFAULT_MAX_INPUT_BYTES, noRun: "block", free: [] },
    yaml: { executor: "pyyaml" },
    limits: {
      maxFileBytes: 64 * 1024 * 1024,
      maxDepth: 1000,
      maxSteps: 100_000,
      maxStringLength: 1024 * 1024,
      maxYamlBytes: 1024 * 1024,
      maxValues: DEFAULT_MAX_VALUES,
    },
    rules: {},
  };
}
