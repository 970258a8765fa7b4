import Type, { type Static } from "typebox";

const Keys = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { uniqueItems: true, description });
const ToolName = Type.String({ minLength: 1, maxLength: 128, pattern: "^[A-Za-z0-9_.:-]+$" });

/** How one host tool's input is read. */
export const HostToolSpecSchema = Type.Object(
  {
    description: Type.Optional(Type.String({ description: "What the tool does, for people reading the profile." })),
    identity: Type.Optional(Keys("Input keys that are the call's identity (documentation: every key not incidental is identity anyway).")),
    incidental: Type.Optional(Keys("Input keys that are not part of the call's identity: dropped before a call is compared with the approved step (Claude Code's Bash `description`, `timeout`).")),
    paths: Type.Optional(Keys("Input keys that name files: normalised to workspace-relative paths before comparison; a path outside the approved scope never matches.")),
    commands: Type.Optional(Keys("Input keys that are shell command lines: a constraint must hold for each simple command.")),
    globs: Type.Optional(
      Keys("Input keys that are file globs the host matches from its search folder (Claude Code's Glob `pattern`, Grep `glob`): a glob that is absolute, starts with `~`, climbs with `..` or holds a backslash reaches outside the scope and never matches."),
    ),
    read: Type.Optional(Type.Boolean({ description: "The tool only reads (`guard.free` may make it free)." })),
    defaults: Type.Optional(
      Type.Record(Type.String({ minLength: 1, maxLength: 128 }), Type.Unknown(), {
        description: "Values the host assumes for an absent key (Claude Code's Edit `replace_all`: false): an absent key and its default compare equal.",
      }),
    ),
  },
  { additionalProperties: false },
);

/** Where an argument of a host call comes from in a TeDDy action. */
export const TEDDY_SOURCES = ["path", "content", "fileContent", "command", "url", "find", "replace", "matchAll", "query", "any"] as const;

const TeddyCall = Type.Object(
  {
    tool: ToolName,
    args: Type.Record(Type.String({ minLength: 1 }), Type.Union(TEDDY_SOURCES.map((s) => Type.Literal(s))), {
      description:
        "Host input key → what the action gives it: path (File Path), content (CREATE's block, exactly as TeDDy writes it: without its final line breaks), fileContent (CREATE's block with or without one final line break: a host that writes the file itself usually ends it with one), command (EXECUTE's block), url (a Resource URL), find / replace (one EDIT pair), matchAll (Match All), query (one RESEARCH query), any (any value: the plan does not fix it).",
    }),
    each: Type.Optional(Type.Union([Type.Literal("edits"), Type.Literal("queries")], { description: "One call per EDIT pair, or per RESEARCH query." })),
    when: Type.Optional(Type.Union([Type.Literal("path"), Type.Literal("url")], { description: "Only for an action whose resource is a path, or a URL." })),
    newFile: Type.Optional(
      Type.String({ minLength: 1, description: "The input key naming the file the call creates: unless the action says Overwrite, the guard refuses the call when that file exists (TeDDy refuses to create over a file; a host's write tool would replace it)." }),
    ),
  },
  { additionalProperties: false },
);

const TeddySkip = Type.Object(
  { skip: Type.Literal(true), reason: Type.String({ minLength: 1, description: "Why the action makes no host call." }) },
  { additionalProperties: false },
);

/** A host profile (profiles/*.json). */
export const HostProfileSchema = Type.Object(
  {
    name: Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$", description: "The name `--host` and the policy's `host:` use." }),
    description: Type.Optional(Type.String()),
    tools: Type.Record(ToolName, HostToolSpecSchema, {
      additionalProperties: false,
      description: "The host's tools; with no policy allow list, these are the allow list. Empty: any tool, every key identity (generic).",
    }),
    toolPatterns: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 128 }), { description: "Globs of further host tool names (MCP tools): every input key is identity." })),
    free: Type.Array(ToolName, { uniqueItems: true, description: "Tools that need no step (still audited and scope-checked)." }),
    teddy: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Z][A-Z_]*$" }), Type.Union([Type.Array(TeddyCall, { minItems: 1 }), TeddySkip]), {
        additionalProperties: false,
        description: "How each TeDDy action becomes host calls: a list of alternatives (the first whose `when` holds), or `skip` for an action that makes no call. An action not listed cannot be enforced: validation refuses it.",
      }),
    ),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:host-profile",
    title: "plangate host profile",
    description:
      "How an agent host calls its tools: per tool, which input keys are identity and which incidental, which name files or hold command lines; which tools are free; and how TeDDy actions become host calls. `--host NAME` or the policy's `host:` picks one.",
    examples: [
      {
        name: "my-host",
        tools: {
          Bash: { incidental: ["description", "timeout"], commands: ["command"] },
          Read: { paths: ["file_path"], incidental: ["offset", "limit"], read: true },
          TodoWrite: {},
        },
        free: ["TodoWrite"],
        teddy: { EXECUTE: [{ tool: "Bash", args: { command: "command" } }], CHAT_WITH_USER: { skip: true, reason: "a message to the user, not a tool call" } },
      },
    ],
  },
);

export type HostProfileFile = Static<typeof HostProfileSchema>;
