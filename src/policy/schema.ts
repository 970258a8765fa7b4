import Type, { type Static } from "typebox";

const Names = (description: string) => Type.Array(Type.String({ minLength: 1 }), { description });
const Severity = Type.Union([Type.Literal("off"), Type.Literal("warning"), Type.Literal("error"), Type.Literal("info")]);

const RulesSchema = Type.Record(Type.String(), Severity, { description: "Rule id → off | info | warning | error." });

const ToolsSchema = Type.Object(
  {
    allow: Type.Optional(Names("Allowed tool names; `*` and `?` are globs.")),
    allowFile: Type.Optional(Type.String({ description: "Whitelist file: one tool a line, `#` comments." })),
    registry: Type.Optional(Type.String({ description: "MCP tools/list result: names and inputSchema." })),
    deny: Type.Optional(Names("Denied tools, added to the built-in reasoning/planning deny list.")),
    write: Type.Optional(Names("Tools that write, added to the built-in list.")),
    read: Type.Optional(
      Names("Tools that only read, added to the built-in list; any other tool not marked read-only in the registry counts as a writer."),
    ),
  },
  { additionalProperties: false },
);

const PathsSchema = Type.Object(
  {
    protected: Type.Optional(Names("Globs of paths no write tool may touch, added to the defaults.")),
    unprotect: Type.Optional(
      Names(
        "Default protected globs a write tool may touch after all, each spelt as the defaults list it (`.github/workflows/**`, `**/.vscode/settings.json`); removed from the protected list after this file's own `protected` are added.",
      ),
    ),
    arguments: Type.Optional(Names("Argument names that hold paths, added to the defaults.")),
  },
  { additionalProperties: false },
);

const PlanSchema = Type.Object(
  {
    maxAgeDays: Type.Optional(Type.Number({ minimum: 0 })),
    requireChecksum: Type.Optional(Type.Boolean()),
    allowConditionals: Type.Optional(Type.Boolean()),
    constraints: Type.Optional(
      Type.Union([Type.Literal("allow"), Type.Literal("refuse")], {
        description: 'May intake and iKOMA step arguments be constraint objects ({"$glob"}, {"$regex"}, {"$enum"}, {"$schema"}, {"$any": true})? Default refuse: every argument is a literal.',
      }),
    ),
    allowOpenArguments: Type.Optional(
      Type.Boolean({ description: "May a constraint leave a path or a command argument open ($any, $schema)? Default false." }),
    ),
  },
  { additionalProperties: false },
);

const MarkdownSchema = Type.Object({ requireSeparators: Type.Optional(Type.Boolean()) }, { additionalProperties: false });

const CommandsSchema = Type.Object(
  {
    allow: Type.Optional(
      Names("Programs a shell command may run: a program (`git`) or a program and its first arguments (`git status`); `*` and `?` are globs. Empty: any program not denied."),
    ),
    deny: Type.Optional(
      Names("Programs a shell command may never run: a program (`rm`) or a program and arguments it must not be given (`git push`, matched anywhere after the program, in order). Deny wins over allow."),
    ),
    allowCompound: Type.Optional(
      Type.Boolean({ description: "Let an intake or scQC command argument chain (`;`, `&&`, `|`…) or nest (`$(…)`, `xargs`, `sh -c`…) commands; each program is still checked. Default false." }),
    ),
    installOutside: Type.Optional(
      Names("Package managers that may install, or change their settings, outside the workspace (`npm install -g`, `cargo install`, `pip install --user`, `brew install`, `apt-get install`, `npm config set`): their names as plangate's message gives them (`npm`, `cargo`, `pip`, `brew`, `apt-get`); `*` and `?` are globs. Empty (the default): none may."),
    ),
    inlineCode: Type.Optional(
      Names("Interpreters whose code a command may give on its line or standard input, which plangate does not read (`python -c`, `node -e`, `perl -e`, `python3 - <<EOF`, a step's `{language: python, code}`): their names as plangate's message gives them (`python`, `node`, `perl`, `ruby`) or as the command spells them; `*` and `?` are globs. Empty (the default): none may."),
    ),
    writtenCode: Type.Optional(
      Names("Languages whose code the plan writes (a whole text in the plan) may then be run or loaded by a program: a script run by its interpreter (`python3 x.py`), tests loaded by their runner (`pytest`, `npm test`), a build's own code (`build.rs`): their names as plangate's message gives them (`python`, `node`, `rust`); `*` and `?` are globs. commands.inlineCode allows these too. Empty (the default): none may."),
    ),
  },
  { additionalProperties: false },
);

