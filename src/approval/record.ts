import { randomBytes } from "node:crypto";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import type { ToolRegistry } from "../core/tools.js";
import type { ApprovalRecord } from "../schemas/approval.js";
import { VERSION } from "../version.js";
import { judgeApproval } from "./judge.js";
import { ruleDiagnostic } from "../rules/read-text.js";

export type { ApprovalRecord };

/** What an approval binds: the plan, the workspace, the policy and registry in force, and the clock. */
export interface ApprovalInput {
  planHash: string;
  /** Absolute real path of the workspace. */
  scope: string;
  policyHash: string;
  toolsHash: string | null;
  steps: number;
  now: Date;
  /** Lifetime in milliseconds; sets expires_at. Default: DEFAULT_APPROVAL_TTL_MS for a single-use approval. */
  ttlMs?: number;
  /** Default true: the guard consumes the approval's nonce. */
  singleUse?: boolean;
  /**
   * A reusable approval (`singleUse: false`) needs `ttlMs`, or this said on purpose: one that never
   * expires could run its plan again long after the person approved it. createRecord throws without either.
   */
  neverExpires?: boolean;
  /** The host profile the plan is approved for (name and profileHash); absent: none recorded (generic). */
  host?: { name: string; hash: string };
  /** Key id of the signer, when the record will be signed. */
  keyid?: string;
  /** Random source, injectable for tests. */
  nonce?: string;
}

/** Builds an approval record (SPEC §5, the intake protocol's field names first). */
export function createRecord(input: ApprovalInput): ApprovalRecord {
  if (input.singleUse === false && input.ttlMs === undefined && input.neverExpires !== true)
    throw new TypeError(`createRecord: a reusable approval (singleUse: false) needs ttlMs, or neverExpires: true to let it run for ever`);
  const record: ApprovalRecord = {
    status: "approved",
    plan_hash: input.planHash,
    validated_at: input.now.toISOString(),
    validator: `plangate ${VERSION}`,
    scope: input.scope,
    nonce: input.nonce ?? randomBytes(16).toString("hex"),
    single_use: input.singleUse ?? true,
    policy_hash: input.policyHash,
    tools_hash: input.toolsHash,
    steps: input.steps,
  };
  if (input.host !== undefined) {
    record.host = input.host.name;
    record.host_hash = input.host.hash;
  }
  // Every record says its lifetime: an expiry (a single-use approval with none given gets the default), or
  // no_expiry on purpose. A record that says neither predates this and is refused where it is verified.
  if (input.neverExpires === true && input.ttlMs === undefined) record.no_expiry = true;
  else record.expires_at = new Date(input.now.getTime() + (input.ttlMs ?? DEFAULT_APPROVAL_TTL_MS)).toISOString();
  if (input.keyid !== undefined) record.signer = { keyid: input.keyid, alg: "ed25519" };
  return record;
}

const TTL = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * The lifetime of an approval made with no `--ttl` (and no `approval.ttl`): one day. A single-use approval
 * that is never used would otherwise stay valid for ever.
 */
export const DEFAULT_APPROVAL_TTL_MS = 86_400_000;

/** The lifetime that says an approval never expires, on purpose (`--ttl never`, `approval.ttl: never`). */
export const NO_EXPIRY = "never";

/**
 * The lifetime of an approval from `--ttl` (or the service's `ttl`, else the policy's `approval.ttl`):
 * `ttlMs`, `neverExpires` for `never`, or why it cannot be made. A reusable approval with no lifetime
 * is refused: it would let its plan run again for ever; `never` says that on purpose. `flag` names the
 * setting in the message (`--ttl`, `ttl`).
 */
export function approvalLifetime(ttl: string | undefined, singleUse: boolean, flag: string): { ttlMs?: number; neverExpires?: true } | { error: string } {
  if (ttl === undefined) {
    if (singleUse) return {};
    return {
      error: `a reusable approval needs a lifetime, or it could run its plan again for ever: give ${flag} (such as ${flag === "--ttl" ? "--ttl 1d" : `"${flag}": "1d"`}) or set approval.ttl in the policy; to approve with no expiry on purpose, as before, write ${flag === "--ttl" ? "--ttl never" : `"${flag}": "never"`} (or approval.ttl: never)`,
    };
  }
  if (ttl.trim() === NO_EXPIRY) return { neverExpires: true };
  const ttlMs = parseTtl(ttl);
  if (ttlMs === undefined) return { error: `${flag} must be a positive duration such as 30m, 1h or 2d, or never, not "${ttl.slice(0, 100)}"` };
  return { ttlMs };
}

/** Parses a lifetime such as `90s`, `30m`, `1h`, `2d` into milliseconds; undefined when malformed or zero. */
export function parseTtl(text: string): number | undefined {
  const m = TTL.exec(text.trim());
  if (!m) return undefined;
  const ms = Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
  return ms > 0 && Number.isSafeInteger(ms) ? ms : undefined;
}

/**
 * The identity of a tool registry (names, patterns, schemas, and the MCP annotations that decide which
 * tools write, when it has any), or null without one.
 */
export function toolsHash(tools: ToolRegistry | undefined): string | null {
  if (!tools) return null;
  const byName = ([a]: [string, unknown], [b]: [string, unknown]) => (a < b ? -1 : a > b ? 1 : 0);
  const schemas = Object.fromEntries([...tools.schemas.entries()].sort(byName));
  const identity: Record<string, unknown> = { names: [...tools.names].sort(), patterns: [...tools.patterns].sort(), schemas };
  if (tools.annotations && tools.annotations.size > 0) identity.annotations = Object.fromEntries([...tools.annotations.entries()].sort(byName));
  return "sha256:" + sha256Hex(canonicalJson(identity));
}

/** A single-use approval that was already used. */
export function consumedDiagnostic(nonce: string): Diagnostic {
  return judgeApproval({ step: "guard", consumed: { nonce } })[0]!;
}

/**
 * Why a plan cannot be approved or guarded with no tool registry and no allow list: any tool name would
 * pass. Accepting every tool must be said in the policy (`tools.allow: ["*"]`), never be the default.
 */
export function unconstrainedToolsDiagnostic(): Diagnostic {
  return ruleDiagnostic("unknown-tool", "unconstrained", undefined);
}
