/**
 * Every rule id plangate reports, one place: `RuleId` is their union, so a misspelt id is a type error
 * instead of a silently new rule. test/meta.test.ts keeps this list equal to the rule folders.
 */
export const RULE_IDS = [
  "file-not-found", "parse-error", "duplicate-key", "unsafe-value", "limit-exceeded",
  "unknown-format", "empty-plan", "missing-field", "unknown-key", "invalid-type", "step-numbering",
  "checksum-mismatch", "checksum-missing", "hash-mismatch", "stale-plan", "future-timestamp",
  "unknown-tool", "disallowed-tool", "tool-arguments", "unresolved-argument", "argument-constraint", "missing-intent", "multiple-tools", "non-deterministic", "scope-mismatch", "path-outside-workspace", "protected-path-write",
  "md-title", "md-missing-section", "md-action-heading", "md-action-separator",
  "missing-file-path", "create-target-exists", "edit-target-missing", "not-in-context", "edit-missing-find-replace", "find-no-match", "find-ambiguous", "missing-resource", "read-file-missing",
  "task-number-format", "task-not-found", "task-status",
  "delegation-depth", "delegation-cycle", "session-id-reused",
  "return-json", "return-missing-field", "return-status", "return-session-mismatch", "summary-too-long", "artifact-missing", "artifact-empty",
  "approval-invalid", "approval-signature", "approval-algorithm", "approval-untrusted-key", "approval-key-in-workspace", "approval-plan-mismatch", "approval-scope-mismatch", "approval-policy-mismatch", "approval-expired", "approval-consumed",
  "guard-step-mismatch", "guard-failure", "audit-chain-broken", "audit-unauthenticated",
] as const;

export type RuleId = (typeof RULE_IDS)[number];

const KNOWN: ReadonlySet<string> = new Set(RULE_IDS);

/** Is this string a rule id (for ids read from input: a policy's `rules:`, a stored audit line)? */
export function isRuleId(id: string): id is RuleId {
  return KNOWN.has(id);
}
