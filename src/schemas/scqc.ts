import Type, { type Static } from "typebox";

/** One scQC step; only `tool` is required, as scAgent's loader does. */
export const ScqcStepSchema = Type.Object(
  {
    tool: Type.String({ minLength: 1, description: "Name of a registered tool." }),
    description: Type.Optional(Type.String({ description: "What the step does, for a human reader." })),
    params: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: "The tool's parameters." })),
  },
  { additionalProperties: false, title: "scQC plan step", description: "One tool call of a scQC plan." },
);

const exampleSteps = [
  { tool: "load_data", description: "Load the dataset", params: { file_path: "data/pbmc.h5ad" } },
  { tool: "compute_qc_metrics", description: "Compute QC metrics", params: { species: "human" } },
];

/** scQC's legacy format: a bare list of steps (scQC). */
export const ScqcLegacySchema = Type.Array(ScqcStepSchema, {
  minItems: 1,
  $id: "urn:plangate:schema:scqc-legacy",
  title: "scQC legacy plan",
  description: "scQC's legacy plan: a bare JSON array of steps, with no metadata and no checksum (plangate dialect `scqc-legacy`).",
  examples: [exampleSteps],
});

/** scQC's v1.0 envelope (scQC). */
export const ScqcEnvelopeSchema = Type.Object(
  {
    version: Type.Optional(Type.Literal("1.0", { description: "Envelope format version; plangate reads 1.0." })),
    created_at: Type.Optional(
      Type.String({
        // Python's datetime.isoformat(), with or without a zone: JSON Schema's date-time format requires a zone.
        pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}(:\\d{2}(\\.\\d{1,9})?)?(Z|z|[+-]\\d{2}:?\\d{2})?$",
        description: "When the plan was made, ISO 8601; without a zone it is read as UTC.",
      }),
    ),
    message: Type.Optional(Type.String({ description: "The user's request." })),
    intent: Type.Optional(Type.String({ description: "The detected intent." })),
    checksum: Type.Optional(
      Type.Union([Type.String(), Type.Null()], {
        description: "SHA-256 of Python's json.dumps(plan, sort_keys=True), hex, optionally prefixed sha256:.",
      }),
    ),
    plan: Type.Array(ScqcStepSchema, { minItems: 1, description: "The steps, at least one." }),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:scqc-envelope",
    title: "scQC plan envelope",
    description: "scQC's v1.0 plan envelope: metadata, a checksum of the plan, and the plan (plangate dialect `scqc-envelope`).",
    examples: [
      {
        version: "1.0",
        created_at: "2025-10-05T16:38:29.512337",
        message: "run QC on the PBMC data",
        intent: "qc",
        checksum: "a74b5b9a3c99dcb4a7cc2afcfb2da828b69ed58e9968624b1bdfe2e6e39c73d2",
        plan: exampleSteps,
      },
    ],
  },
);

export type ScqcStep = Static<typeof ScqcStepSchema>;
export type ScqcLegacyPlan = Static<typeof ScqcLegacySchema>;
export type ScqcEnvelope = Static<typeof ScqcEnvelopeSchema>;
