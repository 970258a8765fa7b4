import Type, { type Static } from "typebox";

const Artifact = Type.Union([
  Type.String({ minLength: 1, description: "Path of the artifact, relative to the workspace." }),
  Type.Object(
    {
      path: Type.String({ minLength: 1, description: "Path of the artifact, relative to the workspace." }),
      type: Type.Optional(Type.String()),
      summary: Type.Optional(Type.String()),
      description: Type.Optional(Type.String()),
    },
    { additionalProperties: true },
  ),
]);

const Metadata = Type.Object(
  {
    session_id: Type.Optional(Type.String({ description: "Where real orchestrators put the session id." })),
    agent_type: Type.Optional(Type.String()),
    delegation_depth: Type.Optional(Type.Integer({ minimum: 0 })),
    delegation_path: Type.Optional(Type.Array(Type.String())),
    duration_seconds: Type.Optional(Type.Number({ minimum: 0 })),
  },
  { additionalProperties: true },
);

/**
 * A subagent's return (the orchestrator validation strategy): status, summary, artifacts, metadata and session_id, the last
 * either at the top level or in `metadata.session_id`. Statuses are policy-defined, so any string.
 */
export const SubagentReturnSchema = Type.Object(
  {
    status: Type.String({ minLength: 1, description: "One of returns.statuses (default completed, partial, failed, blocked)." }),
    summary: Type.String({ description: "Under returns.maxSummaryTokens tokens (default 100)." }),
    artifacts: Type.Array(Artifact),
    metadata: Metadata,
    session_id: Type.Optional(Type.String({ description: "Required unless metadata.session_id is given." })),
    errors: Type.Optional(Type.Array(Type.Unknown())),
    next_steps: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
  },
  {
    additionalProperties: true,
    $id: "urn:plangate:schema:subagent-return",
    title: "Subagent return",
    description: "What a subagent hands back to its orchestrator (the orchestrator validation strategy); checked by `plangate check-return`.",
    examples: [
      {
        status: "completed",
        summary: "Created the implementation plan with 4 phases.",
        artifacts: [{ type: "plan", path: "specs/042_feature/plans/implementation-001.md", summary: "4-phase plan" }],
        metadata: { session_id: "sess_1736200000_ab12cd", agent_type: "planner", delegation_depth: 1, delegation_path: ["orchestrator", "plan", "planner"] },
        next_steps: "Run /implement 42",
      },
    ],
    anyOf: [{ required: ["session_id"] }, { properties: { metadata: { required: ["session_id"] } } }],
  },
);

export type SubagentReturn = Static<typeof SubagentReturnSchema>;
