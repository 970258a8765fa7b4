import type { KeyPlaces, TrustedKey } from "../node/keys.js";
import type { Signer } from "../node/sign.js";
import { inputTooLarge } from "../node/read-bounded.js";
import type { Store } from "../store/types.js";
import { hashDocument, hashResult } from "../cli/commands/seal.js";
import { resultsJson } from "../formatters/json.js";
import { checkApproval, verifyExtra } from "../cli/commands/verify.js";
import type { Setup } from "../cli/setup.js";
import { registryFromNames } from "../core/tools.js";
import { DIALECT_IDS, type DialectId } from "../core/plan.js";
import { validatePlan } from "../node/validate-plan.js";
import { formatJson } from "../formatters/json.js";
import { HostProfileError, profileAllowList } from "../host/profile.js";
import { loadProfile } from "../node/profile-file.js";
import { parsePolicyText, PolicyError, policyTools, resolvedPolicyHash, resolvePolicy } from "../node/policy.js";
import { planHash } from "../ops/hash.js";
import { defaultPolicy } from "../policy/defaults.js";
import { parseJson } from "../syntax/json.js";
import { readFactText } from "../rules/read-text.js";

/*
 * POST /v1/validate, /v1/hash, /v1/verify: one plan's text in a JSON request, the CLI's `--output json`
 * document of that command out (the same formatter). The workspace is always the server's; a request
 * never names a file of the server to read.
 */

export type OpName = "validate" | "hash" | "verify" | "returns" | "delegations" | "runs" | "runs/stop" | "approve";

/** A request the server will not serve: an HTTP status and an error document's code. */
export class OpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export interface OpContext {
  /** The server's policy, tools, host and policy hash. */
  setup: Setup;
  trustedKeys: TrustedKey[];
  /** The project's other folders and the per-user key folders: a key in one of the project's folders is refused (approval-key-in-workspace). */
  keyPlaces?: KeyPlaces;
  now: () => Date;
  cwd: string;
  timeoutMs: number;
  /** The server's shared state: runs, consumed approvals, the session registry (the state directory, or a database). */
  state?: StateContext;
  /** The server-side signing key of /v1/approve (absent: the endpoint is off). */
  approver?: { signer: Signer; keyFile: string };
  /** Where the server logs what it did (approvals). */
  log?: (line: string) => void;
}

/** Where the run, delegation and approval endpoints keep their state. */
export interface StateContext {
  /** The state directory: runs and the registry unless `store` is given; plan files sent to /v1/runs in any case. */
  stateDir: string;
  store?: Store;
}

type Kind = "string" | "boolean" | "count" | "names";
type Fields = Record<string, { kind: Kind; required?: true }>;
const TEXT = { kind: "string", required: true } as const;

/** Each request's members, with the CLI's flag names in snake case. */
const FIELDS: Record<OpName, Fields> = {
  validate: { text: TEXT, file: TEXT, dialect: { kind: "string" }, policy: { kind: "string" } },
  hash: { text: TEXT, file: TEXT, policy: { kind: "string" } },
  verify: { text: TEXT, file: TEXT, approval: TEXT },
  returns: { text: TEXT, file: TEXT, session_id: { kind: "string" }, max_summary_tokens: { kind: "count" }, encoding: { kind: "string" } },
  delegations: {
    target: { kind: "string" },
    path: { kind: "names" },
    depth: { kind: "count" },
    session_id: { kind: "string" },
    max_depth: { kind: "count" },
    ttl: { kind: "count" },
    register: { kind: "boolean" },
    release: { kind: "boolean" },
  },
  runs: { text: TEXT, file: TEXT, approval: TEXT, session: { kind: "string" } },
  "runs/stop": { run: { kind: "string" }, session: { kind: "string" }, reason: { kind: "string" } },
  approve: { text: TEXT, file: TEXT, ttl: { kind: "string" }, reusable: { kind: "boolean" }, expected_hash: { kind: "string" } },
};

export type Request = Record<string, string | boolean | number | string[]>;

const KIND_TEXT: Record<Kind, string> = { string: "a string", boolean: "true or false", count: "a whole number of at least 0", names: "a list of at most 64 agent names (or one comma-separated string)" };

