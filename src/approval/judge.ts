import type { Diagnostic } from "../core/diagnostic.js";
import type { ApprovalInput, GuardFailureFacts, GuardStepFacts } from "../core/input/approval.js";
import { findingsToDiagnostics, runRules } from "../core/run-rules.js";
import { APPROVAL_RULES } from "../rules/approval.js";

/**
 * What the "approval" rules find in one step of verifying or enforcing an approval, as diagnostics. Always
 * errors: an approval either holds or it does not, and the policy's `rules:` cannot lower its checks.
 */
export function judgeApproval(input: ApprovalInput): Diagnostic[] {
  return findingsToDiagnostics(runRules(APPROVAL_RULES, "approval", input), () => "error", undefined);
}

/** The guard-failure diagnostic for what stopped a guard from deciding. */
export function guardFailure(failure: GuardFailureFacts): Diagnostic {
  return judgeApproval({ step: "guard", failure })[0]!;
}

/** The guard-step-mismatch diagnostic for a call or subagent event that is not where the approved plan is. */
export function guardMismatch(mismatch: GuardStepFacts): Diagnostic {
  return judgeApproval({ step: "guard", mismatch })[0]!;
}
