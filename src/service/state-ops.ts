import { isAbsolute, join } from "node:path";
import { sha256Hex } from "../core/canonical/jcs.js";
import type { Diagnostic } from "../core/diagnostic.js";
import { GuardRefusal } from "../node/guard.js";
import { keyInWorkspace, type Signer } from "../node/sign.js";
import { approvalLifetime } from "../approval/record.js";
import { unconstrainedToolsDiagnostic } from "../approval/record.js";
import { RUN_ID, runOfSession, runSummary, startRun, stopRun, storeOf } from "../store/runs.js";
import { GuardStateError, RunNotFoundError } from "../store/errors.js";
import { FileStore } from "../store/file.js";
import { approveReport } from "../cli/commands/approve.js";
import { checkReportJson, type CheckOutput } from "../cli/commands/check-output.js";
import { returnOutput } from "../cli/commands/check-return.js";
import { delegationOutput } from "../cli/commands/check-delegation.js";
import { validatePlan } from "../node/validate-plan.js";
import { formatJson, type ResultEntry, resultsJson } from "../formatters/json.js";
import { createFileProbe } from "../node/file-probe.js";
import { checkDelegation, checkDelegationIn } from "../orchestration/delegation.js";
import { InvalidSessionIdError, SessionRegistryError, sessionIdProblem } from "../orchestration/registry.js";
import { FileSessionRegistry } from "../store/file-registry.js";
import { checkReturn } from "../node/check-return.js";
import { ENCODINGS, TokenizerMissing } from "../orchestration/tokens.js";
import { returnTooLarge } from "../orchestration/return.js";
import { OpError, type OpContext, type Request, type StateContext } from "./ops.js";
import type { McpContext } from "./mcp.js";

/*
 * POST /v1/returns, /v1/delegations, /v1/runs, /v1/runs/stop and /v1/approve (GET /v1/runs lists):
 * the CLI's check-return, check-delegation, guard start|status|stop and approve over HTTP, each answering
 * the JSON document the command prints with `--output json`, against the server's own store.
 */

type Out = { body: string; exit: number };

const doc = (v: unknown): string => JSON.stringify(v, null, 2) + "\n";
const str = (req: Request, k: string): string | undefined => (typeof req[k] === "string" ? (req[k] as string) : undefined);
const num = (req: Request, k: string): number | undefined => (typeof req[k] === "number" ? (req[k] as number) : undefined);

function stateOf(ctx: OpContext): StateContext {
  if (!ctx.state) throw new OpError(501, "no-state", "this server keeps no state (no state directory or store)");
  return ctx.state;
}

function where(state: StateContext): Record<string, string> {
  return state.store ? { store: state.store.location } : { stateDir: state.stateDir };
}

/** A store that failed (unreachable, or a state it cannot use) is the operator's problem, not a verdict. */
function storeFailure(err: unknown): never {
  if (err instanceof GuardStateError || err instanceof SessionRegistryError || err instanceof InvalidSessionIdError) throw new OpError(409, "state", err.message);
  throw err;
}

/** POST /v1/returns: `plangate check-return -o json`. */
export async function returnsOp(req: Request, ctx: OpContext): Promise<Out> {
  const { policy } = ctx.setup;
  const file = str(req, "file")!;
  const encoding = str(req, "encoding");
  if (encoding !== undefined && !(ENCODINGS as readonly string[]).includes(encoding)) throw new OpError(400, "bad-request", `unknown encoding "${encoding.slice(0, 100)}" (encodings: ${ENCODINGS.join(", ")})`);
  const bytes = Buffer.from(str(req, "text")!, "utf8");
  const max = policy.limits.maxFileBytes;
  let out: CheckOutput;
  if (bytes.byteLength > max) {
    out = returnOutput(returnTooLarge(file, max, policy.rules));
  } else {
    const sessionId = str(req, "session_id");
    const maxSummaryTokens = num(req, "max_summary_tokens");
    try {
      out = returnOutput(
        await checkReturn(bytes, {
          file,
          workspace: policy.workspace,
          policy,
          files: createFileProbe(),
          ...(sessionId !== undefined ? { expectedSessionId: sessionId } : {}),
          ...(maxSummaryTokens !== undefined ? { maxSummaryTokens } : {}),
          ...(encoding !== undefined ? { encoding } : {}),
        }),
      );
    } catch (err) {
      if (err instanceof TokenizerMissing) throw new OpError(501, "missing-dependency", err.message);
      throw err;
    }
  }
  return { body: doc(checkReportJson([out])), exit: out.result.valid ? 0 : 1 };
}

/** The server's session registry, read-only, for the MCP tool check_delegation: the one /v1/delegations uses. */
export function sessionsOf(ctx: OpContext): NonNullable<McpContext["sessions"]> {
  const state = stateOf(ctx);
  const folder = state.store === undefined ? ctx.setup.policy.delegation.registry : undefined;
  if (folder === undefined) return state.store ?? new FileStore(state.stateDir);
  const registry = new FileSessionRegistry(isAbsolute(folder) ? folder : join(ctx.setup.policy.workspace, folder));
  return { lookupSession: async (id, now) => registry.lookup(id, now), location: registry.folder };
}

