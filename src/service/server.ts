import { createHash, timingSafeEqual } from "node:crypto";
import { accessSync, constants, statSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { HookInputError } from "../node/hook.js";
import { ruleDiagnostic } from "../rules/read-text.js";
import { stateDirProblem } from "../store/runs.js";
import { keyPlacesFor } from "../node/keys.js";
import type { Store } from "../store/types.js";
import { MissingDependency } from "../core/missing-dependency.js";
import { answerHook, claudeDeny, type HookOutput } from "../cli/hook-answer.js";
import type { Setup } from "../cli/setup.js";
import type { LoadedPolicy } from "../node/policy.js";
import { Metrics } from "./metrics.js";
import { handleOp, type OpContext, OpError, type OpName } from "./ops.js";
import { GUARD_FAILURE } from "../rules/guard-failure/index.js";

/*
 * `plangate serve`: the guard's hook decision and the plan checks over HTTP, in one long-lived process
 * (node:http, no framework: four routes, and every byte of a request is bounded here).
 *
 * The hook route answers Claude Code's http hooks. Every outcome of it is HTTP 200 with a Claude Code
 * answer, a deny for anything that is not a decision (a bad, oversized or non-JSON body, a missing token, a
 * timeout, a crash): an http hook's non-2xx answer or connection failure is a non-blocking error for
 * Claude Code, i.e. the call would run, so the server never answers one on that route.
 */

export interface ServiceOptions {
  /** The policy in force, loaded once at start (hooks: noRun, free, plan mode; limits). */
  loaded: LoadedPolicy;
  /** The same policy resolved for validate and verify (tools, host, policy hash). */
  setup: Setup;
  /** The state directory: the store (runs, audit trails, consumed approvals) unless `store` is given; plan mode's plan files in any case. */
  stateDir: string;
  /** A shared store (PostgreSQL) holding the runs, audit trails and consumed approvals; closed with the service. */
  store?: Store;
  /** `--host` for plan mode's plans. */
  host?: string;
  /** The bearer token every request must carry; without one the server answers loopback clients only. */
  token?: string;
  /** Trusted keys for /v1/verify (the policy's approval.trustedKeys). */
  trustedKeys: import("../node/keys.js").TrustedKey[];
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  now?: () => Date;
  /** A hook decision not reached in this many ms is a deny (default 5000). */
  hookTimeoutMs?: number;
  /** The whole request must arrive within this many ms (default 10000). */
  requestTimeoutMs?: number;
  /** The largest body of /v1/validate, /v1/hash, /v1/verify (default 4 MiB). */
  maxRequestBytes?: number;
  /** Serves /mcp (streamable HTTP) when set: loads the MCP SDK on the first /mcp request. */
  mcp?: boolean;
  /** POST /v1/approve signs with this key, for callers holding `approveToken` (both or neither). */
  approver?: { signer: import("../node/sign.js").Signer; keyFile: string };
  /** The bearer token of /v1/approve: another token than `token`, held by those allowed to approve. */
  approveToken?: string;
  /** Where problems are reported (one line each). */
  log?: (line: string) => void;
}

export interface Service {
  server: Server;
  metrics: Metrics;
  /** Listens; resolves with the bound address. */
  listen(host: string, port: number): Promise<AddressInfo>;
  close(): Promise<void>;
}

export const DEFAULT_MAX_REQUEST_BYTES = 4 * 1024 * 1024;

/** The JSON routes (POST; GET /v1/runs lists) and their operations. */
const OPS: Record<string, OpName> = {
  "/v1/validate": "validate",
  "/v1/hash": "hash",
  "/v1/verify": "verify",
  "/v1/returns": "returns",
  "/v1/delegations": "delegations",
  "/v1/runs": "runs",
  "/v1/runs/stop": "runs/stop",
  "/v1/approve": "approve",
};

/** Is this a loopback address (127.0.0.0/8, ::1, ::ffff:127.x)? */
export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const a = address.replace(/^\[|\]$/g, "").toLowerCase();
  return a === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || /^::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(a) || a === "localhost";
}

/** The Host header's name part (without the port). */
function hostName(host: string | undefined): string | undefined {
  if (host === undefined) return undefined;
  const m = /^(\[[^\]]*\]|[^:]*)(?::\d+)?$/.exec(host);
  return m ? m[1] : undefined;
}

function digest(s: string): Buffer {
  return createHash("sha256").update(s, "utf8").digest();
}

