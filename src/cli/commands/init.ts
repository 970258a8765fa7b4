import { existsSync } from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { publishedSchemaPath } from "../../node/published-schema.js";
import type { Command } from "commander";
import { writeFileAtomic } from "../../node/atomic-write.js";
import { POLICY_FILE_NAMES } from "../../node/policy.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { type Wrap, outputOption } from "../main.js";

/** The commented starter policy `plangate init` writes. Every value shown is the default or a harmless example. */
export const STARTER_POLICY = `# plangate policy: what a plan may do before it runs. Every field is optional;
# omitted fields keep the built-in defaults. Relative paths resolve against this file's folder.
# Reference: plangate --help, plangate rules, plangate explain RULE-ID.

# The workspace root: plan paths must stay inside it, and a plan's scope must match it.
workspace: .

tools:
  # Tools a plan may call, by name; '*' and '?' are globs. With no allow list, allowFile or
  # registry, unknown-tool cannot run (one info diagnostic says so).
  allow: [read_file, list_directory]
  # The intake protocol's whitelist: one tool a line, '#' comments.
  # allowFile: policy/tool_whitelist.conf
  # An MCP tools/list result: names and inputSchema; arguments are validated against it.
  # registry: tools.json
  # Denied tools, added to the built-in reasoning/planning list (think, plan, sequential_thinking…).
  deny: []
  # Tools that write, added to the built-in list (write_file, edit_file, run_command, shell…):
  # they may not touch protected paths.
  write: []

paths:
  # Globs (relative to the workspace) no write tool may touch, added to the defaults
  # (.git/**, .env*, **/*.pem, **/*.key, SSH keys, this policy file; what runs code or widens
  # what the agent may do: .claude/settings*.json, .claude/hooks/**, .claude/commands/**,
  # .claude/agents/**, .claude/skills/**, .mcp.json, .cursor/mcp.json, .gemini/settings.json,
  # .vscode/{mcp,tasks,settings,launch}.json, *.code-workspace, .devcontainer/**, .husky/**;
  # at the root: .github/workflows/**, .gitlab-ci.yml, .circleci/** and other CI files,
  # .pre-commit-config.yaml, lefthook.yml).
  protected: []
  # Default globs writers may touch after all, spelt as listed above (a plan that edits CI):
  # unprotect: [".github/workflows/**"]
  # Argument names that hold paths, added to the defaults (path, file_path, target, cwd…).
  arguments: []

plan:
  maxAgeDays: 30            # stale-plan warns about older plans
  requireChecksum: false    # true: an envelope without a checksum is an error
  allowConditionals: false  # true: if/else/when keys in steps are allowed
  constraints: refuse       # allow: intake/iKOMA arguments may be {"$glob": …}, {"$enum": […]}…
  allowOpenArguments: false # true: {"$any": true} may leave a path or a command open

# Per-rule severity: off, info, warning or error.
rules:
  stale-plan: warning
`;

/**
 * The starter policy for Claude Code (`plangate init --host claude-code`): the claude-code host profile,
 * argument constraints allowed, free reads, plan mode's accepted plans recorded for approval.
 */
export const CLAUDE_CODE_STARTER_POLICY = `# plangate policy for Claude Code: the plan accepted in plan mode is the contract of the session.
# Every field is optional; omitted fields keep the built-in defaults. Relative paths resolve against
# this file's folder. Reference: plangate --help, plangate explain RULE-ID, README "Host profiles".

workspace: .

# Claude Code's tools (profiles/claude-code.json): absolute file paths inside the workspace equal the
# plan's relative ones, Bash's description and timeout and Read's offset and limit are not compared.
# With no tools.allow, the profile's tools (Read, Write, Edit, Bash, …, mcp__*) are the allow list.
host: claude-code

commands:
  # Programs a Bash step may run (each simple command after the shell parse); empty: any not denied.
  allow: []
  deny: []
  # Languages whose code the plan writes (shown in the plan for the person who accepts it) may then be
  # run or loaded: a script it writes, tests its runner loads, a build's own code. [] refuses them all.
  writtenCode: [python, node, ruby, go, rust, java, kotlin, php, dotnet]

plan:
  constraints: allow        # a step may say {"$glob": "tests/**/*.py"}, {"$enum": [...]}, {"$regex": "..."}
  allowOpenArguments: false # true: {"$any": true} may leave a path or a command open

guard:
  # Where runs, audit trails and consumed approvals live (outside the workspace).
  # Default: $XDG_STATE_HOME/plangate, else ~/.local/state/plangate.
  # stateDir: /home/me/.local/state/plangate
  free: [Read, Glob, Grep, LS]  # reads need no step (still kept inside the workspace, and audited)
  noRun: allow-free             # a session with no run may use the free tools only

approval:
  # pending: an accepted plan waits for plangate approve. sign-and-start: it is signed with the key
  # below (plangate keygen --out ~/.config/plangate, outside the project) and its run starts at once.
  onPlanAccepted: pending
  # key: /home/me/.config/plangate/plangate.key
  ttl: 8h
`;

/** The starter policy for each built-in host profile. */
export const STARTER_POLICIES: Record<string, string> = { generic: STARTER_POLICY, "claude-code": CLAUDE_CODE_STARTER_POLICY };

/**
 * The first line of a written policy: editors with the YAML language server (VS Code's YAML extension,
 * Neovim, Helix) read it and complete and check the file against the published policy schema. The path
 * is that of the installed package, relative to the policy file when it can be.
 */
export function schemaComment(policyFile: string): string {
  const schema = publishedSchemaPath("policy");
  let rel = relative(dirname(policyFile), schema).split(sep).join("/");
  if (isAbsolute(rel)) rel = schema;
  else if (!rel.startsWith(".")) rel = `./${rel}`;
  return `# yaml-language-server: $schema=${rel}`;
}

/** `plangate init`: writes a commented starter plangate.yaml. */
export function registerInit(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("init")
    .description("write a commented starter plangate.yaml")
    .option("--out <file>", "where to write it", "plangate.yaml")
    .option("--force", "overwrite an existing file")
    .option("--host <name>", `the agent host the policy is for (${Object.keys(STARTER_POLICIES).join(", ")})`, "generic")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: { out: string; force?: boolean; output: string; host: string }) => {
        const starter = Object.hasOwn(STARTER_POLICIES, flags.host) ? STARTER_POLICIES[flags.host]! : undefined;
        if (starter === undefined) throw new UsageError(`--host: no starter policy for "${flags.host}" (known: ${Object.keys(STARTER_POLICIES).join(", ")})`);
        const path = resolve(io.cwd, flags.out);
        if (existsSync(path) && flags.force !== true) throw new UsageError(`${flags.out} already exists; pass --force to overwrite it`);
        // A second policy file beside the first would make discovery refuse the folder as ambiguous.
        if (POLICY_FILE_NAMES.includes(basename(path))) {
          const other = POLICY_FILE_NAMES.filter((n) => n !== basename(path)).find((n) => existsSync(join(dirname(path), n)));
          if (other !== undefined) throw new UsageError(`${join(dirname(flags.out), other)} is already a policy file in that folder; two would be ambiguous: edit it, or remove it first`);
        }
        try {
          writeFileAtomic(path, path.endsWith(".json") ? starter : `${schemaComment(path)}\n${starter}`);
        } catch (err) {
          throw new UsageError(`cannot write ${flags.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
        }
        io.stdout(flags.output === "json" ? `${JSON.stringify({ written: path })}\n` : `wrote ${flags.out}\n`);
        return EXIT.ok;
      }),
    );
}
