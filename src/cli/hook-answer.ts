import { AuditError } from "../node/audit.js";
import { GuardRefusal } from "../node/guard.js";
import { HookInputError, type HookInput, hookCall, maxInputBytesOf, otherEvent, parseHookInput, RAN_EVENTS } from "../node/hook.js";
import type { TrustedKey } from "../node/keys.js";
import { type Answer, decideHook, ranCall, subagentEvent } from "../store/runs.js";
import { GuardStateError, readState } from "../node/guard-state.js";
import { guardFailure } from "../approval/judge.js";
import type { HostProfile } from "../host/profile.js";
import type { LoadedPolicy } from "../node/policy.js";
import type { Store } from "../store/types.js";
import { EXIT, UsageError } from "./io.js";
import { trustedKeysFrom } from "./commands/approval-common.js";
import { GUARD_FAILURE } from "../rules/guard-failure/index.js";
import { guardDecision } from "../rules/guard-failure/decisions.js";
import { createFileProbe } from "../node/file-probe.js";

/*
 * One hook decision, shared by `plangate guard` (a command hook: stdin in, stdout/exit code out) and
 * `plangate serve` (an http hook: the request body in, the response body out). Both get exactly the same
 * answer for the same input because both call answerHook; only where the bytes come from and where the
 * printed answer goes differ.
 */

/** Claude Code reads exit 2 of a PreToolUse hook as "block, reason on stderr"; 0 lets the call through. */
export const BLOCK = 2;

/** Where the hook's runs, audit trails and consumed approvals live, and how large an input may be. */
export interface HookStore {
  /** The store: a state directory's path (the file store), or an open shared store (PostgreSQL). */
  dir: string | Store;
  /** Where plan mode writes accepted plans (the hook re-reads their bytes): the state directory, or with a shared store a local one. */
  planDir: () => Promise<string>;
  /** The largest hook input read (guard.maxInputBytes). */
  maxInputBytes: number;
  /** Called once the decision is made (a shared store's connections closed); absent: nothing to close. */
  close?: () => Promise<void>;
}

/** What a hook decision takes besides the input bytes. */
export interface HookSettings {
  /** `claude`: Claude Code's JSON on stdout, exit 0; `exit`: exit 0 allows, exit 2 blocks (reason on stderr). */
  output: "exit" | "claude";
  /** A decision not reached in this many milliseconds is a deny (the flag's text is checked here: a bad value denies). */
  timeoutMs: number | string;
  now: () => Date;
  /** Where relative paths (a host profile file, trusted keys) resolve, and the environment for the defaults. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** The policy in force (loaded at most once per decision; the server loads it once at start). */
  policy: () => Promise<LoadedPolicy>;
  /** The state directory and the input limit; called once, before the input is read. */
  store: () => Promise<HookStore>;
  /** `--host`: the agent host profile for plan mode's plans (default: the policy's, else generic). */
  host?: string;
  /** The deprecated single-file state of plangate 0.1 (`--state`); the CLI only. */
  legacyState?: string;
}

/** The decision, for metrics: the event, what was answered, the rule of a deny. */
export interface HookOutcome {
  event: string;
  /** `none`: no decision printed (a valid plan the person decides on, a subagent event, an ignored event). */
  decision: "allow" | "deny" | "ask" | "none";
  rule?: string;
}

/** What the hook printed and its exit code. */
export interface HookOutput {
  code: number;
  stdout: string;
  stderr: string;
  outcome: HookOutcome;
  /**
   * Why a deny was forced rather than decided: the input could not be read (`input`), the state
   * directory could not be read, locked or written (`store`), no decision in time (`timeout`), a bug (`internal`).
   */
  failure?: "input" | "store" | "timeout" | "internal";
}

/** The longest --timeout a timer can keep (2^31-1 ms, about 24.8 days). */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** The decision did not land in time. */
class HookTimeout extends GuardStateError {}

function failureOf(err: unknown): NonNullable<HookOutput["failure"]> {
  if (err instanceof HookInputError) return "input";
  if (err instanceof HookTimeout) return "timeout";
  if (err instanceof GuardStateError || err instanceof AuditError || typeof (err as NodeJS.ErrnoException)?.code === "string") return "store";
  return "internal";
}

