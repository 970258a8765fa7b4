/** What the session registry holds for an id that is already taken. */
export interface ActiveSession {
  /** The agent the session was delegated to, if recorded. */
  readonly agent?: string;
  /** When the session expires (ISO 8601), if recorded. */
  readonly expiresAt?: string;
  /** Why the registry entry cannot be read, when it cannot: the id is blocked rather than active. */
  readonly unreadable?: string;
}

/**
 * The input of "delegation" rules: one delegation the orchestrator is about to make. The session registry is
 * asked before the rules run; what it answered is `active`.
 */
export interface DelegationInput {
  /** The agent about to be delegated to, as written. */
  readonly target: string;
  /** The delegation path so far, root first, without blank names. */
  readonly path: readonly string[];
  /** The child's depth: hops from the root (an orchestrator's direct child has depth 1). */
  readonly depth: number;
  readonly maxDepth: number;
  /** The new session's id, as given. */
  readonly sessionId?: string;
  /** Why the session id cannot be compared with the registry's safely, when it cannot (it is then not looked up). */
  readonly sessionIdProblem?: string;
  /** The registry's entry for the session id, when the id is already taken. */
  readonly active?: ActiveSession;
}
