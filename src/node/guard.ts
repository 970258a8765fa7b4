import { lstatSync } from "node:fs";
import { join, resolve } from "node:path";
import { canonicalJson, sha256Hex } from "../core/canonical/jcs.js";
import { defaultValueContexts } from "../commands/value-contexts.js";
import type { ValueContext } from "../core/constraints.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { registryFromNames, type ToolRegistry } from "../core/tools.js";
import type { PlanReport } from "../core/plan-report.js";
import { createFileProbe } from "./file-probe.js";
import { inputTooLarge, planFileNotFound, readFileBounded } from "./read-bounded.js";
import { defaultPolicy } from "../policy/defaults.js";
import type { Policy } from "../core/policy.js";
import { AuditChain, AuditError, AuditLog } from "./audit.js";
import { type HostCommandPolicy, hostCommandRefusal } from "../approval/host-command.js";
import type { CommandPolicy } from "../commands/match.js";
import { type CallPathsContext, callPathProblem, workingFolderReads } from "../approval/call-paths.js";
import type { FileProbe } from "../core/file-probe.js";
import { isInside, type KeyPlaces, keyPlacesFor, realPathOf, type TrustedKey } from "./keys.js";
import { advance, type ContextFor, type Cursor, type ExpectedCall, isDone, START } from "../approval/match.js";
import {
  callIdentity,
  hasConstraints,
  type CompileOptions,
  contextFor,
  expectedCalls,
  GENERIC,
  type HostProfile,
  HostMappingError,
  HostProfileError,
  outsideScopeDiagnostic,
  profileAllowList,
  profileHash,
  type SimpleCommands,
} from "../host/profile.js";
import { type ApprovalRecord, consumedDiagnostic, toolsHash, unconstrainedToolsDiagnostic } from "../approval/record.js";
import { consumeNonce, isConsumed } from "./guard-state.js";
import { GuardStateError } from "./guard-error.js";
import { untrustedPlace } from "./private-place.js";
import type { CallInput } from "../approval/match.js";
import { guardFailure, guardMismatch, judgeApproval } from "../approval/judge.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import { guardDecision } from "../rules/guard-failure/decisions.js";
import { loadHostProfile } from "./host-profile.js";
import { freeToolsRefusal } from "../host/free.js";
import { policyBoundProblem } from "../policy/bounds.js";

/** One approved step: the tool and its arguments in canonical JSON. */
export interface ApprovedStep {
  tool: string;
  args: string;
}

/** The plan as approved, and the raw-bytes hash that lets an unchanged file skip re-parsing. */
export interface ApprovedPlan {
  file: string;
  planHash: string;
  rawHash: string;
  steps: ApprovedStep[];
  expiresAt?: string;
  /** The policy a host's shell calls (Claude Code's Bash) are checked against before they are matched. */
  host?: HostCommandPolicy;
  /**
   * Where the call's paths are resolved again at the moment of each call (see callPathProblem); without
   * it only the plan and the step are checked.
   */
  paths?: CallPathsContext;
  /** The steps as host calls (compiled by the host profile): what ExecutionGuard matches calls against. */
  expected?: ExpectedCall[];
  /** The host profile the calls are read with. */
  profile?: HostProfile;
  /** Absolute real path of the approved workspace: the scope paths are normalised against. */
  scope?: string;
}

/**
 * The guard's answer for one tool call. `step` is 1-based: the step allowed, or the one expected (0 for
 * a free tool's call). `confirm`: the host should ask the person before the call runs. `free`: the
 * call needed no step (a free tool); it took none.
 */
export type Decision = { allow: true; step: number; confirm?: boolean; free?: boolean } | { allow: false; step: number; diagnostic: Diagnostic };

/**
 * The approved steps of a validated plan as the generic host matches them (tool and canonical
 * arguments, exactly), or undefined when the plan has none that can be matched. See approvedCalls for
 * the calls a host profile compiles them to.
 */
