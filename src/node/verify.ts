import { isAbsolute } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import type { ApprovalConditionsInput, ApprovedConditions, KeyLocation, SignatureFacts } from "../core/input/approval.js";
import { parseJson } from "../syntax/json.js";
import { APPROVAL_PAYLOAD_TYPE, type DsseEnvelope, looksLikeEnvelope, verifySignature } from "../approval/dsse.js";
import { GENERIC, profileHash } from "../host/profile.js";
import { keyLocation, type KeyPlaces, realPathOf, type TrustedKey } from "./keys.js";
import { judgeApproval } from "../approval/judge.js";
import type { ApprovalRecord } from "../approval/record.js";
import { schemaErrors } from "../core/schema-errors.js";
import validateApproval from "../generated/validate-approval.js";
import { publishedSchema } from "./published-schema.js";

/** What an approval is checked against. */
export interface VerifyOptions {
  /** The plan hash computed now from the plan on disk (undefined: the plan cannot be read). */
  planHash: string | undefined;
  /** The workspace the plan will run in. */
  workspace: string;
  policyHash: string;
  toolsHash: string | null;
  trustedKeys: readonly TrustedKey[];
  /**
   * The project's other folders and the per-user key folders (keyPlacesFor): a trusted key in one of the
   * project's folders is refused like one in the workspace. Default: none, only the workspace and the
   * repository holding it.
   */
  keyPlaces?: KeyPlaces;
  /** Accept a bare, unsigned record (default false: an unsigned approval is refused). */
  allowUnsigned?: boolean;
  now: Date;
  /** The host profile in force (name and profileHash); absent: generic. */
  host?: { name: string; hash: string };
  /** Has this nonce already been used? (The guard's durable store.) */
  isConsumed?: (nonce: string) => boolean;
  /**
   * Accept a record with neither `expires_at` nor `no_expiry` (made before records had to say their
   * lifetime; it never expires): the policy's `approval.acceptMissingExpiry`. Default false: refused.
   */
  acceptMissingExpiry?: boolean;
}

export interface VerifyResult {
  ok: boolean;
  /** The record, when one could be read (even if it failed a check). */
  record?: ApprovalRecord;
  /** The trusted key whose signature verified. */
  key?: TrustedKey;
  diagnostics: Diagnostic[];
}

/**
 * Checks an approval (a DSSE envelope, or a bare record with allowUnsigned) against the plan, the
 * workspace, the policy, the trusted keys and the clock. Every failed check is its own diagnostic.
 * Never throws on bad input. The approval is opened and its signatures verified here; the "approval"
 * rules judge each step (envelope, record, conditions) on what was found.
 */
export function verifyApproval(approval: string | Uint8Array, options: VerifyOptions): VerifyResult {
  const text = typeof approval === "string" ? approval : Buffer.from(approval).toString("utf8");
  const allowUnsigned = options.allowUnsigned === true;
  const outer = parseStrict(text);
  if (outer === undefined) return refused(judgeApproval({ step: "envelope", unreadable: { kind: "json" }, allowUnsigned }));

  let value: unknown = outer;
  let key: TrustedKey | undefined;
  let signature: SignatureFacts | undefined;
  if (looksLikeEnvelope(outer)) {
    const opened = openEnvelope(outer);
    if (typeof opened === "string") return refused(judgeApproval({ step: "envelope", unreadable: { kind: "envelope", problem: opened }, allowUnsigned }));
    value = opened.record;
    const checked = checkSignature(opened.envelope, opened.body, value, options);
    signature = checked.facts;
    key = checked.key;
  }
  const diagnostics = judgeApproval({ step: "envelope", allowUnsigned, ...(signature ? { signature } : {}) });

  const errors = recordErrors(value);
  const record = errors.length > 0 ? undefined : (value as ApprovalRecord);
  diagnostics.push(...judgeApproval({ step: "record", schemaErrors: errors, ...(record ? { plan: { approved: record.plan_hash, ...(options.planHash !== undefined ? { now: options.planHash } : {}) } } : {}) }));
  if (!record) return { ok: false, diagnostics };
  diagnostics.push(...judgeApproval(conditions(record, options)));
  return { ok: diagnostics.length === 0, record, key, diagnostics };
}
function refused(diagnostics: Diagnostic[]): VerifyResult {
  return { ok: false, diagnostics };
}

/** JSON.parse, but refusing duplicate keys: two readers could disagree on which member wins. */
function parseStrict(text: string): unknown {
  const doc = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (doc.value === undefined || doc.issues.length > 0) return undefined;
  return doc.value;
}

/** The most signatures an envelope may carry (plangate approve writes one). */
export const MAX_SIGNATURES = 16;

