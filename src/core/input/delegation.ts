/** The input of "delegation" rules: one delegation the orchestrator is about to make. */
export interface DelegationInput {
  /** The session id the subagent will be given. */
  readonly sessionId?: string;
}