export function approvedSteps(report: PlanReport): ApprovedStep[] | undefined {
  if (!report.plan || report.plan.steps.length === 0) return undefined;
  const steps: ApprovedStep[] = [];
  for (const s of report.plan.steps) {
    if (s.tool === undefined) return undefined;
    steps.push({ tool: s.tool, args: canonicalJson(s.args) });
  }
  return steps;
}

/** The host calls a validated plan's steps compile to on a host (ExpectedCall[]); throws HostMappingError. */
export function approvedCalls(report: PlanReport, host: HostProfile, scope: string, options: CompileOptions = {}): ExpectedCall[] | undefined {
  if (!report.plan || report.plan.steps.length === 0) return undefined;
  return expectedCalls(host, report.plan, scope, createFileProbe(), options);
}

/**
 * Whether the plan on disk is still the approved one (raw bytes, else the canonical hash) and the
 * approval has not expired: the refusal, or undefined. Updates `ap.rawHash` for a reformatted file.
 */
async function planRefusal(ap: ApprovedPlan, n: number, bytes: Uint8Array | undefined, now: Date): Promise<Decision | undefined> {
  const raw = bytes === undefined ? undefined : sha256Hex(bytes);
  // A reformatted file with the same canonical content is the same plan; anything else is a change.
  const rehashed = bytes !== undefined && raw !== ap.rawHash;
  // Reading a plan to hash it canonically needs the readers: loaded only when the bytes changed.
  const hash = rehashed ? await (await import("../ops/hash.js")).planHash(bytes, { file: ap.file }) : undefined;
  const plan = judgeApproval({
    step: "guard",
    plan: { kind: "step", file: ap.file, readable: bytes !== undefined, rehashed, ...(hash !== undefined ? { hash } : {}), approved: ap.planHash },
  });
  if (plan.length > 0) return deny(n, plan[0]!);
  if (rehashed) ap.rawHash = raw!;
  if (ap.expiresAt === undefined) return undefined;
  const expired = judgeApproval({ step: "guard", expiry: { expiresAt: ap.expiresAt, now, step: n } });
  return expired.length > 0 ? deny(n, expired[0]!) : undefined;
}

/**
 * A hook call reduced to its identity as its host reads it (callIdentity): the host resolves relative
 * paths and runs command lines in its working folder, the hook input's `cwd` (undefined: the input names
 * none, so it is unknown). When that folder is not the scope, a relative path or a command line of a
 * tool the profile does not describe (workingFolderReads, with `paths`' policy) becomes a marker
 * `outsideScopeDiagnostic` refuses. Every guard that answers a hook reads a call so: a run, a session
 * without one, the single-file state.
 */
export function hookCallIdentity(profile: HostProfile, call: CallInput, scope: string, cwd: string | undefined, paths: CallPathsContext, files: () => FileProbe): CallInput {
  return callIdentity(profile, call, scope, files(), {
    cwd: cwd ?? null,
    undescribed: (tool, args) => workingFolderReads(tool, args, paths, files()),
  });
}

/**
 * Decides whether a tool call may run as step `next` (0-based): the plan on disk must still have the
 * approved hash (bytes re-read by the caller, since the file can change between steps), the approval
 * must not have expired, and the call must be exactly the next approved step. `hook`: the call came in a
 * hook input, whose `cwd` is where the host reads its relative paths (hookCallIdentity, with the generic
 * profile these steps are matched with); absent, the call is made in the workspace.
 */
