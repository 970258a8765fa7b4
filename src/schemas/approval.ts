import Type, { type Static } from "typebox";

const Hash = (description: string) => Type.String({ pattern: "^sha256:[0-9a-f]{64}$", description });
const Timestamp = (description: string) => Type.String({ pattern: "^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z$", description });

/**
 * The approval record (SPEC §5): seed 001's approval signal with its field names, plus what binds the
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
    expires_at: Type.Optional(Timestamp("After this instant the approval is refused (set by `approve --ttl`).")),
    nonce: Type.String({ pattern: "^[0-9a-f]{32}$", description: "128 random bits: the approval's identity, consumed by the guard." }),
    single_use: Type.Boolean({ description: "When true the guard consumes the nonce: the approval cannot run twice." }),
    policy_hash: Hash("sha256 of the canonical JSON of the policy file in force (of `{}` with no file)."),
    tools_hash: Type.Union([Hash("sha256 of the canonical tool registry in force."), Type.Null()]),
    steps: Type.Integer({ minimum: 1, description: "Number of steps approved." }),
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
  { additionalProperties: false, $id: "urn:plangate:schema:approval", title: "plangate approval record" },
);

/** An approval record. */
export type ApprovalRecord = Static<typeof ApprovalRecordSchema>;
