/** The guard cannot proceed safely: the tool call is refused with this reason. */
export class GuardStateError extends Error {}