export async function decideStep(ap: ApprovedPlan, next: number, bytes: Uint8Array | undefined, tool: string, args: unknown, now: Date, hook?: { cwd: string | undefined }): Promise<Decision> {
  const n = next + 1;
  const stale = await planRefusal(ap, n, bytes, now);
  if (stale) return stale;
  const refused = ap.host ? await hostCommandRefusal(tool, args, ap.host, createFileProbe) : undefined;
  if (refused) return deny(n, refused);
  if (hook !== undefined) {
    const scope = ap.scope ?? realPathOf(ap.paths?.workspace ?? "/");
    const argsObject = args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
    const identity = hookCallIdentity(GENERIC, { tool, args: argsObject }, scope, hook.cwd, ap.paths ?? { workspace: scope }, createFileProbe);
    const outside = outsideScopeDiagnostic(identity, n);
    if (outside) return deny(n, outside);
  }
  if (next >= ap.steps.length)
    return deny(n, guardMismatch({ kind: "after-last", steps: ap.steps.length, tool }));
  const want = ap.steps[next]!;
  let got: string;
  try {
    got = canonicalJson(args ?? {});
  } catch {
    got = "(unserialisable)";
  }
  if (tool === want.tool && got === want.args) {
    // The step is the approved one; its paths are resolved again on the file system as it is now.
    const problem = ap.paths ? await callPathProblem(n, tool, args, ap.paths, createFileProbe) : undefined;
    return problem ? deny(n, problem) : { allow: true, step: n };
  }
  const later = ap.steps.findIndex((s, i) => i > next && s.tool === tool && s.args === got);
  return deny(
    n,
    guardMismatch({
      kind: "other-call",
      step: n,
      expected: { tool: want.tool, arguments: JSON.parse(want.args) },
      actual: { tool, arguments: got === "(unserialisable)" ? got : JSON.parse(got) },
      ...(later >= 0 ? { later: later + 1 } : {}),
    }),
  );
}

function deny(step: number, diagnostic: Diagnostic): Decision {
  return { allow: false, step, diagnostic: { ...diagnostic, step } };
}

/**
 * The commands section a host's shell calls are checked against, as a run's state keeps it: a copy,
 * `installOutside` only when the policy names package managers (a state without it allows none), and
 * `inlineCode` only when it names interpreters.
 */
export function hostCommands(c: CommandPolicy): { allow: string[]; deny: string[]; allowCompound: boolean; installOutside?: string[]; inlineCode?: string[] } {
  const out: { allow: string[]; deny: string[]; allowCompound: boolean; installOutside?: string[]; inlineCode?: string[] } = { allow: [...c.allow], deny: [...c.deny], allowCompound: c.allowCompound === true };
  if (c.installOutside !== undefined && c.installOutside.length > 0) out.installOutside = [...c.installOutside];
  if (c.inlineCode !== undefined && c.inlineCode.length > 0) out.inlineCode = [...c.inlineCode];
  return out;
}

/** The policy parts a host's shell calls are checked against (the defaults when no policy is given). */
export function hostPolicyOf(policy: Policy | undefined, workspace: string): HostCommandPolicy {
  const p = policy ?? defaultPolicy(workspace);
  return { workspace, commands: p.commands, protected: p.paths.protected };
}

/** Why a guard could not be opened: each reason a diagnostic. */
export class GuardRefusal extends Error {
  constructor(readonly diagnostics: Diagnostic[]) {
    super(diagnostics.map((d) => `${d.message} [${d.rule}]`).join("\n"));
  }
}

