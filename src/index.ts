/**
 * plangate: validate, hash, approve and guard AI agent plans before they run.
 *
 * This is the library's whole surface (test/package-exports.test.ts records it, so a change is
 * deliberate): validation and the policy, plan hashes, approvals (create, sign, verify), the execution
 * guard and its audit trail, host profiles, the formatters, the rule catalogue and the orchestrator
 * checks. The CLI, the PreToolUse hook and its runs are not part of it. The typebox definitions of
 * plangate's formats are in "plangate/schemas", kept apart so that importing the library does not load
 * the schema machinery.
 */

import { useBaselineCompilerForShell } from "./node/wasm-compiler.js";

// The shell parser (loaded for the first plan or call with a command) compiles with V8's baseline
// compiler: see src/node/wasm-compiler.ts.
useBaselineCompilerForShell();

// Validation and the policy.
export { validatePlan, validateFile, loadPolicy } from "./node/api.js";
export type { LibraryValidateOptions, LoadPolicyOptions } from "./node/api.js";
export type { PlanReport } from "./core/plan-report.js";
export type { ValidateOptions } from "./engine.js";
export { defaultPolicy } from "./policy/defaults.js";
export { discoverPolicy, policyForFile, PolicyError } from "./node/policy.js";
export type { LoadedPolicy } from "./node/policy.js";
export type { Policy, PolicyOverride } from "./core/policy.js";
export { parseToolsText, loadToolsFile } from "./node/tools-file.js";
export type { ToolRegistry } from "./core/tools.js";
export { parseContextText, loadContextFile, ContextFileError } from "./node/context-file.js";
export type { Diagnostic, Severity, RuleSetting } from "./core/diagnostic.js";
export type { Plan, Step, DialectId } from "./core/plan.js";
export type { FileProbe } from "./core/file-probe.js";
// A source document's issues are facts (a rule, a message id, data): their words are the rule's messages.
export type { ReadFact, ReadIssue, SourceDocument } from "./core/document.js";

// Plan hashes and scQC envelopes.
export { planHash } from "./ops/hash.js";
export { sealEnvelope, migrateLegacy } from "./ops/seal.js";
export type { EditResult, MigrateOptions } from "./ops/seal.js";

// Approvals: create (and sign), verify; keys.
export { approve, loadSigner } from "./node/sign.js";
export type { ApproveInput, Signer } from "./node/sign.js";
export { createRecord, parseTtl, toolsHash } from "./approval/record.js";
export type { ApprovalInput } from "./approval/record.js";
export { APPROVAL_PAYLOAD_TYPE, signEnvelope } from "./approval/dsse.js";
export type { DsseEnvelope } from "./approval/dsse.js";
export { verifyApproval } from "./node/verify.js";
export type { VerifyOptions, VerifyResult } from "./node/verify.js";
export { generateKeyFiles, keyId, keyPlacesFor, loadPrivateKey, loadTrustedKeys, KeyError } from "./node/keys.js";
export type { KeyPlaces, TrustedKey } from "./node/keys.js";
export type { ApprovalRecord } from "./schemas/approval.js";

// The execution guard and its audit trail.
export { ExecutionGuard, GuardRefusal } from "./node/guard.js";
export type { GuardOptions, Decision, ApprovedPlan, ApprovedStep } from "./node/guard.js";
export { AuditLog, verifyAuditText } from "./node/audit.js";
export type { AuditAnchor, AuditCheck, AuditEntry, AuditHead, AuditLevel } from "./node/audit.js";

// Shared state: the file store (a state directory) or PostgreSQL, for a fleet of guards.
export { openStore, parseStoreSpec, StoreSpecError } from "./store/open.js";
export { FileStore } from "./store/file.js";
export { GuardStateError, StoreUnavailableError } from "./store/errors.js";
export type { AuditInput, NewRun, PendingPlan, RunTx, Store, WithRunOptions } from "./store/types.js";

// Host profiles.
export { HostProfileError } from "./host/profile.js";
export { loadProfile } from "./node/profile-file.js";
export type { HostProfile } from "./host/profile.js";

// Formatters, rules.
export { formatText } from "./formatters/text.js";
export { formatJson, reportJson } from "./formatters/json.js";
export { formatSarif } from "./formatters/sarif.js";
export { formatFeedback } from "./formatters/feedback.js";
export type { FormatOptions } from "./formatters/types.js";
export { RULES, findRule } from "./rules/index.js";
export { explainText } from "./rules/explain.js";
export type { Rule, RuleMeta } from "./core/rule.js";
export { VERSION } from "./version.js";

// Orchestrator checks.
export { checkTask, checkDelegation, MemorySessionRegistry } from "./orchestration/index.js";
export { checkReturn } from "./node/check-return.js";
export { FileSessionRegistry } from "./store/file-registry.js";
export type {
  CheckResult,
  TaskCheckOptions,
  TaskCheckResult,
  TaskInfo,
  DelegationCheckOptions,
  DelegationCheckResult,
  SessionEntry,
  SessionRegistry,
  RegisterOutcome,
  ReturnCheckOptions,
  ReturnCheckResult,
  ReturnInfo,
  Encoding,
} from "./orchestration/index.js";
export type { SubagentReturn } from "./schemas/subagent-return.js";
