import { type KeyObject, sign, verify } from "node:crypto";

/** The DSSE payload type of a plangate approval record. */
export const APPROVAL_PAYLOAD_TYPE = "application/vnd.plangate.approval+json";

/** A DSSE envelope (https://github.com/secure-systems-lab/dsse), as in-toto and Sigstore use it. */
export interface DsseEnvelope {
  payloadType: string;
  /** Base64 of the payload bytes. */
  payload: string;
  signatures: { keyid: string; sig: string }[];
}

/**
 * DSSE's pre-authentication encoding: "DSSEv1" SP len(type) SP type SP len(body) SP body, lengths in
 * bytes as ASCII decimals. Signing this rather than the payload alone binds the payload type too.
 */
export function pae(payloadType: string, body: Uint8Array): Buffer {
  const type = Buffer.from(payloadType, "utf8");
  return Buffer.concat([Buffer.from(`DSSEv1 ${type.byteLength} `), type, Buffer.from(` ${body.byteLength} `), body]);
}

/** Signs a payload with an Ed25519 private key into a one-signature envelope. */
export function signEnvelope(payloadType: string, body: Uint8Array, key: KeyObject, keyid: string): DsseEnvelope {
  const sig = sign(null, pae(payloadType, body), key);
  return { payloadType, payload: Buffer.from(body).toString("base64"), signatures: [{ keyid, sig: sig.toString("base64") }] };
}

/** Does `sig` (base64) verify over the envelope's PAE with this Ed25519 public key? Never throws. */
export function verifySignature(env: DsseEnvelope, body: Uint8Array, sig: string, key: KeyObject): boolean {
  try {
    const raw = Buffer.from(sig, "base64");
    // Ed25519 signatures are exactly 64 bytes; anything else is another algorithm or garbage.
    if (raw.byteLength !== 64 || raw.toString("base64") !== sig) return false;
    return verify(null, pae(env.payloadType, body), key, raw);
  } catch {
    return false;
  }
}

/** Is this value shaped like a DSSE envelope (it says so, even if its members are wrong)? */
export function looksLikeEnvelope(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v) && ("payloadType" in v || "signatures" in v || "payload" in v);
}
