import Type, { type Static } from "typebox";

const Count = (description: string) => Type.Integer({ minimum: 0, description });
const Line = (description: string) => Type.Integer({ minimum: 1, description });

/** One diagnostic as `--output json` writes it (SPEC §4). */
export const DiagnosticSchema = Type.Object(
  {
    rule: Type.String({ pattern: "^[a-z0-9]+(-[a-z0-9]+)*$", description: "Rule id (`plangate rules` lists them)." }),
    severity: Type.Union([Type.Literal("error"), Type.Literal("warning"), Type.Literal("info")], { description: "Only errors reject a plan." }),
    message: Type.String({ description: "What is wrong and what to do." }),
    file: Type.Optional(Type.String({ description: "The plan file as given on the command line." })),
    pointer: Type.Optional(Type.String({ description: "JSON Pointer into the plan document." })),
    step: Type.Optional(Line("1-based position of the step in the plan.")),
    line: Type.Optional(Line("1-based line of the start.")),
    column: Type.Optional(Line("1-based column of the start (UTF-16 code units).")),
    endLine: Type.Optional(Line("1-based line of the end.")),
    endColumn: Type.Optional(Line("1-based column just past the end.")),
    expected: Type.Optional(Type.Unknown({ description: "What the rule expected (e.g. the stored checksum)." })),
    actual: Type.Optional(Type.Unknown({ description: "What it found (e.g. the computed checksum)." })),
    hint: Type.Optional(Type.String({ description: "Did-you-mean, or how to fix." })),
  },
  { additionalProperties: false, title: "plangate diagnostic" },
);

/** The result for one plan file. */
export const FileResultSchema = Type.Object(
  {
    file: Type.String({ description: 'The file as given; "-" for standard input.' }),
    dialect: Type.Union(
      [Type.Literal("scqc-legacy"), Type.Literal("scqc-envelope"), Type.Literal("intake"), Type.Literal("ikoma"), Type.Literal("teddy"), Type.Null()],
      { description: "The dialect read, or null when none matched." },
    ),
    valid: Type.Boolean({ description: "True when no diagnostic is an error." }),
    planHash: Type.Optional(Type.String({ pattern: "^sha256:[0-9a-f]{64}$", description: "The plan hash; absent when the plan could not be read." })),
    steps: Count("Number of steps (Markdown plans: actions)."),
    diagnostics: Type.Array(DiagnosticSchema, { description: "Every finding, ordered by position." }),
    policy: Type.Optional(
      Type.Union([Type.String(), Type.Null()], { description: "The policy file that judged this file, when one run used several (each file's own, found from its folder); null: the built-in defaults." }),
    ),
  },
  { additionalProperties: false, title: "plangate file result" },
);

/** `plangate validate --output json` (SPEC §5). */
export const ReportSchema = Type.Object(
  {
    version: Type.Literal(1, { description: "Report format version." }),
    policy: Type.Union([Type.String(), Type.Null()], { description: "Absolute path of the policy file used; null when the built-in defaults were used. When files were judged by different policies, the first file's, and each result names its own." }),
    results: Type.Array(FileResultSchema, { description: "One result per plan file, in command-line order." }),
    summary: Type.Object(
      {
        files: Count("Files checked."),
        valid: Count("Files with no error."),
        errors: Count("Error diagnostics over all files."),
        warnings: Count("Warning diagnostics over all files."),
      },
      { additionalProperties: false },
    ),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:report",
    title: "plangate JSON report",
    description: "What `plangate validate --output json` prints: one result per file and a summary.",
    examples: [
      {
        version: 1,
        policy: "/home/me/project/plangate.yaml",
        results: [
          {
            file: "plans/a.json",
            dialect: "ikoma",
            valid: false,
            planHash: "sha256:0b8f3fbd1c4bd4ad6f7a0e0c8a2a1f7a27e0a7e4c6c0d5a9a8b1b3e5f2d4c6a8",
            steps: 2,
            diagnostics: [
              {
                rule: "unknown-tool",
                severity: "error",
                message: 'Step 2: unknown tool "serch_web"; did you mean "search_web"?',
                file: "plans/a.json",
                pointer: "/plan/1/tool_name",
                step: 2,
                line: 12,
                column: 20,
                endLine: 12,
                endColumn: 31,
                actual: "serch_web",
                hint: 'did you mean "search_web"?',
              },
            ],
          },
        ],
        summary: { files: 1, valid: 0, errors: 1, warnings: 0 },
      },
    ],
  },
);

export type ReportDocument = Static<typeof ReportSchema>;
export type DiagnosticDocument = Static<typeof DiagnosticSchema>;