/** Reads a body, stopping once more than `max` bytes arrived (the caller refuses it). */
function readBody(req: IncomingMessage, max: number): Promise<{ bytes: Buffer; over: boolean }> {
  return new Promise((done, fail) => {
    const declared = Number(req.headers["content-length"]);
    if (Number.isFinite(declared) && declared > max) {
      req.resume();
      done({ bytes: Buffer.alloc(max + 1), over: true });
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    req.on("data", (c: Buffer) => {
      if (settled) return;
      size += c.byteLength;
      chunks.push(c);
      if (size > max) {
        settled = true;
        // The rest is drained and dropped: memory stays bounded, the answer goes out now.
        done({ bytes: Buffer.concat(chunks), over: true });
      }
    });
    req.on("end", () => {
      if (!settled) {
        settled = true;
        done({ bytes: Buffer.concat(chunks), over: false });
      }
    });
    req.on("error", (err) => {
      if (!settled) {
        settled = true;
        fail(err);
      }
    });
  });
}

function send(res: ServerResponse, status: number, body: string, type = "application/json", extra: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { "content-type": type, "cache-control": "no-store", "x-content-type-options": "nosniff", ...extra });
  res.end(body);
}

function errorBody(code: string, message: string): string {
  return JSON.stringify({ version: 1, error: { code, message } }, null, 2) + "\n";
}

