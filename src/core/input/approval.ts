/** The input of "approval" rules: an approval record and what it must match. */
export interface ApprovalInput {
  /** The record's bytes as read. */
  readonly record: unknown;
}
