import { canonicalJson } from "./jcs.js";

const CLIP = 120;

/** A value for a message: canonical JSON, clipped to 120 characters. */
export function clip(v: unknown): string {
  let s: string;
  try {
    s = v === undefined ? "(absent)" : canonicalJson(v);
  } catch {
    s = "(unserialisable)";
  }
  return s.length > CLIP ? `${s.slice(0, CLIP - 1)}…` : s;
}
