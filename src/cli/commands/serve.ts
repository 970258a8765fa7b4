import { mkdirSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { stateDirProblem } from "../../store/runs.js";
import { loadPolicy, PolicyError } from "../../node/policy.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import type { Wrap } from "../main.js";
import { resolveSetup } from "../setup.js";
import { trustedKeysFrom } from "./approval-common.js";
import { stateDirFrom } from "./guard.js";
import { storeFrom } from "../store-flag.js";
import { KeyError, keyPlacesFor } from "../../node/keys.js";
import { keyInWorkspace, loadSigner } from "../../node/sign.js";

interface ServeFlags {
  listen: string;
  policy?: string | false;
  stateDir?: string;
  store?: string;
  tokenFile?: string;
  host?: string;
  trustedKeys?: string;
  timeout: string;
  maxRequestBytes: string;
  mcp: boolean;
  approveKey?: string;
  approveTokenFile?: string;
}

/** `HOST:PORT`, `[V6]:PORT`: the address to listen on. */
export function parseListen(value: string): { host: string; port: number } {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]\s]+):(\d{1,5})$/.exec(value);
  const port = m ? Number(m[2]) : NaN;
  if (!m || port > 65535) throw new UsageError(`--listen ${JSON.stringify(value)} is not HOST:PORT (e.g. 127.0.0.1:8790, [::1]:8790; port 0 picks a free one)`);
  return { host: m[1]!.replace(/^\[|\]$/g, ""), port };
}

function positive(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`${flag} must be a positive whole number, not "${value}"`);
  return n;
}

/** The token file's content: at least 32 characters, readable by its owner only. */
function readToken(path: string, flag = "--token-file"): string {
  let text: string;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new UsageError(`${flag} ${path} is not a file`);
    if ((st.mode & 0o077) !== 0) throw new UsageError(`${flag} ${path} can be read by others (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`);
    text = readFileSync(path, "utf8").trim();
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot read ${flag} ${path} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (text.length < 32 || /\s/.test(text)) throw new UsageError(`${flag} ${path} must hold one token of at least 32 characters and no spaces (e.g. from \`openssl rand -hex 32\`)`);
  return text;
}