/** Builds the service (not yet listening). */
export function createService(o: ServiceOptions): Service {
  if ((o.approver === undefined) !== (o.approveToken === undefined)) throw new Error("the approval key and the approval token go together");
  if (o.token !== undefined && o.token === o.approveToken) throw new Error("the approval token must differ from the server's token");
  const metrics = new Metrics();
  const now = o.now ?? (() => new Date());
  const log = o.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const hookTimeoutMs = o.hookTimeoutMs ?? 5000;
  const maxRequest = o.maxRequestBytes ?? DEFAULT_MAX_REQUEST_BYTES;
  const maxHook = o.loaded.policy.guard.maxInputBytes;
  const token = o.token === undefined ? undefined : digest(o.token);
  const approveToken = o.approveToken === undefined ? undefined : digest(o.approveToken);
  let mcpHandler: ((req: IncomingMessage, res: ServerResponse) => Promise<void>) | undefined;

  /** Does the request carry this bearer token? Compared as SHA-256 digests: the same length always, in constant time. */
  function bears(req: IncomingMessage, expected: Buffer): boolean {
    const auth = req.headers.authorization;
    const m = typeof auth === "string" ? /^Bearer +(\S+) *$/i.exec(auth) : null;
    return m !== null && timingSafeEqual(digest(m[1]!), expected);
  }

  /**
   * Why the request may not be served: a token, a loopback Host, no browser Origin. Undefined: it may.
   * /v1/approve takes the approval token instead of the server's (and is loopback-only without a server token).
   */
  function refusal(req: IncomingMessage, approving = false): string | undefined {
    // A browser page (any site, or a DNS-rebound name) could post to a loopback port: its requests carry
    // an Origin header, and a rebound one a foreign Host. Claude Code and the CLI clients send neither.
    if (req.headers.origin !== undefined) return "requests from a browser page (an Origin header) are refused";
    if (approving) {
      if (token === undefined) {
        const local = loopbackRefusal(req);
        if (local) return local;
      }
      if (!bears(req, approveToken!)) return "approving needs the approval token (Authorization: Bearer TOKEN, the --approve-token-file's content)";
      return undefined;
    }
    if (token !== undefined) {
      if (!bears(req, token)) return "a bearer token is required (Authorization: Bearer TOKEN, the --token-file's content)";
      return undefined;
    }
    return loopbackRefusal(req);
  }

  function loopbackRefusal(req: IncomingMessage): string | undefined {
    if (!isLoopback(req.socket.remoteAddress)) return "only loopback clients are served without --token-file";
    if (!isLoopback(hostName(req.headers.host))) return `the Host header ${JSON.stringify(String(req.headers.host ?? "").slice(0, 100))} is not a loopback name (127.0.0.1, [::1], localhost)`;
    return undefined;
  }

  async function health(): Promise<{ ok: boolean; problems: string[] }> {
    const problems: string[] = [];
    if (o.store) {
      // The database must answer: every decision denies while it does not.
      try {
        await o.store.isConsumed("0".repeat(32));
      } catch (err) {
        problems.push(`the store ${o.store.location} does not answer (${(err as Error).message})`);
      }
    }
    const overlap = stateDirProblem(o.stateDir, o.loaded.policy.workspace);
    if (overlap) problems.push(overlap);
    try {
      if (!statSync(o.stateDir).isDirectory()) problems.push(`the state directory ${o.stateDir} is not a directory`);
      else accessSync(o.stateDir, constants.W_OK | constants.X_OK);
    } catch (err) {
      problems.push(`the state directory ${o.stateDir} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
    }
    return { ok: problems.length === 0, problems };
  }

  async function hook(req: IncomingMessage, res: ServerResponse, refused: string | undefined): Promise<number> {
    const started = process.hrtime.bigint();
    let out: HookOutput;
    let over = false;
    try {
      if (refused !== undefined) {
        metrics.authFailures.inc();
        req.resume();
        out = { code: 0, stdout: claudeDeny(undefined, `the request is refused: ${refused}`, GUARD_FAILURE), stderr: "", outcome: { event: "unknown", decision: "deny", rule: GUARD_FAILURE } };
      } else {
        const type = req.headers["content-type"];
        out = await answerHook(
          async (max) => {
            if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
              req.resume();
              throw new HookInputError(ruleDiagnostic("parse-error", "hookContentType", { type: JSON.stringify(type.slice(0, 100)) }));
            }
            const body = await readBody(req, max);
            over = body.over;
            return body.bytes;
          },
          {
            output: "claude",
            timeoutMs: hookTimeoutMs,
            now,
            cwd: o.cwd,
            env: o.env,
            policy: async () => o.loaded,
            store: async () => ({ dir: o.store ?? o.stateDir, planDir: async () => o.stateDir, maxInputBytes: maxHook }),
            ...(o.host !== undefined ? { host: o.host } : {}),
          },
        );
      }
    } catch (err) {
      // answerHook answers every failure itself; this is the last line, for a bug around it.
      out = { code: 0, stdout: claudeDeny(undefined, `internal error: ${(err as Error)?.message ?? String(err)}`, GUARD_FAILURE), stderr: "", outcome: { event: "unknown", decision: "deny", rule: GUARD_FAILURE }, failure: "internal" };
    }
    // The command hook's answer is its stdout with exit 0; anything else (exit 2 with no JSON) must still deny here.
    let body = out.stdout;
    if (out.code !== 0 && body === "") body = claudeDeny(out.outcome.event === "unknown" ? undefined : out.outcome.event, out.stderr.trim() || "blocked", GUARD_FAILURE);
    metrics.latency.observe(Number(process.hrtime.bigint() - started) / 1e9);
    metrics.decisions.inc({ event: out.outcome.event, outcome: out.outcome.decision, rule: out.outcome.rule ?? "" });
    if (out.failure === "store" || out.failure === "timeout") metrics.storeErrors.inc({ kind: out.failure });
    if (out.stderr) log(out.stderr.trimEnd());
    send(res, 200, body, "application/json", over ? { connection: "close" } : {});
    return 200;
  }

  const opContext: OpContext = {
    setup: o.setup,
    trustedKeys: o.trustedKeys,
    // The policy's folder and the server's working folder are the project's: no key may lie there.
    keyPlaces: keyPlacesFor({ policy: o.setup.policy.source, cwd: o.cwd, env: o.env }),
    now,
    cwd: o.cwd,
    timeoutMs: o.requestTimeoutMs ?? 10_000,
    state: { stateDir: o.stateDir, ...(o.store ? { store: o.store } : {}) },
    ...(o.approver ? { approver: o.approver } : {}),
    log,
  };

  async function op(name: OpName | "runs/list", req: IncomingMessage, res: ServerResponse): Promise<number> {
    const body = name === "runs/list" ? { bytes: Buffer.alloc(0), over: false } : await readBody(req, maxRequest);
    if (body.over) {
      req.resume();
      send(res, 413, errorBody("too-large", `the request body is over ${maxRequest} bytes (--max-request-bytes)`), "application/json", { connection: "close" });
      return 413;
    }
    try {
      const r = name === "runs/list" ? await (await import("./state-ops.js")).listRunsOp(opContext) : await handleOp(name, body.bytes, opContext);
      send(res, 200, r.body, "application/json", { "x-plangate-exit": String(r.exit) });
      return 200;
    } catch (err) {
      if (err instanceof OpError) {
        send(res, err.status, errorBody(err.code, err.message));
        return err.status;
      }
      const message = (err as Error)?.message ?? String(err);
      log(`plangate serve: internal error on /v1/${name}: ${message}`);
      send(res, 500, errorBody("internal", message));
      return 500;
    }
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<[string, number]> {
    const path = (req.url ?? "/").split("?")[0]!;
    const refused = refusal(req);
    if (path === "/v1/hooks/claude-code") {
      if (req.method !== "POST") {
        send(res, 405, errorBody("method", "POST a Claude Code hook input here"), "application/json", { allow: "POST" });
        return [path, 405];
      }
      return [path, await hook(req, res, refused)];
    }
    const known = [...Object.keys(OPS), "/healthz", "/metrics", "/mcp"];
    const name = known.includes(path) ? path : "other";
    if (path === "/v1/approve" && o.approver === undefined) {
      req.resume();
      send(res, 404, errorBody("not-found", "approvals are off: plangate serve --approve-key KEY --approve-token-file FILE turns POST /v1/approve on"));
      return [path, 404];
    }
    const denied = path === "/v1/approve" ? refusal(req, true) : refused;
    if (denied !== undefined) {
      metrics.authFailures.inc();
      req.resume();
      const bearer = path === "/v1/approve" || token !== undefined;
      send(res, bearer && req.headers.origin === undefined ? 401 : 403, errorBody("unauthorized", denied), "application/json", bearer ? { "www-authenticate": "Bearer" } : {});
      return [name, res.statusCode];
    }
    if (path === "/healthz" || path === "/metrics") {
      if (req.method !== "GET" && req.method !== "HEAD") {
        send(res, 405, errorBody("method", "use GET"), "application/json", { allow: "GET" });
        return [path, 405];
      }
      if (path === "/metrics") {
        send(res, 200, metrics.text(), "text/plain; version=0.0.4; charset=utf-8");
        return [path, 200];
      }
      const h = await health();
      send(res, h.ok ? 200 : 503, JSON.stringify({ ok: h.ok, stateDir: o.stateDir, ...(o.store ? { store: o.store.location } : {}), ...(h.ok ? {} : { problems: h.problems }) }) + "\n");
      return [path, h.ok ? 200 : 503];
    }
    const routed = Object.hasOwn(OPS, path) ? OPS[path]! : undefined;
    if (routed) {
      if (path === "/v1/runs" && req.method === "GET") return [path, await op("runs/list", req, res)];
      if (req.method !== "POST") {
        const allow = path === "/v1/runs" ? "GET, POST" : "POST";
        send(res, 405, errorBody("method", path === "/v1/runs" ? "GET /v1/runs lists the runs; POST one to start it" : `POST a JSON request to ${path}`), "application/json", { allow });
        return [path, 405];
      }
      return [path, await op(routed, req, res)];
    }
    if (path === "/mcp" && o.mcp) {
      try {
        mcpHandler ??= await (await import("./mcp-http.js")).mcpHttpHandler({ setup: o.setup, now, cwd: o.cwd, maxRequestBytes: maxRequest, sessions: await (await import("./state-ops.js")).sessionsOf(opContext) });
      } catch (err) {
        if (!(err instanceof MissingDependency)) throw err;
        req.resume();
        send(res, 501, errorBody("missing-dependency", err.message));
        return [path, 501];
      }
      await mcpHandler(req, res);
      return [path, res.statusCode];
    }
    req.resume();
    send(res, 404, errorBody("not-found", `no route ${JSON.stringify(path.slice(0, 200))}: POST /v1/hooks/claude-code, ${Object.keys(OPS).join(", ")}, /mcp; GET /v1/runs, /healthz, /metrics`));
    return ["other", 404];
  }

  const server = createServer((req, res) => {
    route(req, res)
      .then(([path, status]) => metrics.requests.inc({ route: path, status: String(status) }))
      .catch((err: unknown) => {
        log(`plangate serve: ${(err as Error)?.message ?? String(err)}`);
        const path = (req.url ?? "/").split("?")[0];
        // Even here the hook route answers a deny, never an error status.
        if (path === "/v1/hooks/claude-code") send(res, 200, claudeDeny(undefined, "internal error", GUARD_FAILURE));
        else send(res, 500, errorBody("internal", (err as Error)?.message ?? String(err)));
        metrics.requests.inc({ route: path === "/v1/hooks/claude-code" ? path : "other", status: String(res.statusCode) });
      });
  });
  server.requestTimeout = o.requestTimeoutMs ?? 10_000;
  server.headersTimeout = Math.min(server.requestTimeout, 5_000);
  server.keepAliveTimeout = 5_000;
  server.maxHeadersCount = 100;

  return {
    server,
    metrics,
    listen: (host, port) =>
      new Promise((done, fail) => {
        server.once("error", fail);
        server.listen(port, host, () => {
          server.off("error", fail);
          done(server.address() as AddressInfo);
        });
      }),
    close: async () => {
      await new Promise<void>((done) => {
        server.close(() => done());
        server.closeAllConnections();
      });
      await o.store?.close();
    },
  };
}