function openEnvelope(v: Record<string, unknown>): { envelope: DsseEnvelope; body: Buffer; record: unknown } | string {
  for (const k of Object.keys(v)) if (!["payloadType", "payload", "signatures"].includes(k)) return `unknown member "${k}"`;
  if (v.payloadType !== APPROVAL_PAYLOAD_TYPE) return `payloadType is ${JSON.stringify(v.payloadType)}, not "${APPROVAL_PAYLOAD_TYPE}"`;
  if (typeof v.payload !== "string") return "payload is not a base64 string";
  const body = Buffer.from(v.payload, "base64");
  // Node's decoder skips junk; a payload that does not round-trip could hide bytes the signature did not cover.
  if (body.toString("base64") !== v.payload) return "payload is not canonical base64";
  if (!Array.isArray(v.signatures)) return "signatures is not a list";
  // Each signature may be tried under every trusted key: thousands of them would keep a verifier busy for minutes.
  if (v.signatures.length > MAX_SIGNATURES) return `it has ${v.signatures.length} signatures, more than the ${MAX_SIGNATURES} an approval may carry`;
  for (const s of v.signatures) {
    if (typeof s !== "object" || s === null || typeof s.sig !== "string" || typeof (s.keyid ?? "") !== "string") return "a signature is not {keyid, sig}";
  }
  const record = parseStrict(body.toString("utf8"));
  if (record === undefined) return "the payload is not a JSON object without duplicate keys";
  return { envelope: v as unknown as DsseEnvelope, body, record };
}

/** What is known of a trusted key's file: where it lies and who chose it (keyLocation), its link count, its owner. */
function trustedKeyFacts(k: TrustedKey, options: VerifyOptions): KeyLocation {
  return {
    ...keyLocation(k.file, [options.workspace], options.keyPlaces, k.namedAt),
    ...(k.links !== undefined ? { links: k.links } : {}),
    ...(k.foreign === true ? { foreign: true } : {}),
  };
}

/** Finds a trusted Ed25519 key whose signature verifies, or why none does. */
function checkSignature(env: DsseEnvelope, body: Buffer, record: unknown, options: VerifyOptions): { facts: SignatureFacts; key?: TrustedKey } {
  const declared = (record as { signer?: { alg?: unknown; keyid?: unknown } } | null)?.signer;
  if (declared && declared.alg !== "ed25519") return { facts: { kind: "declared-algorithm", alg: declared.alg } };
  if (env.signatures.length === 0) return { facts: { kind: "no-signature" } };
  if (options.trustedKeys.length === 0) return { facts: { kind: "no-trusted-keys" } };
  let matched: TrustedKey | undefined;
  for (const s of env.signatures) {
    for (const k of options.trustedKeys) {
      if (s.keyid !== undefined && s.keyid !== "" && s.keyid !== k.keyid) continue;
      if (k.alg !== "ed25519") {
        matched ??= k;
        continue;
      }
      matched = k;
      if (verifySignature(env, body, s.sig, k.key)) {
        return { facts: { kind: "verified", keyid: k.keyid, file: k.file, declaredKeyid: declared?.keyid, ...trustedKeyFacts(k, options) }, key: k };
      }
    }
  }
  if (matched && matched.alg !== "ed25519") return { facts: { kind: "key-algorithm", keyid: matched.keyid, file: matched.file, alg: matched.alg } };
  if (matched) return { facts: { kind: "does-not-verify" } };
  return { facts: { kind: "unknown-signer", keyids: env.signatures.map((s) => s.keyid ?? "") } };
}

/** The conditions a record was approved under, beside those in force. */
function conditions(r: ApprovalRecord, o: VerifyOptions): ApprovalConditionsInput {
  // A relative scope would resolve against whatever folder the verifier runs in: it has no real path here.
  const scopeReal = isAbsolute(r.scope) ? realPathOf(r.scope) : undefined;
  // A record without host fields predates host profiles: it was approved for the generic behaviour.
  const generic = { name: GENERIC.name, hash: profileHash(GENERIC) };
  const approved: ApprovedConditions = {
    scope: r.scope,
    policyHash: r.policy_hash,
    toolsHash: r.tools_hash,
    host: { name: r.host ?? generic.name, hash: r.host_hash ?? generic.hash },
    validatedAt: r.validated_at,
    ...(r.expires_at !== undefined ? { expiresAt: r.expires_at } : {}),
    ...(r.no_expiry === true ? { noExpiry: true } : {}),
    nonce: r.nonce,
  };
  return {
    step: "conditions",
    approved,
    ...(scopeReal !== undefined ? { scopeReal } : {}),
    workspace: realPathOf(o.workspace),
    policyHash: o.policyHash,
    toolsHash: o.toolsHash,
    host: o.host ?? generic,
    now: o.now,
    consumed: r.single_use === true && o.isConsumed?.(r.nonce) === true,
    ...(o.acceptMissingExpiry === true ? { acceptMissingExpiry: true } : {}),
  };
}

/** The ways a value fails the record schema (explained from the published schema file), as short `/path: message` strings. */
export function recordErrors(value: unknown): string[] {
  return schemaErrors(validateApproval, value, () => publishedSchema("approval"))
    .slice(0, 5)
    .map((e) => `${e.instancePath || "/"}: ${e.keyword === "additionalProperties" ? `unknown member "${String(e.params.additionalProperty)}"` : e.message}`);
}
