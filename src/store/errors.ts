import { GuardStateError } from "../node/guard-error.js";

export { GuardStateError };

/**
 * The shared store cannot be reached or used (a database that is down, refuses the login, lacks the
 * schema): every decision that needs it is a denial (fail closed), with this message.
 */
export class StoreUnavailableError extends GuardStateError {}

/** The store has no such run, or the session no run: the one failure that is "not found" (HTTP 404). */
export class RunNotFoundError extends GuardStateError {}