function ofKind(kind: Kind, x: unknown): string | boolean | number | string[] | undefined {
  if (kind === "string") return typeof x === "string" ? x : undefined;
  if (kind === "boolean") return typeof x === "boolean" ? x : undefined;
  if (kind === "count") return typeof x === "number" && Number.isSafeInteger(x) && x >= 0 ? x : undefined;
  // At most 64 names however they are spelled (a list, or one comma-separated string).
  const names = typeof x === "string" ? x.split(",") : x;
  return Array.isArray(names) && names.length <= 64 && names.every((a) => typeof a === "string") ? (names as string[]).map((a) => a.trim()) : undefined;
}

/** Reads and checks a request: strict JSON (no duplicate keys), an object with the operation's members of their kinds. */
export function parseRequest(name: OpName, bytes: Uint8Array): Request {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new OpError(400, "bad-request", "the request body is not UTF-8");
  }
  const doc = parseJson(text, { maxStringLength: bytes.byteLength });
  const issue = doc.issues[0];
  if (issue) {
    const pos = doc.lines.position(issue.start);
    throw new OpError(400, "bad-request", `the request body at ${pos.line}:${pos.column}: ${readFactText(issue).message} [${issue.rule}]`);
  }
  const v = doc.value;
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new OpError(400, "bad-request", "the request body is not a JSON object");
  const fields = FIELDS[name];
  const out: Request = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const f = Object.hasOwn(fields, k) ? fields[k] : undefined;
    if (!f) throw new OpError(400, "bad-request", `unknown member "${k.slice(0, 100)}" in a /v1/${name} request (members: ${Object.keys(fields).join(", ")})`);
    const value = ofKind(f.kind, x);
    if (value === undefined) throw new OpError(400, "bad-request", `the request's ${k} is not ${KIND_TEXT[f.kind]}`);
    out[k] = value;
  }
  for (const [k, f] of Object.entries(fields)) if (f.required && out[k] === undefined) throw new OpError(400, "bad-request", `the /v1/${name} request has no ${k}`);
  if (typeof out.file === "string") {
    const file = out.file;
    // The file name is a label and picks the reader by its extension; it is never opened.
    if (file === "" || file.length > 1024 || /[\u0000-\u001f\u007f]/.test(file)) throw new OpError(400, "bad-request", "the request's file must be a name of 1 to 1024 characters, without control characters");
  }
  if (typeof out.dialect === "string" && !DIALECT_IDS.includes(out.dialect as DialectId)) throw new OpError(400, "bad-request", `unknown dialect "${out.dialect.slice(0, 100)}" (dialects: ${DIALECT_IDS.join(", ")})`);
  return out;
}

/** Members of a policy that name files or folders: a request's policy may not make the server read one. */
const FILE_MEMBERS: readonly (readonly string[])[] = [["workspace"], ["tools", "allowFile"], ["tools", "registry"], ["delegation", "registry"], ["approval", "trustedKeys"], ["approval", "key"], ["guard", "stateDir"]];

/** A request's inline policy, resolved in the server's workspace; it may name no file of the server. */
export async function inlineSetup(text: string, ctx: OpContext): Promise<Setup> {
  let parsed;
  try {
    parsed = await parsePolicyText(text, "request policy");
  } catch (err) {
    if (err instanceof PolicyError) throw new OpError(400, "bad-policy", err.message);
    throw err;
  }
  for (const path of FILE_MEMBERS) {
    let v: unknown = parsed;
    for (const k of path) v = (v as Record<string, unknown> | undefined)?.[k];
    if (v !== undefined) throw new OpError(400, "bad-policy", `request policy: ${path.join(".")} names a file or folder of the server, which a request's policy may not (the workspace is the server's)`);
  }
  if (parsed.host !== undefined && /[/\\]|\.json$/.test(parsed.host)) throw new OpError(400, "bad-policy", "request policy: host must be a built-in profile name (claude-code, generic), not a file");
  const workspace = ctx.setup.policy.workspace;
  let policy;
  try {
    // Merged over the defaults, the policy is bounded in all (a protected path is also protected with its contents).
    policy = resolvePolicy(parsed, workspace, workspace, "(request)");
  } catch (err) {
    if (err instanceof PolicyError) throw new OpError(400, "bad-policy", err.message);
    throw err;
  }
  policy.workspace = workspace;
  let host;
  try {
    host = loadProfile(policy.host ?? "generic", ctx.cwd);
  } catch (err) {
    if (err instanceof HostProfileError) throw new OpError(400, "bad-policy", `request policy: host: ${err.message}`);
    throw err;
  }
  const hostTools = profileAllowList(host);
  const tools = policyTools(policy) ?? (hostTools.length > 0 ? registryFromNames(hostTools, `the ${host.name} host profile`) : undefined);
  return { policy, tools, policyHash: resolvedPolicyHash(policy, host), host };
}