const YamlSchema = Type.Object(
  {
    executor: Type.Optional(
      Type.Union([Type.Literal("pyyaml"), Type.Literal("go-yaml-v2"), Type.Literal("yaml-1.2")], {
        description:
          "The parser that reads YAML plans where they run: pyyaml (PyYAML's safe loader, YAML 1.1; the default) refuses every value the two read differently; go-yaml-v2 (Go's gopkg.in/yaml.v2) refuses those and every other plain value Go reads differently (y, Y, n and N, booleans there; 0O17, 0X1F, +_1, numbers there); yaml-1.2 turns those refusals off.",
      }),
    ),
  },
  { additionalProperties: false },
);

const LimitsSchema = Type.Object(
  {
    maxFileBytes: Type.Optional(Type.Integer({ minimum: 1 })),
    maxDepth: Type.Optional(Type.Integer({ minimum: 1 })),
    maxSteps: Type.Optional(Type.Integer({ minimum: 1 })),
    maxStringLength: Type.Optional(Type.Integer({ minimum: 1, description: "Longest string value or key (UTF-16 code units)." })),
    maxYamlBytes: Type.Optional(Type.Integer({ minimum: 1, description: "Largest YAML document; YAML is far costlier to read than JSON." })),
    maxValues: Type.Optional(Type.Integer({ minimum: 1, description: "Most values (objects, lists, strings, numbers, booleans, nulls) a JSON or YAML document may hold, aliases expanded." })),
  },
  { additionalProperties: false },
);

/**
 * One entry of `overrides`: settings for the plan files its globs match (ESLint's overrides; later
 * entries win). Only what judges a plan may be set here: approval, guard, workspace and host are one
 * per policy.
 */
const OverrideSchema = Type.Object(
  {
    files: Type.Array(Type.String({ minLength: 1 }), {
      minItems: 1,
      description: "Globs of plan files (picomatch, dot files matched), relative to the folder of the policy file in force.",
    }),
    tools: Type.Optional(ToolsSchema),
    paths: Type.Optional(PathsSchema),
    plan: Type.Optional(PlanSchema),
    markdown: Type.Optional(MarkdownSchema),
    commands: Type.Optional(CommandsSchema),
    yaml: Type.Optional(YamlSchema),
    limits: Type.Optional(LimitsSchema),
    rules: Type.Optional(RulesSchema),
  },
  { additionalProperties: false },
);

