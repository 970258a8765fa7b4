import type { KeyObject } from "node:crypto";
import type { Diagnostic } from "../core/diagnostic.js";
import type { ToolRegistry } from "../core/tools.js";
import { APPROVAL_PAYLOAD_TYPE, type DsseEnvelope, signEnvelope } from "../approval/dsse.js";
import { statSync } from "node:fs";
import { keyId, keyLocation, type KeyPlaces, loadPrivateKey, realPathOf, type SettingPosition } from "./keys.js";
import { judgeApproval } from "../approval/judge.js";
import { type ApprovalRecord, createRecord, toolsHash } from "../approval/record.js";

/*
 * Approving a validated plan: what `plangate approve` and plan mode's "sign-and-start" share, so that an
 * approval made either way is the same record, signed the same way.
 */

/** A loaded approver key. */
export interface Signer {
  key: KeyObject;
  keyid: string;
}

/** Reads an Ed25519 private key file; throws KeyError (the caller's usage error) when it cannot. */
export function loadSigner(keyFile: string): Signer {
  const key = loadPrivateKey(keyFile);
  return { key, keyid: keyId(key) };
}

/**
 * approval-key-in-workspace when the signing key file is inside any of the folders (real paths) or the
 * repository holding one, or (with `places`) in a project folder outside a per-user key folder, or named
 * by a policy file the project may edit (`namedAt`: where the policy named it) and outside the per-user
 * key folders, or has more than one name (hard links); else undefined.
 */
export function keyInWorkspace(keyFile: string, workspaces: readonly string[], places?: KeyPlaces, namedAt?: SettingPosition): Diagnostic | undefined {
  let links: number | undefined;
  try {
    links = statSync(keyFile).nlink;
  } catch {
    // A key that cannot be read is loadSigner's to report.
  }
  return judgeApproval({ step: "signing", key: keyFile, ...keyLocation(keyFile, workspaces, places, namedAt), ...(links !== undefined ? { links } : {}) })[0];
}

/** What an approval of one validated plan binds. */
export interface ApproveInput {
  planHash: string;
  /** The workspace; the record holds its real path. */
  workspace: string;
  policyHash: string;
  tools: ToolRegistry;
  steps: number;
  now: Date;
  ttlMs?: number;
  singleUse: boolean;
  /** A reusable approval with no ttlMs: said on purpose (`--ttl never`); see createRecord. */
  neverExpires?: boolean;
  signer?: Signer;
  /** The host profile the plan is approved for (name and profileHash); absent: none recorded (generic). */
  host?: { name: string; hash: string };
  /** Random source, injectable for tests. */
  nonce?: string;
}

/** The approval record and the document written for it: a DSSE envelope when signed, else the bare record. */
export function approve(input: ApproveInput): { record: ApprovalRecord; document: ApprovalRecord | DsseEnvelope; text: string } {
  const record = createRecord({
    planHash: input.planHash,
    scope: realPathOf(input.workspace),
    policyHash: input.policyHash,
    toolsHash: toolsHash(input.tools),
    steps: input.steps,
    now: input.now,
    ttlMs: input.ttlMs,
    singleUse: input.singleUse,
    ...(input.neverExpires === true ? { neverExpires: true } : {}),
    keyid: input.signer?.keyid,
    nonce: input.nonce,
    ...(input.host ? { host: input.host } : {}),
  });
  const document = input.signer ? signEnvelope(APPROVAL_PAYLOAD_TYPE, Buffer.from(JSON.stringify(record), "utf8"), input.signer.key, input.signer.keyid) : record;
  return { record, document, text: JSON.stringify(document, null, 2) + "\n" };
}