/** POST /v1/delegations: `plangate check-delegation [--register | --release] -o json`, against the server's registry. */
export async function delegationsOp(req: Request, ctx: OpContext): Promise<Out> {
  const state = stateOf(ctx);
  const { policy } = ctx.setup;
  const id = str(req, "session_id");
  if (id !== undefined) {
    const problem = sessionIdProblem(id);
    if (problem) throw new OpError(400, "bad-request", `session_id "${id.slice(0, 100)}" is not a usable session id: ${problem}`);
  }
  // As the CLI: the policy's delegation.registry folder when it names one, else the server's store.
  const folder = state.store === undefined ? policy.delegation.registry : undefined;
  const ttl = num(req, "ttl");
  // An expiry a date can hold: a year at most (a longer one is a session id reserved for good).
  if (ttl !== undefined && (ttl < 1 || ttl > MAX_TTL_SECONDS)) throw new OpError(400, "bad-request", `ttl must be 1 to ${MAX_TTL_SECONDS} seconds (a year)`);
  const registry = folder !== undefined ? new FileSessionRegistry(isAbsolute(folder) ? folder : join(policy.workspace, folder), { ttlSeconds: ttl ?? policy.delegation.sessionTtlSeconds }) : undefined;
  const shared = state.store ?? new FileStore(state.stateDir);
  const named = registry ? registry.folder : shared.kind === "file" ? new FileStore(state.stateDir).registryDir : shared.location;
  if (req.release === true) {
    if (id === undefined) throw new OpError(400, "bad-request", "release needs session_id");
    if (req.register === true) throw new OpError(400, "bad-request", "release and register cannot be combined");
    try {
      const released = registry ? registry.release(id) : await shared.releaseSession(id);
      return { body: doc({ version: 1, released, session_id: id, registry: named }), exit: 0 };
    } catch (err) {
      return storeFailure(err);
    }
  }
  const target = str(req, "target");
  if (target === undefined || target.trim() === "") throw new OpError(400, "bad-request", "a /v1/delegations request needs target (the agent about to be delegated to)");
  const depth = num(req, "depth");
  const path = req.path as string[] | undefined;
  if (path === undefined && depth === undefined) throw new OpError(400, "bad-request", "a /v1/delegations request needs path (the agents so far, root first) or depth");
  if (path?.some((p) => p === "")) throw new OpError(400, "bad-request", "path has an empty agent name");
  if (req.register === true && id === undefined) throw new OpError(400, "bad-request", "register needs session_id");
  const maxDepth = num(req, "max_depth");
  const options = {
    target,
    path: path ?? [],
    now: ctx.now(),
    policy,
    register: req.register === true,
    ...(depth !== undefined ? { depth } : {}),
    ...(id !== undefined ? { sessionId: id } : {}),
    ...(maxDepth !== undefined ? { maxDepth } : {}),
    ...(ttl !== undefined ? { ttlSeconds: ttl } : {}),
  };
  let result;
  try {
    result = registry ? checkDelegation({ ...options, registry }) : await checkDelegationIn(shared, options);
  } catch (err) {
    return storeFailure(err);
  }
  const out = delegationOutput(result, target, path, id);
  return { body: doc(checkReportJson([out])), exit: result.valid ? 0 : 1 };
}

/** The reader a plan file's name picks. */
function extensionOf(file: string): string {
  const m = /\.(json|yaml|yml|md)$/i.exec(file);
  if (!m) throw new OpError(400, "bad-request", "the request's file must end in .json, .yaml, .yml or .md: its extension picks the plan's reader");
  return m[0].toLowerCase();
}

/**
 * POST /v1/runs: `plangate guard start -o json`. The plan is checked from its text; once its approval
 * checks out it is kept in the state directory's plans/ (named by its SHA-256, mode 600, outside the
 * workspace), or a database store's plans table, which the run re-reads before every call.
 */
export async function startRunOp(req: Request, ctx: OpContext): Promise<Out> {
  const state = stateOf(ctx);
  const file = str(req, "file")!;
  const text = str(req, "text")!;
  const ext = extensionOf(file);
  const { setup } = ctx;
  const bytes = Buffer.from(text, "utf8");
  // Where a file store keeps the text: written by startRun only once the approval checks out for it.
  const planFile = join(state.stateDir, "plans", `${sha256Hex(bytes)}${ext}`);
  const session = str(req, "session");
  try {
    const run = await startRun(state.store ?? state.stateDir, {
      plan: planFile,
      planBytes: bytes,
      approval: Buffer.from(str(req, "approval")!, "utf8"),
      workspace: setup.policy.workspace,
      policyHash: setup.policyHash,
      policy: setup.policy,
      tools: setup.tools,
      host: setup.host,
      trustedKeys: ctx.trustedKeys,
      ...(ctx.keyPlaces ? { keyPlaces: ctx.keyPlaces } : {}),
      allowUnsigned: false,
      now: ctx.now,
      ...(session !== undefined ? { session } : {}),
    });
    return { body: doc(resultsJson([{ file, valid: true, extra: { ...where(state), ...runSummary(run) }, diagnostics: [] }])), exit: 0 };
  } catch (err) {
    if (err instanceof GuardRefusal) return rejected(file, err.diagnostics);
    return storeFailure(err);
  }
}

