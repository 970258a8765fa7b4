/** Orchestrator checks (the orchestrator validation strategy): tasks, delegation safety with a shared session registry, subagent returns. */
export { checkTask } from "./task.js";
export type { NamedText, TaskCheckOptions, TaskCheckResult, TaskInfo } from "./task.js";
export { findTodoTask, normaliseStatus } from "./todo.js";
export type { TodoLookup, TodoTask } from "./todo.js";
export { checkDelegation, normaliseAgent } from "./delegation.js";
export type { DelegationCheckOptions, DelegationCheckResult } from "./delegation.js";
export { InvalidSessionIdError, MemorySessionRegistry, SessionRegistryError, sessionIdProblem } from "./registry.js";
export type { RegisterOutcome, SessionEntry, SessionRegistry } from "./registry.js";
export type { ReturnCheckOptions, ReturnCheckResult, ReturnInfo } from "./return.js";
export { ENCODINGS, loadTokenCounter } from "./tokens.js";
export type { Encoding, TokenCounter } from "./tokens.js";
export type { CheckResult } from "./common.js";
