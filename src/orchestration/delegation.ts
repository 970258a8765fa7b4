import type { Policy } from "../core/policy.js";
import { type CheckResult, type Finding, isValid, toDiagnostics } from "./common.js";
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

/**
 * An agent name as compared for cycles: Unicode-compatible, case-folded, separators unified, so
 * "Planner", "planner " and "planner_agent"/"planner-agent" cannot slip past as different agents.
 */
export function normaliseAgent(name: string): string {
  return name
    .normalize("NFKC")
    .toLowerCase()
    .replace(/[\u200B-\u200F\u2060\uFEFF]/g, "")
    .trim()
    .replace(/^[@/]+/, "")
    .replace(/[\s_\-.]+/g, "-");
}

/** The orchestrator validation strategy's delegation safety checks: depth ≤ max, no cycle, session id not active. */
export function checkDelegation(options: DelegationCheckOptions): DelegationCheckResult {
  const p = prelude(options);
  let registered: SessionEntry | undefined;
  if (p.id !== undefined && options.registry) {
    const active = options.registry.lookup(p.id, options.now);
    if (active) p.findings.push(reused(p.id, active));
    else if (options.register && isValid(toDiagnostics(p.findings, p.rules, undefined))) {
      const outcome = options.registry.register(p.id, { now: options.now, ttlSeconds: p.ttl, agent: options.target });
      if (outcome.ok) registered = outcome.entry;
      else p.findings.push(reused(p.id, outcome.existing));
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
    if (active) p.findings.push(reused(p.id, active));
    else if (options.register && isValid(toDiagnostics(p.findings, p.rules, undefined))) {
      const outcome = await registry.registerSession(p.id, { now: options.now, ttlSeconds: p.ttl, agent: options.target });
      if (outcome.ok) registered = outcome.entry;
      else p.findings.push(reused(p.id, outcome.existing));
    }
  }
  return finish(p, registered);
}

interface Prelude {
  rules: NonNullable<NonNullable<DelegationCheckOptions["policy"]>["rules"]>;
  maxDepth: number;
  ttl: number;
  depth: number;
  findings: Finding[];
  /** The session id, when it is one the registry can be asked about. */
  id: string | undefined;
}

/** The checks that need no registry: depth, cycle, the session id's form. */
function prelude(options: Omit<DelegationCheckOptions, "registry">): Prelude {
  const rules = options.policy?.rules ?? {};
  const maxDepth = options.maxDepth ?? options.policy?.delegation?.maxDepth ?? 3;
  const ttl = options.ttlSeconds ?? options.policy?.delegation?.sessionTtlSeconds ?? 24 * 3600;
  const path = options.path.filter((p) => p.trim() !== "");
  const depth = options.depth ?? path.length;
  const findings: Finding[] = [];

  if (depth > maxDepth) {
    findings.push({
      rule: "delegation-depth",
      message: `Delegation to "${options.target}" would reach depth ${depth}, over the maximum of ${maxDepth}.`,
      hint: "finish the work at this level or return to the orchestrator; raise delegation.maxDepth only for deliberate deep chains",
      expected: `<= ${maxDepth}`,
      actual: depth,
    });
  }

  const target = normaliseAgent(options.target);
  const hit = path.findIndex((p) => normaliseAgent(p) === target);
  if (hit >= 0) {
    const chain = [...path, options.target].join(" → ");
    findings.push({
      rule: "delegation-cycle",
      message: `Delegation to "${options.target}" would form a cycle: ${chain} ("${path[hit]}" is already at position ${hit + 1} of the path).`,
      hint: "return to the agent already in the path instead of delegating to it again",
      actual: chain,
    });
  }

  let id = options.sessionId;
  if (id !== undefined) {
    const problem = sessionIdProblem(id);
    if (problem) {
      // A malformed id cannot be compared safely, so it is refused rather than skipped.
      findings.push({
        rule: "session-id-reused",
        message: `Session id "${id}" cannot be checked against the active registry: ${problem}.`,
        hint: "use an id such as sess_1735460684_a1b2c3",
        actual: id,
      });
      id = undefined;
    }
  }
  return { rules, maxDepth, ttl, depth, findings, id };
}

function finish(p: Prelude, registered: SessionEntry | undefined): DelegationCheckResult {
  const diagnostics = toDiagnostics(p.findings, p.rules, "delegation");
  return {
    file: "delegation",
    valid: isValid(diagnostics),
    diagnostics,
    depth: p.depth,
    maxDepth: p.maxDepth,
    ...(registered ? { registered } : {}),
  };
}

function reused(id: string, entry: SessionEntry | undefined): Finding {
  if (entry?.unreadable)
    return {
      rule: "session-id-reused",
      message: `Session id "${id}" is blocked: ${entry.unreadable}.`,
      hint: "remove that entry from the session registry folder (a session entry is a small JSON file), or use a fresh session id",
      actual: id,
    };
  const held = [entry?.agent ? `delegated to "${entry.agent}"` : "", entry?.expires_at ? `expires ${entry.expires_at}` : ""].filter(Boolean);
  return {
    rule: "session-id-reused",
    message: `Session id "${id}" is already active${held.length ? ` (${held.join(", ")})` : ""}; give the new delegation a fresh session id.`,
    hint: "generate a new id per delegation; release finished sessions with `plangate check-delegation --release`",
    actual: id,
  };
}