/** `plangate serve`. */
export function registerServe(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("serve")
    .description("serve the guard's hook decision (Claude Code http hooks), the plan, return and delegation checks, runs and (with --approve-key) approvals over HTTP; loopback only unless --token-file")
    .option("--listen <host:port>", "address to listen on; a non-loopback address needs --token-file", "127.0.0.1:8790")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--state-dir <dir>", "state directory of runs, audit trails and consumed approvals (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate)")
    .option("--store <url>", "shared store for runs, audit trails and consumed approvals: file:DIR (the same as --state-dir DIR) or postgres://… (default: the policy's store, else the state directory)")
    .option("--token-file <file>", "require `Authorization: Bearer TOKEN` on every request, TOKEN being this file's content (mode 600)")
    .option("--host <name|file>", "agent host profile for plan mode's plans and validation (default: the policy's host, else generic)")
    .option("--trusted-keys <path>", "keys /v1/verify trusts: a public key file or folder (default: the policy's approval.trustedKeys)")
    .option("--timeout <ms>", "deny a hook call when no decision is reached in this many milliseconds", "5000")
    .option("--max-request-bytes <n>", "largest body of a /v1/ request but hooks (hook inputs: the policy's guard.maxInputBytes)", String(4 * 1024 * 1024))
    .option("--no-mcp", "do not serve the MCP tools at /mcp")
    .option("--approve-key <file>", "turn POST /v1/approve on: sign approvals with this Ed25519 private key (outside the workspace; needs --approve-token-file)")
    .option("--approve-token-file <file>", "the bearer token /v1/approve requires (mode 600), another than --token-file's: whoever holds it may approve plans")
    .action(
      wrap(async (flags: ServeFlags) => {
        const { host: address, port } = parseListen(flags.listen);
        const timeout = positive(flags.timeout, "--timeout");
        const maxRequestBytes = positive(flags.maxRequestBytes, "--max-request-bytes");
        const token = flags.tokenFile === undefined ? undefined : readToken(resolve(io.cwd, flags.tokenFile));
        if ((flags.approveKey === undefined) !== (flags.approveTokenFile === undefined))
          throw new UsageError("--approve-key and --approve-token-file go together: an approval endpoint needs its own token");
        const approveToken = flags.approveTokenFile === undefined ? undefined : readToken(resolve(io.cwd, flags.approveTokenFile), "--approve-token-file");
        if (approveToken !== undefined && approveToken === token) throw new UsageError("--approve-token-file must hold another token than --token-file: the approval token is for those allowed to approve");
        const { isLoopback, createService } = await import("../../service/server.js");
        if (token === undefined && !isLoopback(address))
          throw new UsageError(`--listen ${flags.listen} is not a loopback address: anyone who reaches it could drive the guard's runs; pass --token-file FILE, or listen on 127.0.0.1`);
        let loaded;
        try {
          loaded = await loadPolicy({ file: flags.policy, cwd: io.cwd });
        } catch (err) {
          if (err instanceof PolicyError) throw new UsageError(err.message);
          throw err;
        }
        const setup = await resolveSetup({ ...(flags.policy !== undefined ? { policy: flags.policy } : {}), ...(flags.host !== undefined ? { host: flags.host } : {}) }, io);
        // A shared store (postgres://) holds the runs; plan mode's plan files stay in the local state directory.
        const chosen = await storeFrom(flags, loaded.policy, io);
        const shared = typeof chosen === "string" ? undefined : chosen;
        const stateDir = typeof chosen === "string" ? chosen : stateDirFrom(undefined, loaded.policy, io);
        let approver;
        if (flags.approveKey !== undefined) {
          const keyFile = resolve(io.cwd, flags.approveKey);
          try {
            approver = { signer: loadSigner(keyFile), keyFile };
          } catch (err) {
            if (err instanceof KeyError) throw new UsageError(err.message);
            throw err;
          }
          const inside = keyInWorkspace(keyFile, [setup.policy.workspace], keyPlacesFor({ policy: setup.policy.source, cwd: io.cwd, env: io.env }));
          if (inside) throw new UsageError(`--approve-key: ${inside.message}`);
        }
        const problem = stateDirProblem(stateDir, loaded.policy.workspace);
        if (problem) throw new UsageError(problem);
        try {
          mkdirSync(stateDir, { recursive: true, mode: 0o700 });
        } catch (err) {
          throw new UsageError(`cannot create the state directory ${stateDir} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        }
        const service = createService({
          loaded,
          setup,
          stateDir,
          ...(shared ? { store: shared } : {}),
          trustedKeys: trustedKeysFrom(flags.trustedKeys, loaded.policy, io),
          cwd: io.cwd,
          env: io.env,
          now: io.now,
          hookTimeoutMs: timeout,
          maxRequestBytes,
          mcp: flags.mcp,
          log: (line) => io.stderr(line + "\n"),
          ...(flags.host !== undefined ? { host: flags.host } : {}),
          ...(token !== undefined ? { token } : {}),
          ...(approver !== undefined ? { approver, approveToken: approveToken! } : {}),
        });
        let bound;
        try {
          bound = await service.listen(address, port);
        } catch (err) {
          throw new UsageError(`cannot listen on ${flags.listen} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        }
        const shown = bound.family === "IPv6" ? `[${bound.address}]` : bound.address;
        io.stderr(`plangate serve: listening on http://${shown}:${bound.port} (${shared ? `store ${shared.location}, plan files in ${stateDir}` : `state directory ${stateDir}`}${token !== undefined ? ", bearer token required" : ", loopback clients only"}${approver ? ", POST /v1/approve on" : ""})\n`);
        await new Promise<void>((done) => {
          const stop = () => {
            process.off("SIGINT", stop);
            process.off("SIGTERM", stop);
            void service.close().then(done);
          };
          process.on("SIGINT", stop);
          process.on("SIGTERM", stop);
        });
        return EXIT.ok;
      }),
    );
}