/** What an ExecutionGuard is opened with. */
export interface GuardOptions {
  /** Path of the plan file; it is re-read before every step. */
  plan: string;
  /**
   * The plan's bytes when it arrived as text and is not a file yet (POST /v1/runs): they are checked
   * instead of reading `plan`, and startRun writes them there only once the approval checks out.
   */
  planBytes?: Uint8Array;
  /** The approval file's contents (a DSSE envelope). */
  approval: string | Uint8Array;
  workspace: string;
  /** Identity of the policy in force (`loadPolicy(...).hash`). */
  policyHash: string;
  policy?: Policy;
  tools?: ToolRegistry;
  trustedKeys: readonly TrustedKey[];
  /**
   * The project's other folders and the per-user key folders (keyPlacesFor): a trusted key in one of the
   * project's folders is refused like one in the workspace. Default: the plan's folder (and the
   * repository holding it), with the per-user key folders of this process's environment.
   */
  keyPlaces?: KeyPlaces;
  /** Folder where consumed nonces are recorded durably; keep it outside the workspace. */
  consumedDir: string;
  /** Path of the JSON Lines audit trail; keep it outside the workspace. */
  audit: string;
  /** A store's trail kept in memory instead of the file `audit` (its lines are written with the run). */
  auditChain?: AuditChain;
  /** A store's consumed approvals: asked instead of `consumedDir`, and the store consumes the nonce itself. */
  storeConsumed?: (nonce: string) => Promise<boolean>;
  /** Secret key (32 bytes) for the audit lines' MACs; random when absent (read it back with `audit.anchor()`). */
  auditKey?: Uint8Array;
  allowUnsigned?: boolean;
  now?: () => Date;
  /** The agent host: a profile, or a profile name or file (default: generic, exact matching). */
  host?: HostProfile | string;
  /** Splits a shell line into its simple commands, for constraints on command keys (default: the shell parser validation uses). */
  simpleCommands?: SimpleCommands;
}

