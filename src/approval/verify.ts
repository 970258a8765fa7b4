import { isAbsolute } from "node:path";
import type { Diagnostic } from "../core/diagnostic.js";
import { parseJson } from "../syntax/json.js";
import { APPROVAL_PAYLOAD_TYPE, type DsseEnvelope, looksLikeEnvelope, verifySignature } from "./dsse.js";
import { GENERIC, profileHash } from "../host/profile.js";
import { isInside, realPathOf, type TrustedKey } from "./keys.js";
import { type ApprovalRecord, approvalDiagnostic as fail, recordErrors } from "./record.js";

/** What an approval is checked against. */
export interface VerifyOptions {
  /** The plan hash computed now from the plan on disk (undefined: the plan cannot be read). */
  planHash: string | undefined;
  /** The workspace the plan will run in. */
  workspace: string;
  policyHash: string;
  toolsHash: string | null;
  trustedKeys: readonly TrustedKey[];
  /** Accept a bare, unsigned record (default false: an unsigned approval is refused). */
  allowUnsigned?: boolean;
  now: Date;
  /** The host profile in force (name and profileHash); absent: generic. */
  host?: { name: string; hash: string };
  /** Has this nonce already been used? (The guard's durable store.) */
  isConsumed?: (nonce: string) => boolean;
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
 * Never throws on bad input.
 */
export function verifyApproval(approval: string | Uint8Array, options: VerifyOptions): VerifyResult {
  const diagnostics: Diagnostic[] = [];
  const text = typeof approval === "string" ? approval : Buffer.from(approval).toString("utf8");
  const outer = parseStrict(text);
  if (outer === undefined) return refused([fail("approval-invalid", "The approval file is not valid JSON (or has duplicate keys).", "pass the file `plangate approve` wrote, unmodified")]);

  let value: unknown = outer;
  let key: TrustedKey | undefined;
  if (looksLikeEnvelope(outer)) {
    const opened = openEnvelope(outer);
    if (typeof opened === "string") return refused([fail("approval-invalid", `The approval envelope is malformed: ${opened}.`, "pass the DSSE envelope `plangate approve --key` wrote, unmodified")]);
    value = opened.record;
    const signed = checkSignature(opened.envelope, opened.body, value, options, diagnostics);
    key = signed;
  } else if (!options.allowUnsigned) {
    diagnostics.push(fail("approval-signature", "The approval is not signed: anyone who can write the file could have made it.", "approve with `plangate approve --key KEY`, or pass --allow-unsigned if the file comes from a trusted channel"));
  }

  const errors = recordErrors(value);
  if (errors.length > 0) {
    diagnostics.push(fail("approval-invalid", `The approval record does not match the approval schema: ${errors.join("; ")}.`, "use the record `plangate approve` wrote, unmodified"));
    return { ok: false, diagnostics };
  }
  const record = value as ApprovalRecord;
  checkBindings(record, options, diagnostics);
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

function openEnvelope(v: Record<string, unknown>): { envelope: DsseEnvelope; body: Buffer; record: unknown } | string {
  for (const k of Object.keys(v)) if (!["payloadType", "payload", "signatures"].includes(k)) return `unknown member "${k}"`;
  if (v.payloadType !== APPROVAL_PAYLOAD_TYPE) return `payloadType is ${JSON.stringify(v.payloadType)}, not "${APPROVAL_PAYLOAD_TYPE}"`;
  if (typeof v.payload !== "string") return "payload is not a base64 string";
  const body = Buffer.from(v.payload, "base64");
  // Node's decoder skips junk; a payload that does not round-trip could hide bytes the signature did not cover.
  if (body.toString("base64") !== v.payload) return "payload is not canonical base64";
  if (!Array.isArray(v.signatures)) return "signatures is not a list";
  for (const s of v.signatures) {
    if (typeof s !== "object" || s === null || typeof s.sig !== "string" || typeof (s.keyid ?? "") !== "string") return "a signature is not {keyid, sig}";
  }
  const record = parseStrict(body.toString("utf8"));
  if (record === undefined) return "the payload is not a JSON object without duplicate keys";
  return { envelope: v as unknown as DsseEnvelope, body, record };
}

/** Finds a trusted Ed25519 key whose signature verifies; reports why none does. */
function checkSignature(env: DsseEnvelope, body: Buffer, record: unknown, options: VerifyOptions, out: Diagnostic[]): TrustedKey | undefined {
  const declared = (record as { signer?: { alg?: unknown; keyid?: unknown } } | null)?.signer;
  if (declared && declared.alg !== "ed25519") {
    out.push(fail("approval-algorithm", `The approval was signed with ${JSON.stringify(declared.alg)}; plangate accepts only Ed25519.`, "sign with an Ed25519 key from `plangate keygen`"));
    return undefined;
  }
  if (env.signatures.length === 0) {
    out.push(fail("approval-signature", "The approval envelope has no signature.", "sign it with `plangate approve --key KEY`"));
    return undefined;
  }
  if (options.trustedKeys.length === 0) {
    out.push(fail("approval-untrusted-key", "No trusted keys were given, so the approval's signature cannot be checked.", "pass --trusted-keys DIR|FILE, or set approval.trustedKeys in plangate.yaml"));
    return undefined;
  }
  let matched: TrustedKey | undefined;
  for (const s of env.signatures) {
    for (const k of options.trustedKeys) {
      if (s.keyid !== undefined && s.keyid !== "" && s.keyid !== k.keyid) continue;
      if (k.alg !== "ed25519") {
        matched ??= k;
        continue;
      }
      matched = k;
      if (verifySignature(env, body, s.sig, k.key)) return bound(k, declared?.keyid, options, out);
    }
  }
  if (matched && matched.alg !== "ed25519") {
    out.push(fail("approval-algorithm", `The trusted key ${matched.keyid.slice(0, 16)}… (${matched.file}) is ${matched.alg}; plangate accepts only Ed25519.`, "replace it with an Ed25519 public key from `plangate keygen`"));
  } else if (matched) {
    out.push(fail("approval-signature", "The approval's signature does not verify: the record was changed after signing, or signed by another key.", "approve the plan again; never edit an approval by hand"));
  } else {
    const ids = env.signatures.map((s) => (s.keyid ? s.keyid.slice(0, 16) + "…" : "(no keyid)")).join(", ");
    out.push(fail("approval-untrusted-key", `The approval is signed by key ${ids}, which is not among the trusted keys.`, "have it approved with a trusted key, or add the signer's public key to --trusted-keys after checking whose it is"));
  }
  return undefined;
}

function bound(k: TrustedKey, declared: unknown, options: VerifyOptions, out: Diagnostic[]): TrustedKey {
  if (declared !== k.keyid)
    out.push(
      fail(
        "approval-signature",
        declared === undefined
          ? "The signed record has no signer field, so the key that signed it is not bound into it."
          : `The record names signer ${String(declared).slice(0, 16)}… but was signed by ${k.keyid.slice(0, 16)}….`,
        "approve the plan again with `plangate approve --key KEY`",
      ),
    );
  if (isInside(k.file, options.workspace))
    out.push(fail("approval-key-in-workspace", `The trusted key ${k.file} lives inside the workspace ${options.workspace}, which the plan may write: an agent could replace it with its own.`, "keep trusted keys outside the workspace (e.g. ~/.config/plangate/keys)"));
  return k;
}

function checkBindings(r: ApprovalRecord, o: VerifyOptions, out: Diagnostic[]): void {
  if (o.planHash === undefined)
    out.push(fail("approval-plan-mismatch", "The plan cannot be read, so it cannot be the approved plan.", "restore the approved plan", { expected: r.plan_hash }));
  else if (o.planHash !== r.plan_hash)
    out.push(fail("approval-plan-mismatch", `The plan hash ${o.planHash} differs from the approved ${r.plan_hash}: the plan was changed after approval, or this approval is for another plan.`, "restore the approved plan, or validate and approve the new one", { expected: r.plan_hash, actual: o.planHash }));
  const workspace = realPathOf(o.workspace);
  // A relative scope would resolve against whatever folder the verifier runs in, and so match it.
  if (!isAbsolute(r.scope))
    out.push(fail("approval-invalid", `The approval's scope ${JSON.stringify(r.scope)} is not an absolute path.`, "approve the plan again; plangate writes the workspace's real path"));
  else if (realPathOf(r.scope) !== workspace)
    out.push(fail("approval-scope-mismatch", `The approval is for workspace ${r.scope}, not ${workspace}.`, "run the plan in the workspace it was approved for, or approve it for this one", { expected: r.scope, actual: workspace }));
  if (r.policy_hash !== o.policyHash)
    out.push(fail("approval-policy-mismatch", `The approval was made under policy ${r.policy_hash}, but the policy in force is ${o.policyHash}.`, "use the policy file the plan was approved with, or approve it again under this one", { expected: r.policy_hash, actual: o.policyHash }));
  if (r.tools_hash !== o.toolsHash)
    out.push(fail("approval-policy-mismatch", `The approval was made with tool registry ${r.tools_hash ?? "(none)"}, but the registry in force is ${o.toolsHash ?? "(none)"}.`, "use the --tools registry the plan was approved with, or approve it again", { expected: r.tools_hash, actual: o.toolsHash }));
  // A record without host fields predates host profiles: it was approved for the generic behaviour.
  const want = o.host ?? { name: GENERIC.name, hash: profileHash(GENERIC) };
  const got = { name: r.host ?? GENERIC.name, hash: r.host_hash ?? profileHash(GENERIC) };
  if (got.name !== want.name)
    out.push(fail("approval-policy-mismatch", `The approval is for host "${got.name}", but the host in force is "${want.name}".`, `run with --host ${got.name}, or approve the plan again for ${want.name}`, { expected: got.name, actual: want.name }));
  else if (got.hash !== want.hash)
    out.push(fail("approval-policy-mismatch", `The approval was made with the ${got.name} host profile ${got.hash}, but the profile in force is ${want.hash}: the profile changed since approval.`, "use the profile the plan was approved with, or approve the plan again", { expected: got.hash, actual: want.hash }));
  const now = o.now.getTime();
  if (r.expires_at !== undefined && Date.parse(r.expires_at) <= now)
    out.push(fail("approval-expired", `The approval expired at ${r.expires_at} (now ${o.now.toISOString()}).`, "validate and approve the plan again", { expected: r.expires_at, actual: o.now.toISOString() }));
  // An approval dated in the future was made with a wrong clock or forged: its TTL cannot be trusted.
  if (Date.parse(r.validated_at) > now + 5 * 60_000)
    out.push(fail("approval-expired", `The approval is dated ${r.validated_at}, in the future (now ${o.now.toISOString()}).`, "check the approving machine's clock and approve again", { actual: r.validated_at }));
  if (r.single_use && o.isConsumed?.(r.nonce))
    out.push(fail("approval-consumed", `The approval ${r.nonce} was already used to run this plan; it is single-use.`, "approve the plan again to run it again"));
}