const CHANGES_STATE: ReadonlySet<OpName> = new Set(["runs", "runs/stop", "delegations"]);

/** Runs one operation: the CLI's JSON document and its exit code (0 accepted, 1 rejected). */
export async function handleOp(name: OpName, bytes: Uint8Array, ctx: OpContext): Promise<{ body: string; exit: number }> {
  const req = parseRequest(name, bytes);
  // A request that changes the store (a run started or stopped, a session registered or released) is not
  // abandoned: a 503 while it goes on to finish would hide a consumed approval, a bound session or a
  // registered id from its caller. The store bounds its own waits (connecting, a locked row).
  if (CHANGES_STATE.has(name)) return run(name, req, ctx);
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new OpError(503, "timeout", `no answer within ${ctx.timeoutMs} ms`)), ctx.timeoutMs);
  });
  try {
    return await Promise.race([run(name, req, ctx), expired]);
  } finally {
    clearTimeout(timer);
  }
}

async function run(name: OpName, r: Request, ctx: OpContext): Promise<{ body: string; exit: number }> {
  if (name !== "validate" && name !== "hash" && name !== "verify") {
    const ops = await import("./state-ops.js");
    if (name === "returns") return ops.returnsOp(r, ctx);
    if (name === "delegations") return ops.delegationsOp(r, ctx);
    if (name === "runs") return ops.startRunOp(r, ctx);
    if (name === "runs/stop") return ops.stopRunOp(r, ctx);
    if (!ctx.approver) throw new OpError(404, "not-found", "approvals are off: plangate serve --approve-key KEY --approve-token-file FILE turns POST /v1/approve on");
    return ops.approveOp(r, { ...ctx, ...ctx.approver });
  }
  // validate, hash and verify take strings only (parseRequest checked their kinds).
  const req = r as Record<string, string>;
  const bytes = Buffer.from(req.text!, "utf8");
  const file = req.file!;
  if (name === "validate") {
    const setup = req.policy !== undefined ? await inlineSetup(req.policy, ctx) : ctx.setup;
    const report = await validatePlan(bytes, {
      file,
      policy: setup.policy,
      tools: setup.tools,
      now: ctx.now,
      host: setup.host,
      ...(req.dialect !== undefined ? { dialect: req.dialect as DialectId } : {}),
    });
    // A check that threw is a bug, not a verdict on the plan (the CLI exits 2).
    const crash = report.internalErrors?.[0];
    if (crash) throw new OpError(500, "internal", `the ${crash.rule} check failed on ${file} (${crash.message})`);
    const source = setup.policy.source ?? null;
    return { body: formatJson([report], { policy: source, policies: [source] }), exit: report.valid ? 0 : 1 };
  }
  if (name === "hash") {
    const policy = req.policy !== undefined ? (await inlineSetup(req.policy, ctx)).policy : undefined;
    // As `plangate hash`: the default limits unless the request's policy sets its own.
    const max = (policy ?? defaultPolicy(ctx.cwd)).limits.maxFileBytes;
    const input = bytes.byteLength > max ? inputTooLarge({ max, size: bytes.byteLength, file, split: true }) : bytes;
    const h = await hashResult(file, input, { now: ctx.now, ...(policy ? { policy } : {}) });
    return { body: hashDocument([h.result]), exit: h.ok ? 0 : 1 };
  }
  const hash = await planHash(bytes, { file });
  const result = checkApproval(Buffer.from(req.approval!, "utf8"), hash, {
    setup: ctx.setup,
    trustedKeys: ctx.trustedKeys,
    ...(ctx.keyPlaces ? { keyPlaces: ctx.keyPlaces } : {}),
    allowUnsigned: false,
    now: ctx.now(),
  });
  // As `plangate verify -o json`: the report envelope, one result.
  const entry = { file, valid: result.ok, extra: { planHash: hash, ...verifyExtra(result) }, diagnostics: result.diagnostics };
  return { body: JSON.stringify(resultsJson([entry], { policy: ctx.setup.policy.source ?? null }), null, 2) + "\n", exit: result.ok ? 0 : 1 };
}

