import approvalInvalid from "./approval-invalid/index.js";
import approvalSignature from "./approval-signature/index.js";
import approvalAlgorithm from "./approval-algorithm/index.js";
import approvalUntrustedKey from "./approval-untrusted-key/index.js";
import approvalKeyInWorkspace from "./approval-key-in-workspace/index.js";
import approvalPlanMismatch from "./approval-plan-mismatch/index.js";
import approvalScopeMismatch from "./approval-scope-mismatch/index.js";
import approvalPolicyMismatch from "./approval-policy-mismatch/index.js";
import approvalExpired from "./approval-expired/index.js";
import approvalConsumed from "./approval-consumed/index.js";
import guardStepMismatch from "./guard-step-mismatch/index.js";
import guardFailure from "./guard-failure/index.js";
import auditChainBroken from "./audit-chain-broken/index.js";
import auditUnauthenticated from "./audit-unauthenticated/index.js";

/**
 * The approval checks (signatures, the approval record, the execution guard and its audit trail), in
 * their check order: the end of the catalogue (./index.ts), kept in their own list so that the guard,
 * which runs only these, does not load every rule of plan validation (a hook call's start-up).
 */
export const APPROVAL_RULES = [
  approvalInvalid,
  approvalSignature,
  approvalAlgorithm,
  approvalUntrustedKey,
  approvalKeyInWorkspace,
  approvalPlanMismatch,
  approvalScopeMismatch,
  approvalPolicyMismatch,
  approvalExpired,
  approvalConsumed,
  guardStepMismatch,
  guardFailure,
  auditChainBroken,
  auditUnauthenticated,
] as const;