/** The policy file (plangate.yaml): one definition gives the TypeScript type and the JSON Schema. */
export const PolicyFileSchema = Type.Object(
  {
    extends: Type.Optional(
      Type.Union(
        [Type.String({ minLength: 1 }), Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 16 })],
        {
          description:
            "Base policies merged in order before this file (later wins; lists merge as they do over the defaults): a policy file (.yaml, .yml or .json, relative to this file's folder) or an installed package (`name` or `@scope/name`: the file its package.json names in `plangate`, else its plangate.yaml). A base may extend others, at most 8 deep; cycles are refused.",
        },
      ),
    ),
    overrides: Type.Optional(
      Type.Array(OverrideSchema, {
        description: "Settings for some plan files, chosen by path: each entry's files globs, then its settings, applied in order over the policy (later entries win).",
      }),
    ),
    workspace: Type.Optional(Type.String({ description: "Workspace root, relative to the policy file's folder." })),
    host: Type.Optional(
      Type.String({
        minLength: 1,
        description: "The agent host the plan runs in: a profile name (`claude-code`, `generic`) or a profile file (relative to this file's folder). `--host` wins. Default: generic.",
      }),
    ),
    store: Type.Optional(
      Type.String({
        minLength: 1,
        pattern: "^(file:.+|postgres(ql)?://.+)$",
        description:
          "Where the guard's shared state lives (runs, audit trails, consumed approvals, the session registry): `file:DIR` (a state directory, relative to this file's folder) or `postgres://…` (shared by several machines; keep the password out of the file: PGPASSWORD or ~/.pgpass). `--store` / `--state-dir` win. Default: guard.stateDir.",
      }),
    ),
    tools: Type.Optional(ToolsSchema),
    paths: Type.Optional(PathsSchema),
    plan: Type.Optional(PlanSchema),
    markdown: Type.Optional(MarkdownSchema),
    commands: Type.Optional(CommandsSchema),
    returns: Type.Optional(
      Type.Object(
        {
          statuses: Type.Optional(Names("Allowed subagent return statuses.")),
          successStatuses: Type.Optional(Names("Statuses for which artifacts must exist and be non-empty.")),
          maxSummaryTokens: Type.Optional(Type.Integer({ minimum: 0, description: "A return's summary must stay under this many tokens; 0 leaves summaries unmeasured (the optional gpt-tokenizer package is then not needed)." })),
          encoding: Type.Optional(
            Type.Union(
              ["o200k_base", "o200k_harmony", "cl100k_base", "p50k_base", "p50k_edit", "r50k_base"].map((e) => Type.Literal(e)),
              { description: "Tokenizer encoding for summary length." },
            ),
          ),
          requiredFields: Type.Optional(
            Names("Fields a return must have (default: the orchestrator validation strategy's five); dotted paths such as metadata.session_id."),
          ),
          artifactFields: Type.Optional(
            Names("When set, every artifact must be an object with these fields (e.g. [type, path]), not a bare path."),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    tasks: Type.Optional(
      Type.Object(
        {
          operations: Type.Optional(
            Type.Record(Type.String(), Names("Statuses from which the operation is allowed."), {
              description: "Operation name → task statuses that allow it.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    delegation: Type.Optional(
      Type.Object(
        {
          maxDepth: Type.Optional(Type.Integer({ minimum: 0 })),
          registry: Type.Optional(Type.String({ description: "Folder of the active-session registry." })),
          sessionTtlSeconds: Type.Optional(
            Type.Integer({
              minimum: 1,
              description: "Lifetime of a registered session id, in seconds (default 86400). At least 1: a lifetime of 0 let every registration take over a live one.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    approval: Type.Optional(
      Type.Object(
        {
          ttl: Type.Optional(Type.String({ description: "Default lifetime of an approval, e.g. 1h, 30m, 2d, or never (no expiry); needed with singleUse: false." })),
          singleUse: Type.Optional(Type.Boolean()),
          acceptMissingExpiry: Type.Optional(
            Type.Boolean({
              description:
                "Accept approval records that say no lifetime (neither expires_at nor no_expiry: made by an earlier plangate; they never expire). Default false: refused as approval-expired. Not part of the policy hash.",
            }),
          ),
          trustedKeys: Type.Optional(
            Type.String({
              description:
                "File or folder of trusted public keys; relative to the policy file's folder. Outside the project: a policy the project may edit must name keys in a per-user key folder (~/.config/plangate, $XDG_CONFIG_HOME/plangate, ~/.ssh) or files another user owns.",
            }),
          ),
          onPlanAccepted: Type.Optional(
            Type.Union([Type.Literal("sign-and-start"), Type.Literal("pending")], {
              description:
                "When the person accepts a plan in Claude Code's plan mode: pending (the default) records it for `plangate approve`; sign-and-start signs it with approval.key and starts the run.",
            }),
          ),
          key: Type.Optional(
            Type.String({
              description:
                "Ed25519 private key (PEM, from plangate keygen) that signs accepted plans; relative to the policy file's folder; outside the project, in a per-user key folder (~/.config/plangate, ~/.ssh) unless the policy file lies there too.",
            }),
          ),
        },
        { additionalProperties: false },
      ),
    ),
    guard: Type.Optional(
      Type.Object(
        {
          maxInputBytes: Type.Optional(
            Type.Integer({ minimum: 1, description: "Largest PreToolUse hook input read from standard input (default 1 MiB); more is blocked." }),
          ),
          noRun: Type.Optional(
            Type.Union([Type.Literal("block"), Type.Literal("allow-free"), Type.Literal("ask")], {
              description: "What the hook answers a session that has no run: block (the default), allow-free (only the free tools, path-checked and audited), ask (the person decides).",
            }),
          ),
          free: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200, description: "Tool names whose calls need no step (still path-checked and audited), e.g. Read, Glob, Grep, LS: only tools that only read (a tool that writes, runs commands or is not known to read is refused)." }),
          ),
          stateDir: Type.Optional(Type.String({ minLength: 1, description: "Folder of the guard's runs, audit trails and consumed approvals (default $XDG_STATE_HOME/plangate); outside the workspace." })),
        },
        { additionalProperties: false },
      ),
    ),
    yaml: Type.Optional(YamlSchema),
    limits: Type.Optional(LimitsSchema),
    rules: Type.Optional(RulesSchema),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:policy",
    title: "plangate policy file",
    description: "plangate.yaml: tools, paths, limits and rule severities. Every field is optional.",
  },
);

export type PolicyFile = Static<typeof PolicyFileSchema>;