function rejected(file: string, diagnostics: Diagnostic[]): Out {
  const entry: ResultEntry = { file, valid: !diagnostics.some((d) => d.severity === "error"), extra: {}, diagnostics };
  return { body: doc(resultsJson([entry])), exit: entry.valid ? 0 : 1 };
}

/** GET /v1/runs: `plangate guard status -o json`. */
export async function listRunsOp(ctx: OpContext): Promise<Out> {
  const state = stateOf(ctx);
  try {
    const { runs, problems } = await storeOf(state.store ?? state.stateDir).listRuns();
    return { body: doc({ ...where(state), runs: runs.map(runSummary), problems }), exit: problems.length > 0 ? 1 : 0 };
  } catch (err) {
    return storeFailure(err);
  }
}

const MAX_TTL_SECONDS = 366 * 24 * 3600;
const MAX_REASON = 1000;

/** POST /v1/runs/stop: `plangate guard stop -o json` (a run, or the run a session is bound to). */
export async function stopRunOp(req: Request, ctx: OpContext): Promise<Out> {
  const state = stateOf(ctx);
  const run = str(req, "run");
  const session = str(req, "session");
  if ((run === undefined) === (session === undefined)) throw new OpError(400, "bad-request", "name the run to stop: run or session (one of them)");
  if (run !== undefined && !RUN_ID.test(run)) throw new OpError(400, "bad-request", "run is not a run id (32 hexadecimal digits, as GET /v1/runs lists them)");
  // The reason is repeated in every later denial of the run's calls: a short line.
  const reason = str(req, "reason");
  if (reason !== undefined && (reason.length > MAX_REASON || /[\u0000-\u001f\u007f]/.test(reason))) throw new OpError(400, "bad-request", `reason is at most ${MAX_REASON} characters, without control characters`);
  const root = state.store ?? state.stateDir;
  try {
    const stopped = await stopRun(root, run ?? (await runOfSession(root, session!)), reason ?? "stopped through plangate serve", ctx.now());
    return { body: doc({ ok: true, ...runSummary(stopped) }), exit: 0 };
  } catch (err) {
    if (err instanceof RunNotFoundError) throw new OpError(404, "not-found", err.message);
    return storeFailure(err);
  }
}

/**
 * POST /v1/approve: `plangate approve --key` with the server's key. The body of a success is the signed
 * approval (a DSSE envelope), as the command prints it; a refusal is the report.
 */
export async function approveOp(req: Request, ctx: OpContext & { signer: Signer; keyFile: string; log?: (line: string) => void }): Promise<Out> {
  const { setup } = ctx;
  const file = str(req, "file")!;
  const singleUse = req.reusable !== true && setup.policy.approval.singleUse;
  const lifetime = approvalLifetime(str(req, "ttl") ?? setup.policy.approval.ttl, singleUse, "ttl");
  if ("error" in lifetime) throw new OpError(400, "bad-request", lifetime.error);
  if (setup.tools === undefined) return rejected(file, [unconstrainedToolsDiagnostic()]);
  const inside = keyInWorkspace(ctx.keyFile, [setup.policy.workspace], ctx.keyPlaces);
  if (inside) return rejected(file, [inside]);
  const expectedHash = str(req, "expected_hash");
  const report = await validatePlan(Buffer.from(str(req, "text")!, "utf8"), {
    file,
    policy: setup.policy,
    tools: setup.tools,
    now: ctx.now,
    host: setup.host,
    ...(expectedHash !== undefined ? { expectedHash } : {}),
  });
  const crash = report.internalErrors?.[0];
  if (crash) throw new OpError(500, "internal", `the ${crash.rule} check failed on ${file} (${crash.message})`);
  if (!report.valid || report.planHash === undefined) return { body: formatJson([report], { policy: setup.policy.source ?? null }), exit: 1 };
  const approved = approveReport(report, setup, { now: ctx.now(), ...lifetime, singleUse, signer: ctx.signer });
  if ("diagnostics" in approved) return rejected(file, approved.diagnostics);
  ctx.log?.(`plangate serve: approved ${file.slice(0, 200)} (${approved.record.plan_hash}, nonce ${approved.record.nonce}${approved.record.expires_at ? `, expires ${approved.record.expires_at}` : ""})`);
  return { body: approved.text.endsWith("\n") ? approved.text : approved.text + "\n", exit: 0 };
}
