import type { ActiveSession, DelegationInput } from "../core/input/delegation.js";
import type { Policy } from "../core/policy.js";
import { normaliseAgent } from "../rules/delegation-cycle/agent-name.js";
import { type CheckResult, diagnosticsOf, findingsOf, isValid } from "./common.js";
import { type RegisterOutcome, type SessionEntry, type SessionRegistry, sessionIdProblem } from "./registry.js";

export interface DelegationCheckOptions {
  /** The agent about to be delegated to. */
  target: string;
  /** The delegation path so far, root first: `["orchestrator", "plan", "planner"]`. */
  path: readonly string[];
  /** The depth the orchestrator tracks; wins over the count from `path`. */
  depth?: number;
  /** The new session's id, checked against the registry. */
  sessionId?: string;
  /** Default: the policy's delegation.maxDepth (3). */
  maxDepth?: number;
  registry?: SessionRegistry;
  /** Register the id when every check passes (atomically: a racing orchestrator loses). */
  register?: boolean;
  /** Lifetime of a registered session; default the policy's delegation.sessionTtlSeconds. */
  ttlSeconds?: number;
  now: Date;
  policy?: Partial<Pick<Policy, "delegation" | "rules">>;
}

export interface DelegationCheckResult extends CheckResult {
  /** The child's depth: hops from the root (an orchestrator's direct child has depth 1). */
  depth: number;
  maxDepth: number;
  /** The entry written, when `register` was asked and every check passed. */
  registered?: SessionEntry;
}

export { normaliseAgent };

/**
 * The orchestrator validation strategy's delegation safety checks: depth ≤ max, no cycle, session id not
 * active. The registry is asked here; the "delegation" rules (delegation-depth, delegation-cycle,
 * session-id-reused) judge what it answered.
 */
export function checkDelegation(options: DelegationCheckOptions): DelegationCheckResult {
  const p = prelude(options);
  let registered: SessionEntry | undefined;
  if (p.id !== undefined && options.registry) {
    const active = options.registry.lookup(p.id, options.now);
    if (active) p.input = withActive(p.input, active);
    else if (options.register && isValid(diagnosticsOf(findingsOf("delegation", p.input, p.rules), p.rules, undefined))) {
      const outcome = options.registry.register(p.id, { now: options.now, ttlSeconds: p.ttl, agent: options.target });
      if (outcome.ok) registered = outcome.entry;
      else p.input = withActive(p.input, outcome.existing);
    }
  }
  return finish(p, registered);
}

/** A registry that answers asynchronously: a shared store's (src/store/types.ts). */
export interface AsyncSessionRegistry {
  lookupSession(id: string, now: Date): Promise<SessionEntry | undefined>;
  registerSession(id: string, o: { now: Date; ttlSeconds: number; agent?: string }): Promise<RegisterOutcome>;
}

/** checkDelegation against a shared store's registry (`options.registry` is not used). */
export async function checkDelegationIn(registry: AsyncSessionRegistry, options: Omit<DelegationCheckOptions, "registry">): Promise<DelegationCheckResult> {
  const p = prelude(options);
  let registered: SessionEntry | undefined;
  if (p.id !== undefined) {
    const active = await registry.lookupSession(p.id, options.now);
    if (active) p.input = withActive(p.input, active);
    else if (options.register && isValid(diagnosticsOf(findingsOf("delegation", p.input, p.rules), p.rules, undefined))) {
      const outcome = await registry.registerSession(p.id, { now: options.now, ttlSeconds: p.ttl, agent: options.target });
      if (outcome.ok) registered = outcome.entry;
      else p.input = withActive(p.input, outcome.existing);
    }
  }
  return finish(p, registered);
}

interface Prelude {
  rules: NonNullable<NonNullable<DelegationCheckOptions["policy"]>["rules"]>;
  ttl: number;
  input: DelegationInput;
  /** The session id, when it is one the registry can be asked about. */
  id: string | undefined;
}

/** The delegation as the rules see it, before the registry is asked. */
function prelude(options: Omit<DelegationCheckOptions, "registry">): Prelude {
  const rules = options.policy?.rules ?? {};
  const maxDepth = options.maxDepth ?? options.policy?.delegation?.maxDepth ?? 3;
  const ttl = options.ttlSeconds ?? options.policy?.delegation?.sessionTtlSeconds ?? 24 * 3600;
  const path = options.path.filter((p) => p.trim() !== "");
  const depth = options.depth ?? path.length;
  const id = options.sessionId;
  const problem = id === undefined ? undefined : sessionIdProblem(id);
  const input: DelegationInput = {
    target: options.target,
    path,
    depth,
    maxDepth,
    ...(id !== undefined ? { sessionId: id } : {}),
    ...(problem ? { sessionIdProblem: problem } : {}),
  };
  return { rules, ttl, input, id: problem ? undefined : id };
}

/** The input with the registry's entry for its id (undefined: taken, but the entry was not returned). */
function withActive(input: DelegationInput, entry: SessionEntry | undefined): DelegationInput {
  const active: ActiveSession = {
    ...(entry?.agent !== undefined ? { agent: entry.agent } : {}),
    ...(entry?.expires_at !== undefined ? { expiresAt: entry.expires_at } : {}),
    ...(entry?.unreadable !== undefined ? { unreadable: entry.unreadable } : {}),
  };
  return { ...input, active };
}

function finish(p: Prelude, registered: SessionEntry | undefined): DelegationCheckResult {
  const diagnostics = diagnosticsOf(findingsOf("delegation", p.input, p.rules), p.rules, "delegation");
  return {
    file: "delegation",
    valid: isValid(diagnostics),
    diagnostics,
    depth: p.input.depth,
    maxDepth: p.input.maxDepth,
    ...(registered ? { registered } : {}),
  };
}