/** Opens the plan and its approval: validation, approval checks, nonce consumption. Shared by the class and `guard start`. */
export async function openApproved(o: GuardOptions): Promise<{ plan: ApprovedPlan; record: ApprovalRecord; audit: AuditLog | AuditChain; now: () => Date; expected: ExpectedCall[]; profile: HostProfile }> {
  const now = o.now ?? (() => new Date());
  const planFile = resolve(o.plan);
  const problems: Diagnostic[] = [];
  let profile: HostProfile;
  try {
    profile = o.host === undefined ? GENERIC : typeof o.host === "string" ? await loadHostProfile(o.host) : o.host;
  } catch (err) {
    if (err instanceof HostProfileError) throw new GuardRefusal([guardFailure({ kind: "host-profile", from: "options", error: err.message })]);
    throw err;
  }
  const hostTools = profileAllowList(profile);
  const tools = o.tools ?? (hostTools.length > 0 ? registryFromNames(hostTools, `the ${profile.name} host profile`) : undefined);
  // A policy past its bounds (one built in code: a file's does not load) is refused before any list of it is read.
  const bound = o.policy === undefined ? undefined : policyBoundProblem(o.policy);
  if (bound !== undefined) throw new GuardRefusal([ruleDiagnostic("limit-exceeded", "policyTooLarge", { pointer: bound.pointer, problem: bound.message })]);
  // A free tool runs with no step: one that writes (the policy's guard.free read with this host's profile,
  // which --host may have chosen apart from the policy's host) is a policy that cannot be used.
  const freeWriter = o.policy ? freeToolsRefusal(o.policy, profile, o.tools) : undefined;
  if (freeWriter !== undefined) throw new GuardStateError(freeWriter);
  const scope = realPathOf(o.workspace);
  // A database store's trail and consumed approvals are rows, not files in any workspace.
  for (const [file, path] of o.auditChain ? [] : ([["audit", o.audit], ["consumed", o.consumedDir]] as const))
    if (isInside(path, o.workspace)) problems.push(guardFailure({ kind: "inside-workspace", file, path, workspace: o.workspace }));
  // Tools constrained by nothing: refused unless the policy allows every tool explicitly (tools.allow: ["*"]).
  if (tools === undefined && !(o.policy && o.policy.tools.allow.length > 0)) problems.push(unconstrainedToolsDiagnostic());
  if (problems.length) throw new GuardRefusal(problems);
  let bytes: Uint8Array;
  if (o.planBytes !== undefined) bytes = o.planBytes;
  else {
    // As validate reads a plan: a regular file within the size limit, never a device or a pipe.
    const max = o.policy?.limits.maxFileBytes ?? DEFAULT_MAX_PLAN_BYTES;
    const read = readFileBounded(planFile, max);
    if (!read.ok) throw new GuardRefusal([read.reason === "too-large" ? inputTooLarge({ max, size: read.size }) : planFileNotFound(planFile, read)]);
    bytes = read.bytes;
  }
  // The engine and the approval check load only when a run is opened, not for each hook call of a run.
  const [{ validatePlan }, { verifyApproval }] = await Promise.all([import("./validate-plan.js"), import("./verify.js")]);
  const report = await validatePlan(bytes, { file: planFile, policy: o.policy, tools, workspace: o.workspace, now, host: profile });
  if (!report.valid) throw new GuardRefusal(report.diagnostics.filter((d) => d.severity === "error"));
  const steps = approvedSteps(report);
  if (!steps) throw new GuardRefusal([guardFailure({ kind: "step-without-tool" })]);
  let expected: ExpectedCall[];
  try {
    expected = approvedCalls(report, profile, scope, { constraints: o.policy?.plan.constraints === "allow" }) ?? [];
  } catch (err) {
    if (err instanceof HostMappingError) throw new GuardRefusal(err.diagnostics);
    throw err;
  }
  // Nonces recorded where another user could remove them could be replayed: refused before the approval is used.
  const untrusted = o.storeConsumed ? undefined : untrustedPlace(o.consumedDir, "the store of consumed approvals");
  if (untrusted !== undefined) throw new GuardRefusal([guardFailure({ kind: "untrusted-place", problem: untrusted })]);
  const verdict = verifyApproval(o.approval, {
    planHash: report.planHash,
    workspace: o.workspace,
    policyHash: o.policyHash,
    toolsHash: toolsHash(tools),
    host: { name: profile.name, hash: profileHash(profile) },
    trustedKeys: o.trustedKeys,
    // The plan's author wrote the plan's folder: a trusted key there is theirs to replace.
    keyPlaces: o.keyPlaces ?? keyPlacesFor({ plan: planFile, env: process.env }),
    allowUnsigned: o.allowUnsigned,
    now: now(),
    isConsumed: o.storeConsumed ? undefined : (nonce) => isConsumed(o.consumedDir, nonce),
    ...(o.policy?.approval.acceptMissingExpiry === true ? { acceptMissingExpiry: true } : {}),
  });
  if (!verdict.ok || !verdict.record) throw new GuardRefusal(verdict.diagnostics);
  const record = verdict.record;
  if (record.single_use && o.storeConsumed && (await o.storeConsumed(record.nonce))) throw new GuardRefusal([consumedDiagnostic(record.nonce)]);
  let audit: AuditLog | AuditChain;
  try {
    audit = o.auditChain ?? new AuditLog(o.audit, undefined, o.auditKey);
  } catch (err) {
    if (err instanceof AuditError) throw new GuardRefusal(err.diagnostics);
    throw err;
  }
  // Consumed before the first step, not after the last: a run cut short cannot be replayed either. A
  // store with its own consumed approvals (storeConsumed) records the nonce with the run, atomically.
  if (record.single_use && !o.storeConsumed && !consumeNonce(o.consumedDir, record.nonce, now())) throw new GuardRefusal([consumedDiagnostic(record.nonce)]);
  audit.append({ ts: now().toISOString(), event: "open", plan_hash: record.plan_hash, nonce: record.nonce, reason: guardDecision("auditOpen", { steps: steps.length }) });
  const plan: ApprovedPlan = { file: planFile, planHash: record.plan_hash, rawHash: sha256Hex(bytes), steps, host: hostPolicyOf(o.policy, o.workspace), paths: { workspace: o.workspace, policy: o.policy, tools }, expected, profile, scope };
  if (record.expires_at !== undefined) plan.expiresAt = record.expires_at;
  return { plan, record, audit, now, expected, profile };
}

