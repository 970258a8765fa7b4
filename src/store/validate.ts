import type { Cursor, ExpectedCall } from "../approval/match.js";
import { profileHash } from "../host/profile.js";
import type { RunState } from "./types.js";

/* What a store reads back is checked before it is used: a run that is not one is refused, never guessed at. */

export function isCursor(c: unknown, n: number): c is Cursor {
  const o = c as Cursor;
  return typeof o === "object" && o !== null && Number.isInteger(o.index) && Number.isInteger(o.count) && o.index >= 0 && o.index <= n && o.count >= 0;
}

export function isExpected(e: unknown): e is ExpectedCall {
  const o = e as ExpectedCall;
  return (
    typeof o === "object" && o !== null && Number.isInteger(o.step) && typeof o.tool === "string" && typeof o.args === "object" && o.args !== null && !Array.isArray(o.args) &&
    Number.isInteger(o.repeat) && o.repeat >= 1 && typeof o.optional === "boolean" && typeof o.confirm === "boolean" &&
    (o.absent === undefined || typeof o.absent === "string")
  );
}

function isIssued(e: unknown): boolean {
  const o = e as { tool?: unknown; args_hash?: unknown; id?: unknown };
  return typeof o === "object" && o !== null && typeof o.tool === "string" && typeof o.args_hash === "string" && (o.id === undefined || typeof o.id === "string");
}

export function isRun(v: Partial<RunState>, id: string): v is RunState {
  return (
    typeof v === "object" && v !== null && v.version === 3 && v.run_id === id &&
    (v.session_id === null || typeof v.session_id === "string") &&
    ["pending", "active", "stopped", "complete"].includes(v.status as string) &&
    typeof v.plan === "string" && typeof v.plan_hash === "string" && typeof v.plan_raw_hash === "string" && typeof v.nonce === "string" &&
    typeof v.scope === "string" && typeof v.audit === "string" && typeof v.created_at === "string" &&
    Array.isArray(v.expected) && typeof v.progress === "object" && v.progress !== null && isCursor(v.progress.cursor, v.expected.length) &&
    Array.isArray(v.free) && v.free.every((t) => typeof t === "string") &&
    typeof v.audit_head === "object" && v.audit_head !== null && Number.isInteger(v.audit_head.count) && (v.audit_head.hash === null || typeof v.audit_head.hash === "string") &&
    typeof v.audit_key === "string" && /^[0-9a-f]{64}$/.test(v.audit_key) && Number.isInteger(v.audit_from) && Number.isInteger(v.audit_bytes) && (v.audit_bytes as number) >= 0 &&
    Number.isInteger(v.max_input_bytes) && (v.max_input_bytes as number) > 0 &&
    typeof v.shell === "object" && v.shell !== null && typeof v.policy === "object" && v.policy !== null &&
    typeof v.host === "object" && v.host !== null && typeof v.profile === "object" && v.profile !== null && profileHash(v.profile) === v.host.hash &&
    (v.issued === undefined || (Array.isArray(v.issued) && v.issued.every(isIssued)))
  );
}


/** No further call can be taken: the cursor sits on the last expected call, used up. */
export function isFinished(expected: readonly ExpectedCall[], cursor: Cursor): boolean {
  if (expected.length === 0) return true;
  return cursor.index === expected.length - 1 && cursor.count >= expected[cursor.index]!.repeat;
}
