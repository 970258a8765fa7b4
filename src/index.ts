/**
 * plangate: validate, hash, approve and guard AI agent plans before they run.
 * The typebox definitions of plangate's formats are in "plangate/schemas", kept apart so that importing
 * the library does not load the schema machinery.
 */
export { validatePlan, validateFile, loadPolicy } from "./node/api.js";
export type { LibraryValidateOptions, LoadPolicyOptions } from "./node/api.js";
export { planHashOf } from "./engine.js";
export type { PlanReport, ValidateOptions } from "./engine.js";
export { planHash } from "./ops/hash.js";
export { sealEnvelope, migrateLegacy } from "./ops/seal.js";
export type { EditResult, MigrateOptions } from "./ops/seal.js";
export { pythonJsonDumps, pythonChecksum } from "./core/canonical/python-json.js";
export { canonicalJson } from "./core/canonical/jcs.js";
export { parseToolsText, loadToolsFile } from "./node/tools-file.js";
export { parseContextText, loadContextFile, ContextFileError } from "./node/context-file.js";
export { defaultPolicy } from "./policy/defaults.js";
export { discoverPolicy, PolicyError } from "./node/policy.js";
export type { LoadedPolicy } from "./node/policy.js";
export { RULES, findRule } from "./rules/index.js";
export { DIALECTS } from "./dialects/index.js";
export type { IntakePlan } from "./schemas/intake.js";
export { formatText } from "./formatters/text.js";
export { formatJson, reportJson } from "./formatters/json.js";
export { ExecutionGuard, GuardRefusal, decideStep } from "./approval/guard.js";
export type { GuardOptions, Decision, ApprovedPlan, ApprovedStep } from "./approval/guard.js";
export { verifyApproval } from "./approval/verify.js";
export type { VerifyOptions, VerifyResult } from "./approval/verify.js";
export { createRecord, parseTtl, toolsHash } from "./approval/record.js";
export type { ApprovalInput } from "./approval/record.js";
export { APPROVAL_PAYLOAD_TYPE, pae, signEnvelope } from "./approval/dsse.js";
export type { DsseEnvelope } from "./approval/dsse.js";
export { generateKeyFiles, keyId, loadPrivateKey, loadTrustedKeys, KeyError } from "./approval/keys.js";
export type { TrustedKey } from "./approval/keys.js";
export { AuditLog, entryMac, verifyAuditText } from "./approval/audit.js";
export type { AuditAnchor, AuditCheck, AuditEntry, AuditHead, AuditLevel } from "./approval/audit.js";
export { consumeNonce, isConsumed } from "./approval/state.js";
export { hookCall, otherEvent, parseHookInput, startGuard } from "./approval/hook.js";
export type { HookEvent, HookInput } from "./approval/hook.js";
export { boundRun, decideHook, listRuns, readRun, repairRun, sessionKey, startRun, stopRun } from "./approval/runs.js";
export type { Answer, HookCallInput, HookContext, RepairOutcome, RunState, RunStatus, StartRunOptions } from "./approval/runs.js";
export { openStore, parseStoreSpec, StoreSpecError } from "./store/open.js";
export { FileStore } from "./store/file.js";
export { GuardStateError, StoreUnavailableError } from "./store/errors.js";
export type { AuditInput, NewRun, PendingPlan, RunTx, Store, WithRunOptions } from "./store/types.js";
export type { ApprovalRecord } from "./schemas/approval.js";
export { main } from "./cli/main.js";
export { VERSION } from "./version.js";
export type { Diagnostic, Severity, RuleSetting } from "./core/diagnostic.js";
export type { Plan, Step, DialectId } from "./core/plan.js";
export type { Policy } from "./policy/types.js";
export type { ToolRegistry } from "./core/tools.js";
export type { FileProbe } from "./core/file-probe.js";
export type { Rule, RuleMeta } from "./core/rule.js";
export type { SourceDocument } from "./core/document.js";
export type { CliIO } from "./cli/io.js";
export {
  checkTask,
  checkDelegation,
  checkReturn,
  FileSessionRegistry,
  MemorySessionRegistry,
  sessionIdProblem,
  normaliseAgent,
  normaliseStatus,
  loadTokenCounter,
  ENCODINGS,
} from "./orchestration/index.js";
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