/**
 * The execution guard for an executor: opened with a plan and its approval (and the host profile the
 * plan was approved for), it verifies both, then before each tool call checks that the plan on disk
 * still has the approved hash and that the call, reduced to its identity by the profile, is the next
 * approved call (a step's `repeat`, `optional` and `confirm` honoured, order strict), and refuses
 * otherwise. Every decision goes to the audit trail.
 */
export class ExecutionGuard {
  #cursor: Cursor = START;
  /** Calls are decided one at a time: two concurrent calls must not both be taken as the same step. */
  #queue: Promise<unknown> = Promise.resolve();
  readonly expected: readonly ExpectedCall[];
  readonly profile: HostProfile;
  readonly #context: ContextFor;
  private constructor(
    readonly plan: ApprovedPlan,
    readonly record: ApprovalRecord,
    readonly audit: AuditLog,
    private readonly now: () => Date,
    context: { simpleCommands?: SimpleCommands; schema?: ValueContext["schema"] },
  ) {
    this.expected = plan.expected ?? [];
    this.profile = plan.profile ?? GENERIC;
    this.#context = contextFor(this.profile, context);
  }

  /** Verifies the plan and its approval and consumes a single-use approval; throws GuardRefusal. */
  static async open(options: GuardOptions): Promise<ExecutionGuard> {
    const o = await openApproved(options);
    // A plan with constraints is matched with validation's own readers (the shell parser, the JSON Schema checker).
    const context: { simpleCommands?: SimpleCommands; schema?: ValueContext["schema"] } = {};
    if (hasConstraints(o.expected)) {
      const v = await defaultValueContexts();
      context.simpleCommands = v.command.simpleCommands;
      context.schema = v.value.schema;
    }
    if (options.simpleCommands) context.simpleCommands = options.simpleCommands;
    if (!(o.audit instanceof AuditLog)) throw new GuardRefusal([guardFailure({ kind: "audit-not-a-file" })]);
    return new ExecutionGuard(o.plan, o.record, o.audit, o.now, context);
  }

  /** Where the run stands: the expected call being matched (0-based) and the calls it took. */
  get cursor(): Cursor {
    return this.#cursor;
  }

  /** 0-based index of the next expected call that has had no call yet. */
  get next(): number {
    return this.#cursor.count > 0 ? this.#cursor.index + 1 : this.#cursor.index;
  }

  /** May the run end here: every step from the cursor on has had its call, or is optional? */
  get done(): boolean {
    return isDone(this.expected, this.#cursor);
  }

  /** Call before running a tool: allows it (and advances) only if it is the next approved call. */
  before(tool: string, args: unknown): Promise<Decision> {
    const run = this.#queue.then(() => this.#decide(tool, args));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #decide(tool: string, args: unknown): Promise<Decision> {
    const now = this.now();
    const d = await this.#verdict(tool, args, now);
    const last = d.allow && !d.free && this.#finished();
    recordDecision(this.audit, d, { now, planHash: this.plan.planHash, nonce: this.record.nonce, tool, args, last });
    return d;
  }

  /** Has the last expected call just had its last allowed call (nothing but optional steps can follow)? */
  #finished(): boolean {
    const c = this.#cursor;
    const cur = this.expected[c.index];
    return isDone(this.expected, c) && (cur === undefined || c.count >= cur.repeat);
  }

