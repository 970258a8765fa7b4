import Type, { type Static } from "typebox";

const Hash = (description: string) => Type.String({ pattern: "^sha256:[0-9a-f]{64}$", description });
const Timestamp = (description: string) => Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$", description });

/**
 * The approval record (SPEC §5): the intake protocol's approval signal with its field names, plus what binds the
 * approval to one policy, one tool registry, one signer and one use. Unknown members are refused, so a
 * field added after signing cannot slip through as "extra".
 */
export const ApprovalRecordSchema = Type.Object(
  {
    status: Type.Literal("approved", { description: "Only approved plans get a record." }),
    plan_hash: Hash("Plan hash: sha256 of the plan's RFC 8785 canonical JSON (Markdown: of its text)."),
    validated_at: Timestamp("When the plan was validated and approved (UTC)."),
    validator: Type.String({ minLength: 1, description: "The tool and version that validated the plan, e.g. `plangate 0.1.0`." }),
    scope: Type.String({ minLength: 1, description: "Absolute real path of the workspace the plan may touch." }),
    expires_at: Type.Optional(Timestamp("After this instant the approval is refused (set by `approve --ttl`, default one day).")),
    no_expiry: Type.Optional(
      Type.Literal(true, {
        description:
          "The approval never expires, on purpose (`approve --ttl never`). A record with neither this nor `expires_at` was made before approvals had to say their lifetime: it is refused unless the policy sets `approval.acceptMissingExpiry: true`.",
      }),
    ),
    nonce: Type.String({ pattern: "^[0-9a-f]{32}$", description: "128 random bits: the approval's identity, consumed by the guard." }),
    single_use: Type.Boolean({ description: "When true the guard consumes the nonce: the approval cannot run twice." }),
    policy_hash: Hash("sha256 of the canonical JSON of the resolved policy in force (the defaults merged with the policy file, and the host profile named), without its workspace and source path."),
    tools_hash: Type.Union([Hash("sha256 of the canonical tool registry in force."), Type.Null()]),
    steps: Type.Integer({ minimum: 1, description: "Number of steps approved." }),
    host: Type.Optional(Type.String({ pattern: "^[a-z0-9][a-z0-9-]{0,63}$", description: "The host profile the plan was approved for (absent: generic)." })),
    host_hash: Type.Optional(Hash("sha256 of the host profile's canonical JSON: a changed profile invalidates the approval.")),
    signer: Type.Optional(
      Type.Object(
        {
          keyid: Type.String({ pattern: "^[0-9a-f]{64}$", description: "sha256 of the signer's raw public key." }),
          alg: Type.Literal("ed25519", { description: "The only signature algorithm accepted." }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  {
    additionalProperties: false,
    $id: "urn:plangate:schema:approval",
    title: "plangate approval record",
    description:
      "What `plangate approve` prints for a valid plan (the intake protocol's approval signal): the plan hash, when and by what it was validated, the workspace scope, and what binds it to one policy, one tool registry and one use. Signed, it travels as the payload of a DSSE envelope.",
    examples: [
      {
        status: "approved",
        plan_hash: "sha256:95ee099b5e1d86832bffb1be860f892001de51917843d673d0578e89ebab6acc",
        validated_at: "2026-11-22T12:00:00.000Z",
        validator: "plangate 0.1.0",
        scope: "/srv/agent/workspace",
        expires_at: "2026-11-22T13:00:00.000Z",
        nonce: "0f1e2d3c4b5a69788796a5b4c3d2e1f0",
        single_use: true,
        policy_hash: "sha256:44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
        tools_hash: null,
        steps: 4,
        host: "claude-code",
        host_hash: "sha256:c707244fba8a0376213793bfb99ef6b2a51c5878ef6e0f76937270abd2cce717",
        signer: { keyid: "3f7a5b1c9d2e4f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8", alg: "ed25519" },
      },
    ],
  },
);

/** An approval record. */
export type ApprovalRecord = Static<typeof ApprovalRecordSchema>;
