/** The input of "return" rules: a subagent's return, as read, with what the orchestrator expects of it. */
export interface ReturnInput {
  /** The return's decoded text. */
  readonly text: string;
}