  async #verdict(tool: string, args: unknown, now: Date): Promise<Decision> {
    const upcoming = this.expected[this.next] ?? this.expected[this.#cursor.index];
    const n = upcoming?.step ?? (this.expected[this.expected.length - 1]?.step ?? 0) + 1;
    const stale = await planRefusal(this.plan, n, readPlanBytes(this.plan.file), now);
    if (stale) return stale;
    const refused = this.plan.host ? await hostCommandRefusal(tool, args, this.plan.host, createFileProbe) : undefined;
    if (refused) return deny(n, refused);
    const argsObject = args !== null && typeof args === "object" && !Array.isArray(args) ? (args as Record<string, unknown>) : undefined;
    if (!argsObject) return deny(n, ruleDiagnostic("tool-arguments", "callNotObject", { tool }));
    const identity = callIdentity(this.profile, { tool, args: argsObject }, this.plan.scope ?? realPathOf(this.plan.paths?.workspace ?? "/"), createFileProbe());
    const outside = outsideScopeDiagnostic(identity, n);
    if (outside) return deny(n, outside);
    if (this.profile.free.includes(tool)) {
      // A free tool takes no step, but its paths are checked on the file system as they are now.
      const problem = this.plan.paths ? await callPathProblem(n, tool, argsObject, this.plan.paths, createFileProbe) : undefined;
      return problem ? deny(n, problem) : { allow: true, step: 0, free: true };
    }
    const v = advance(this.expected, this.#cursor, identity, this.#context);
    if (!v.allow) return deny(v.step, v.diagnostic);
    // The call is the approved one; its paths are resolved again on the file system as it is now.
    const problem =
      existingFileDiagnostic(this.expected[v.cursor.index], identity, this.plan.scope ?? realPathOf(this.plan.paths?.workspace ?? "/"), v.step) ??
      (this.plan.paths ? await callPathProblem(v.step, tool, argsObject, this.plan.paths, createFileProbe) : undefined);
    if (problem) return deny(v.step, problem);
    this.#cursor = v.cursor;
    return v.confirm ? { allow: true, step: v.step, confirm: true } : { allow: true, step: v.step };
  }
}

/**
 * The plan's bytes, or undefined when it cannot be read (decideStep refuses then). The plan sits in
 * the workspace, where a step may swap it for a huge file or a device: only a regular file of at most
 * `maxBytes` (default: limits.maxFileBytes' default, 64 MiB) is read.
 */
export function readPlanBytes(file: string, maxBytes = DEFAULT_MAX_PLAN_BYTES): Uint8Array | undefined {
  const r = readFileBounded(file, maxBytes);
  return r.ok ? r.bytes : undefined;
}

const DEFAULT_MAX_PLAN_BYTES = 64 * 1024 * 1024;

/** Appends a decision to the audit trail, and a "complete" entry after the last approved step. */
export function recordDecision(audit: AuditLog, d: Decision, c: { now: Date; planHash: string; nonce: string; tool: string; args: unknown; last: boolean }): void {
  const ts = c.now.toISOString();
  const base = { ts, plan_hash: c.planHash, nonce: c.nonce, step: d.step, tool: c.tool, args_hash: argsHash(c.args) };
  if (!d.allow) {
    audit.append({ ...base, event: "deny", rule: d.diagnostic.rule, reason: d.diagnostic.message });
    return;
  }
  audit.append({ ...base, event: "allow" });
  if (c.last) audit.append({ ts, event: "complete", plan_hash: c.planHash, nonce: c.nonce });
}

/** sha256 of a call's canonical arguments, for the audit trail. */
export function argsHash(args: unknown): string {
  try {
    return "sha256:" + sha256Hex(canonicalJson(args ?? {}));
  } catch {
    return "unserialisable";
  }
}

/**
 * The refusal of a call that would create over an existing file (its expected call's `absent` key names
 * a file that exists now, or a link, a folder…), or undefined. Read against the scope, as the call's
 * identity was: `identity.args[absent]` is the normalised workspace-relative path. Anything but "no such
 * entry" (a folder that cannot be read…) counts as existing.
 */
export function existingFileDiagnostic(expected: ExpectedCall | undefined, identity: CallInput, scope: string, step: number): Diagnostic | undefined {
  const key = expected?.absent;
  if (key === undefined) return undefined;
  const rel = identity.args[key];
  if (typeof rel !== "string") return undefined;
  try {
    lstatSync(join(scope, rel));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
  }
  return guardMismatch({ kind: "target-exists", step, path: rel, tool: identity.tool });
}
