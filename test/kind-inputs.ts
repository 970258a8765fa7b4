import type {
  ApprovalAuditInput,
  ApprovalConditionsInput,
  ApprovalEnvelopeInput,
  ApprovalGuardInput,
  ApprovalRecordInput,
  ApprovedConditions,
  AuditLineFacts,
  SignatureFacts,
} from "../src/core/input/approval.js";
import type { DelegationInput } from "../src/core/input/delegation.js";
import type { ReturnExpectations, ReturnInput } from "../src/core/input/return.js";
import type { TaskInput, TaskSource } from "../src/core/input/task.js";
import { readReturn } from "../src/orchestration/return.js";
import { DEFAULT_TASK_OPERATIONS } from "../src/policy/defaults.js";
import { NOW } from "./helpers.js";
import { memoryFiles, type Tree, WORKSPACE } from "./rule-tester.js";

/*
 * Inputs of the orchestration kinds for rule tables (kindRuleTester): what the orchestration entry points
 * build after reading, measuring and looking up, made here from a value and a few facts.
 */

export const RETURN_EXPECTATIONS: ReturnExpectations = {
  statuses: ["completed", "partial", "failed", "blocked"],
  successStatuses: ["completed"],
  requiredFields: ["status", "summary", "artifacts", "metadata", "session_id"],
  maxSummaryTokens: 100,
  encoding: "o200k_base",
};

/** A return that every return rule accepts, in a workspace holding a non-empty reports/r.md. */
export function good(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    status: "completed",
    summary: "Wrote the report.",
    artifacts: [{ type: "report", path: "reports/r.md" }],
    metadata: { session_id: "sess_1" },
    session_id: "sess_1",
    ...extra,
  };
}

/** The input of a return: a value (written as indented JSON) or the text itself, with a workspace of `files` (default: a non-empty reports/r.md). */
export function returnInput(
  value: unknown,
  o: { expect?: Partial<ReturnExpectations>; summaryTokens?: number; files?: Tree; bytes?: boolean } = {},
): ReturnInput {
  const text = typeof value === "string" ? value : JSON.stringify(value, null, 2);
  const read = readReturn(o.bytes ? Buffer.from(text, "latin1") : text);
  return {
    text: read.text,
    problems: read.problems,
    ...(read.problems.length === 0 ? { value: read.value } : {}),
    locate: read.locate,
    expect: { ...RETURN_EXPECTATIONS, ...o.expect },
    ...(o.summaryTokens !== undefined ? { summaryTokens: o.summaryTokens } : {}),
    workspace: WORKSPACE,
    files: memoryFiles(o.files ?? { "reports/r.md": "# Report\n" }),
  };
}

/** A delegation from the orchestrator's planner, depth and maximum from the path unless given. */
export function delegationInput(target: string, path: readonly string[], extra: Partial<DelegationInput> = {}): DelegationInput {
  return { target, path, depth: path.length, maxDepth: 3, ...extra };
}

/** The TODO text of the task tables: task 12 planned (Status on line 3), a heading 7 without a Status line. */
export const TASK_TODO = "### 12. Fix the parser\n- **Effort**: 2 hours\n- **Status**: [PLANNED]\n\n### 7. Phase B\n";

/** A task reference looked up in `sources`. */
export function taskInput(reference: string, sources: readonly TaskSource[], extra: Partial<TaskInput> = {}): TaskInput {
  return { reference, text: TASK_TODO, file: sources[0]?.file ?? "-", sources, operations: DEFAULT_TASK_OPERATIONS, ...extra };
}

/** Task 12 as TASK_TODO has it. */
export const TODO_12: TaskSource = {
  kind: "todo",
  file: "specs/TODO.md",
  entry: { title: "Fix the parser", rawStatus: "PLANNED", status: "planned", statusOffset: TASK_TODO.indexOf("PLANNED") },
};

/** A key id, as the trusted keys and signatures carry them. */
export const KEYID = "0123456789abcdef" + "0".repeat(48);

/** A signature that a trusted key outside the workspace verified, for a record naming that key. */
export const VERIFIED: Extract<SignatureFacts, { kind: "verified" }> = { kind: "verified", keyid: KEYID, file: "/keys/alice.pub", declaredKeyid: KEYID };

/** The envelope step of a signed approval that opened, with the signature check's facts. */
export function envelopeInput(extra: Partial<Omit<ApprovalEnvelopeInput, "step">> = {}): ApprovalEnvelopeInput {
  return { step: "envelope", allowUnsigned: false, signature: VERIFIED, ...extra };
}

/** The record step of a record that matches the schema and approves the plan on disk. */
export function recordInput(extra: Partial<Omit<ApprovalRecordInput, "step">> = {}): ApprovalRecordInput {
  return { step: "record", schemaErrors: [], plan: { approved: "sha256:plan", now: "sha256:plan" }, ...extra };
}

/** The conditions step of an approval made an hour before NOW in /ws, under what is in force. */
export function conditionsInput(approved: Partial<ApprovedConditions> = {}, extra: Partial<Omit<ApprovalConditionsInput, "step" | "approved">> = {}): ApprovalConditionsInput {
  const host = { name: "generic", hash: "sha256:host" };
  return {
    step: "conditions",
    approved: { scope: "/ws", policyHash: "sha256:policy", toolsHash: null, host, validatedAt: new Date(NOW.getTime() - 3_600_000).toISOString(), nonce: "n1", ...approved },
    scopeReal: "/ws",
    workspace: "/ws",
    policyHash: "sha256:policy",
    toolsHash: null,
    host,
    now: NOW,
    consumed: false,
    ...extra,
  };
}

/** A guard's step of checks. */
export function guardInput(extra: Omit<ApprovalGuardInput, "step">): ApprovalGuardInput {
  return { step: "guard", ...extra };
}

/** The audit step of a trail of `n` well-chained lines, with their MACs as given (default: not checked). */
export function auditInput(n: number, extra: Partial<Omit<ApprovalAuditInput, "step">> = {}, mac: AuditLineFacts["mac"] = "unchecked"): ApprovalAuditInput {
  const hash = (i: number) => `sha256:line${i}`;
  const lines: AuditLineFacts[] = Array.from({ length: n }, (_, i) => ({ line: i + 1, object: true, seq: i, prev: i === 0 ? null : hash(i - 1), prevHash: i === 0 ? null : hash(i - 1), mac }));
  return { step: "audit", lines, head: { count: n, hash: n === 0 ? null : hash(n - 1) }, ...extra };
}