/** Claude Code's PreToolUse answer: always exit 0, the decision in the JSON. */
export function claudeAnswer(a: { decision: "allow" | "deny" | "ask"; reason: string; rule?: string }): string {
  const reason = a.decision === "deny" && a.rule ? `plangate: ${a.reason} [${a.rule}]` : `plangate: ${a.reason}`;
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: a.decision, permissionDecisionReason: reason } }) + "\n";
}

/** Claude Code's PermissionRequest answer (a deny). */
function claudePermissionDeny(message: string): string {
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PermissionRequest", decision: { behavior: "deny", message: `plangate: ${message}` } } }) + "\n";
}

/** The generic blocking form every other event reads. */
function claudeBlock(reason: string, rule: string): string {
  return JSON.stringify({ decision: "block", reason: `plangate: ${reason} [${rule}]` }) + "\n";
}

/**
 * A deny in the form the event reads (`claude` output): PreToolUse (or an unreadable input, whose event is
 * unknown: Claude Code sends the PreToolUse hooks most), PermissionRequest, or the generic block.
 */
export function claudeDeny(event: string | undefined, reason: string, rule: string): string {
  if (event === "PermissionRequest") return claudePermissionDeny(`${reason} [${rule}]`);
  if (event === undefined || event === "PreToolUse") return claudeAnswer({ decision: "deny", reason, rule });
  return claudeBlock(reason, rule);
}

/**
 * Decides one hook input. Every path out but an explicit allow (or ask, or the silence plan mode and
 * subagent events keep) is a deny: a crash, a timeout or an unreadable input never reads as "allow".
 * `read(max)` returns the input, stopping once more than `max` bytes arrived (it is then refused).
 */
export async function answerHook(read: (maxBytes: number) => Promise<Uint8Array>, s: HookSettings): Promise<HookOutput> {
  const claude = s.output === "claude";
  let stdout = "";
  let stderr = "";
  let spoken = false;
  let event: string | undefined;
  const outcome: HookOutcome = { event: "unknown", decision: "none" };
  const done = (code: number): HookOutput => ({ code, stdout, stderr, outcome: { ...outcome, event: event ?? "unknown" } });
  const answer = (a: Answer): number => {
    // One answer only: a decision that lands after the timeout's deny is not printed.
    if (spoken) return BLOCK;
    spoken = true;
    outcome.decision = a.decision;
    if (a.rule !== undefined && a.decision !== "allow") outcome.rule = a.rule;
    if (claude) {
      stdout += claudeAnswer(a);
      return EXIT.ok;
    }
    if (a.decision === "allow") return EXIT.ok;
    const why = a.decision === "ask" ? `${a.reason} (the exit-code answer cannot ask the person; use --output claude)` : a.reason;
    stderr += `plangate guard: blocked: ${why} [${a.rule ?? GUARD_FAILURE}]\n`;
    return BLOCK;
  };
  /** A deny in the event's own form (the plan-mode and other-event paths, and any failure once the event is known). */
  const deny = (reason: string, rule: string): number => {
    if (spoken) return BLOCK;
    if (!claude || event === undefined || event === "PreToolUse") return answer({ decision: "deny", reason, rule });
    spoken = true;
    outcome.decision = "deny";
    outcome.rule = rule;
    stdout += claudeDeny(event, reason, rule);
    return EXIT.ok;
  };
  const other = (input: HookInput): number => {
    const o = otherEvent(input);
    if (o.decision === "ignore") {
      spoken = true;
      stderr += o.reason + "\n";
      return EXIT.ok;
    }
    return deny(o.reason, GUARD_FAILURE);
  };
  let timer: NodeJS.Timeout | undefined;
  // A decision still under way when the timeout answers (deny) must take nothing: the host was told no, and
  // a step taken then would be skipped (the next call, step N+1, would be allowed). Once a decision has
  // begun to record an allow (commit), the timeout no longer answers: the answer is that decision's.
  let committed = false;
  let timedOut = false;
  const commit = (): boolean => {
    if (timedOut) return false;
    committed = true;
    return true;
  };
  try {
    const ms = Number(s.timeoutMs);
    // Past 2^31-1 ms a timer fires at once (Node clamps it to 1 ms): every call would be denied as timed out.
    if (!Number.isInteger(ms) || ms <= 0 || ms > MAX_TIMEOUT_MS) throw new GuardStateError(guardFailure({ kind: "bad-timeout", value: String(s.timeoutMs) }).message);
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        if (committed) return;
        timedOut = true;
        reject(new HookTimeout(guardFailure({ kind: "timeout", ms }).message));
      }, ms);
    });
    const decide = async (): Promise<number> => {
      if (s.legacyState !== undefined) {
        // The single-file state of plangate 0.1 (deprecated): one run, no sessions.
        const max = maxInputBytesOf(readState(s.legacyState));
        const input = parseHookInput(await read(max), max);
        event = input.event;
        if (input.event !== "PreToolUse") return other(input);
        const refusal = await hookCall(s.legacyState, { tool: input.tool!, args: input.args!, cwd: input.cwd }, s.now(), commit);
        return answer(refusal === undefined ? { decision: "allow", reason: guardDecision("allowNext") } : { decision: "deny", reason: `${refusal.message}${refusal.hint ? ` (${refusal.hint})` : ""}`, rule: refusal.rule });
      }
      const store = await s.store();
      try {
        return await decideIn(store);
      } finally {
        await store.close?.();
      }
    };
    const decideIn = async (store: HookStore): Promise<number> => {
      const bytes = await read(store.maxInputBytes);
      const input = parseHookInput(bytes, store.maxInputBytes);
      event = input.event;
      if (input.tool === "ExitPlanMode" && (input.event === "PreToolUse" || input.event === "PermissionRequest" || input.event === "PostToolUse")) {
        const r = await planMode(input, store, s, commit);
        if (spoken) return BLOCK;
        spoken = true;
        stdout += r.stdout;
        stderr += r.stderr;
        outcome.decision = r.deny ? "deny" : "none";
        if (r.deny) outcome.rule = "plan-mode";
        return r.code;
      }
      if (input.event === "SubagentStart" || input.event === "SubagentStop") {
        const r = await subagentEvent(store.dir, { event: input.event as "SubagentStart" | "SubagentStop", session: input.session, agentId: input.agentId, agentType: input.agentType }, s.now());
        // Neither event is refused (a start cannot be, a blocked stop keeps the subagent running): the run denies its calls instead.
        if (r.diagnostic) stderr += `plangate guard: ${input.event}: ${r.diagnostic.message} [${r.diagnostic.rule}]\n`;
        spoken = true;
        return EXIT.ok;
      }
      if (RAN_EVENTS.has(input.event)) {
        // The call has run: it must be one the guard allowed, with the input the guard decided on.
        const r = await ranCall(store.dir, { event: input.event, session: input.session, tool: input.tool!, args: input.args!, ...(input.useId === undefined ? {} : { useId: input.useId }) }, s.now());
        if (r.diagnostic) return deny(`${r.diagnostic.message}${r.diagnostic.hint ? ` (${r.diagnostic.hint})` : ""}`, r.diagnostic.rule);
        spoken = true;
        return EXIT.ok;
      }
      if (input.event !== "PreToolUse") return other(input);
      const call = { session: input.session, cwd: input.cwd, tool: input.tool!, args: input.args!, bytes: bytes.byteLength, ...(input.agentId === undefined ? {} : { agentId: input.agentId }), ...(input.useId === undefined ? {} : { useId: input.useId }) };
      const a = await decideHook(store.dir, call, { now: s.now(), mode: claude ? "claude" : "exit", noRunPolicy: async () => (await s.policy()).policy, files: createFileProbe, commit });
      return answer(a);
    };
    return done(await Promise.race([decide(), expired]));
  } catch (err) {
    const rule = err instanceof HookInputError ? err.rule : GUARD_FAILURE;
    const message = (err as Error)?.message ?? String(err);
    if ((event === "SubagentStart" || event === "SubagentStop") && !spoken) {
      // Never refused, a failure included: a blocked SubagentStop keeps the subagent running while a late
      // decision may record its stop, and its calls would then be the main agent's. Its calls are denied instead.
      spoken = true;
      stderr += `plangate guard: ${event}: ${message} [${rule}]\n`;
      return { ...done(EXIT.ok), failure: failureOf(err) };
    }
    return { ...done(deny(message, rule)), failure: failureOf(err) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * ExitPlanMode (Claude Code's plan mode): before the person sees the plan (PreToolUse, and a
 * PermissionRequest hook if one is set), an invalid or unenforceable plan is denied with the re-plan
 * feedback, so the model revises it; a valid one gets no answer, so the person decides. After the person
 * accepted it (PostToolUse), the plan is signed with the local approver key and its run started for the
 * session (approval.onPlanAccepted: sign-and-start), or recorded as pending for `plangate approve`.
 */
async function planMode(input: HookInput, store: HookStore, s: HookSettings, commit: () => boolean): Promise<{ code: number; stdout: string; stderr: string; deny: boolean }> {
  const dir = store.dir;
  const claude = s.output === "claude";
  const { policy, tools } = await s.policy();
  // Loaded here, not at start-up: the hook's other calls never need the validator.
  const [{ createPublicKey }, { acceptanceProblem, acceptPlan, permissionRequestOutput, planModeCheck, postToolUseOutput, preToolUseOutput }, { keyId, keyPlacesFor, loadPrivateKey }, { loadProfile }, { HostProfileError }, { resolvedPolicyHash }, { startRun, supersedeSessionRun }] =
    await Promise.all([import("node:crypto"), import("../node/plan-mode.js"), import("../node/keys.js"), import("../node/profile-file.js"), import("../host/profile.js"), import("../node/policy.js"), import("../store/runs.js")]);
  let host: HostProfile;
  try {
    host = loadProfile(s.host ?? policy.host ?? "generic", s.cwd);
  } catch (err) {
    if (err instanceof HostProfileError) throw new UsageError(`${s.host !== undefined ? "--host" : "the policy's host"}: ${err.message}`);
    throw err;
  }
  const policyHash = resolvedPolicyHash(policy, host);
  const markdown = input.args?.plan;
  const base = { policy, workspace: policy.workspace, now: s.now, host, ...(tools ? { tools } : {}) };
  if (input.event !== "PostToolUse") {
    const check = await planModeCheck(markdown, base);
    if (!claude) {
      if (!check) return { code: EXIT.ok, stdout: "", stderr: "", deny: false };
      return { code: BLOCK, stdout: "", stderr: `plangate guard: blocked: ${check.deny}\n`, deny: true };
    }
    const out = input.event === "PreToolUse" ? preToolUseOutput(check) : permissionRequestOutput(check);
    return { code: EXIT.ok, stdout: out ? JSON.stringify(out) + "\n" : "", stderr: "", deny: check !== undefined };
  }
  // Only the person's acceptance of the plan that was checked approves it: not a subagent's, not an edited plan.
  const unaccepted = acceptanceProblem(input.raw, input.agentId);
  if (unaccepted !== undefined) {
    if (claude) return { code: EXIT.ok, stdout: JSON.stringify(postToolUseOutput(unaccepted)) + "\n", stderr: "", deny: true };
    return { code: BLOCK, stdout: "", stderr: unaccepted.message + "\n", deny: true };
  }
  // The policy's folder and the folders the hook and the session run in are the project's: no key may lie there.
  const keyPlaces = keyPlacesFor({ policy: policy.source, cwd: [s.cwd, input.cwd], env: s.env });
  const result = await acceptPlan(markdown, {
    ...base,
    keyPlaces,
    // The plan file is written to this machine's state directory; a shared store keeps a copy of its bytes with the run.
    stateDir: await store.planDir(),
    policyHash,
    session: input.session,
    ...(input.cwd ? { cwd: input.cwd } : {}),
    startRun: async (planFile, approval, session) => {
      // The run trusts the local approver's own key, and the policy's trusted keys.
      const own = loadPrivateKey(policy.approval.key!);
      const trusted: TrustedKey[] = [{ keyid: keyId(own), alg: "ed25519", key: createPublicKey(own), file: policy.approval.key! }];
      if (policy.approval.trustedKeys) trusted.push(...trustedKeysFrom(undefined, policy, s));
      try {
        // The person accepted this plan for a session whose run is still going: it replaces that run's plan.
        if (session) await supersedeSessionRun(dir, session, s.now());
        await startRun(dir, { plan: planFile, approval, workspace: policy.workspace, policyHash, policy, tools, host, trustedKeys: trusted, keyPlaces, now: s.now, keepPlan: true, commit, ...(session ? { session } : {}) });
      } catch (err) {
        if (err instanceof GuardRefusal) return err.diagnostics;
        throw err;
      }
    },
  });
  const refused = result.status === "refused";
  if (claude) return { code: EXIT.ok, stdout: JSON.stringify(postToolUseOutput(result)) + "\n", stderr: "", deny: refused };
  return { code: refused ? BLOCK : EXIT.ok, stdout: "", stderr: result.message + "\n", deny: refused };
}
