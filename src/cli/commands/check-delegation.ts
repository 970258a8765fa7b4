import { statSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Command } from "commander";
import { checkDelegation, checkDelegationIn, type DelegationCheckResult } from "../../orchestration/delegation.js";
import { GuardStateError } from "../../store/errors.js";
import { FileStore } from "../../store/file.js";
import { InvalidSessionIdError, SessionRegistryError, sessionIdProblem } from "../../orchestration/registry.js";
import { closeStore, storeFrom } from "../store-flag.js";
import { FileSessionRegistry } from "../../store/file-registry.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import type { Policy } from "../../core/policy.js";
import type { Store } from "../../store/types.js";
import { type Wrap, outputOption, useColor } from "../main.js";
import { resolveSetup } from "../setup.js";
import { CHECK_OUTPUTS, type CheckOutput, formatCheckOutputs, intFlag } from "./check-output.js";

interface DelegationFlags {
  target?: string;
  path?: string;
  depth?: string;
  sessionId?: string;
  registry?: string;
  store?: string;
  maxDepth?: string;
  ttl?: string;
  register?: boolean;
  release?: boolean;
  policy?: string;
  workspace?: string;
  output: string;
}

/** `plangate check-delegation --target AGENT --path A,B,… --session-id ID [--register]`. */
export function registerCheckDelegation(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("check-delegation")
    .description("check a delegation's depth, cycles and session id against the shared registry (the orchestrator validation strategy)")
    .option("--target <agent>", "agent about to be delegated to")
    .option("--path <agents>", "delegation path so far, root first, comma-separated (orchestrator,plan,planner)")
    .option("--depth <n>", "the child's depth as the orchestrator tracks it (wins over the count from --path)")
    .option("--session-id <id>", "the new session's id, checked against the active registry")
    .option("--registry <dir>", "session registry folder (default: delegation.registry, else .plangate/sessions in the workspace)")
    .option("--store <url>", "shared store whose session registry to use: file:DIR (its registry/ folder) or postgres://… (default: the policy's store when delegation.registry is not set)")
    .option("--max-depth <n>", "maximum delegation depth (default: delegation.maxDepth, 3)")
    .option("--ttl <seconds>", "lifetime of a registered session (default: delegation.sessionTtlSeconds, 86400)")
    .option("--register", "add the session id to the registry, atomically, when every check passes")
    .option("--release", "remove the session id from the registry (when the subagent has returned)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root")
    .addOption(outputOption(CHECK_OUTPUTS))
    .action(
      wrap(async (flags: DelegationFlags) => {
        const { policy } = await resolveSetup(flags, io);
        const maxDepth = intFlag(flags.maxDepth, "--max-depth", 0);
        const depth = intFlag(flags.depth, "--depth", 0);
        const ttl = intFlag(flags.ttl, "--ttl", 1);
        const id = flags.sessionId;
        if (id !== undefined) {
          const problem = sessionIdProblem(id);
          if (problem) throw new UsageError(`--session-id "${id}" is not a usable session id: ${problem}`);
        }
        if (flags.store !== undefined && flags.registry !== undefined) throw new UsageError("give --store or --registry, not both");
        const spec = flags.store ?? (flags.registry === undefined && policy.delegation.registry === undefined ? policy.store : undefined);
        const shared = spec === undefined ? undefined : await storeFrom({ store: spec }, undefined, io);
        if (shared !== undefined && typeof shared !== "string") {
          // A database's registry: the same checks, asked of the store (fail closed: an unreachable store is exit 2).
          try {
            return await withSharedRegistry(shared, flags, policy, io, { maxDepth, depth, ttl, id });
          } catch (err) {
            if (err instanceof GuardStateError || err instanceof InvalidSessionIdError) throw new UsageError(err.message);
            throw err;
          } finally {
            await closeStore(shared);
          }
        }
        const folder =
          typeof shared === "string"
            ? new FileStore(shared).registryDir
            : flags.registry !== undefined
            ? resolve(io.cwd, flags.registry)
            : (policy.delegation.registry ?? join(policy.workspace, ".plangate", "sessions"));
        const registry = new FileSessionRegistry(isAbsolute(folder) ? folder : resolve(io.cwd, folder), {
          ttlSeconds: ttl ?? policy.delegation.sessionTtlSeconds,
        });
        const named = typeof shared === "string" ? `the store file:${shared}` : flags.registry !== undefined ? `--registry ${flags.registry}` : `delegation.registry ${registry.folder}`;
        const problem = notAFolder(registry.folder);
        if (problem) throw new UsageError(`${named} is ${problem}, not a folder: give the folder that holds one file per session`);
        // A registry that turns out unusable midway (an entry that is a folder) is the operator's to fix: exit 2.
        const guarded = <T>(f: () => T): T => {
          try {
            return f();
          } catch (err) {
            if (err instanceof SessionRegistryError) throw new UsageError(`${named}: ${err.message}`);
            throw err;
          }
        };
        const json = flags.output === "json";

        if (flags.release) {
          if (id === undefined) throw new UsageError("--release needs --session-id");
          if (flags.register) throw new UsageError("--release and --register cannot be combined");
          const released = guarded(() => registry.release(id));
          if (json) io.stdout(`${JSON.stringify({ version: 1, released, session_id: id, registry: registry.folder }, null, 2)}\n`);
          else io.stdout(`${released ? "released" : "not registered"}: ${id}\n`);
          return EXIT.ok;
        }
        if (flags.target === undefined || flags.target.trim() === "") throw new UsageError("check-delegation needs --target AGENT");
        if (flags.path === undefined && depth === undefined) throw new UsageError("check-delegation needs --path A,B,… (or --depth N)");
        if (flags.register && id === undefined) throw new UsageError("--register needs --session-id");
        const path = (flags.path ?? "").split(",").map((s) => s.trim());
        if (flags.path !== undefined && path.some((p) => p === "")) throw new UsageError(`--path has an empty agent name: "${flags.path}"`);

        const target = flags.target;
        const result = guarded(() =>
          checkDelegation({
            target,
            path: flags.path === undefined ? [] : path,
            depth,
            sessionId: id,
            maxDepth,
            ttlSeconds: ttl,
            registry,
            register: flags.register === true,
            now: io.now(),
            policy,
          }),
        );
        return report(result, flags, path, id, io);
      }),
    );
}

function report(result: DelegationCheckResult, flags: DelegationFlags, path: string[], id: string | undefined, io: CliIO): number {
  const out = [delegationOutput(result, flags.target!, flags.path === undefined ? undefined : path, id)];
  io.stdout(formatCheckOutputs(out, flags.output, useColor(io), io.cwd));
  return result.valid ? EXIT.ok : EXIT.rejected;
}

/** A delegation check's result as the report shows it: the `delegation` member and the text line. */
export function delegationOutput(result: DelegationCheckResult, target: string, path: readonly string[] | undefined, id: string | undefined): CheckOutput {
  const delegation = {
    target,
    path: path ?? [],
    depth: result.depth,
    maxDepth: result.maxDepth,
    sessionId: id ?? null,
    registered: result.registered ?? null,
  };
  const what = `delegation to "${target}" at depth ${result.depth}/${result.maxDepth}${result.registered ? `, registered ${id}` : ""}`;
  return { result, extra: { delegation }, what };
}

/** check-delegation (and --release) against a database store's session registry. */
async function withSharedRegistry(
  store: Store,
  flags: DelegationFlags,
  policy: Policy,
  io: CliIO,
  n: { maxDepth: number | undefined; depth: number | undefined; ttl: number | undefined; id: string | undefined },
): Promise<number> {
  const id = n.id;
  if (flags.release) {
    if (id === undefined) throw new UsageError("--release needs --session-id");
    if (flags.register) throw new UsageError("--release and --register cannot be combined");
    const released = await store.releaseSession(id);
    if (flags.output === "json") io.stdout(`${JSON.stringify({ version: 1, released, session_id: id, registry: store.location }, null, 2)}\n`);
    else io.stdout(`${released ? "released" : "not registered"}: ${id}\n`);
    return EXIT.ok;
  }
  if (flags.target === undefined || flags.target.trim() === "") throw new UsageError("check-delegation needs --target AGENT");
  if (flags.path === undefined && n.depth === undefined) throw new UsageError("check-delegation needs --path A,B,… (or --depth N)");
  if (flags.register && id === undefined) throw new UsageError("--register needs --session-id");
  const path = (flags.path ?? "").split(",").map((s) => s.trim());
  if (flags.path !== undefined && path.some((p) => p === "")) throw new UsageError(`--path has an empty agent name: "${flags.path}"`);
  const result = await checkDelegationIn(store, {
    target: flags.target,
    path: flags.path === undefined ? [] : path,
    depth: n.depth,
    sessionId: id,
    maxDepth: n.maxDepth,
    ttlSeconds: n.ttl,
    register: flags.register === true,
    now: io.now(),
    policy,
  });
  return report(result, flags, path, id, io);
}

/** Why a path cannot be the registry folder, or undefined (a folder, or nothing yet: it is created on first use). */
function notAFolder(path: string): string | undefined {
  try {
    const st = statSync(path);
    if (st.isDirectory()) return undefined;
    return st.isFile() ? "a file" : "a device, pipe or socket";
  } catch (err) {
    const c = (err as NodeJS.ErrnoException).code;
    if (c === "ENOENT") return undefined;
    return c === "ENOTDIR" ? "inside a file" : `unusable (${c ?? (err as Error).message})`;
  }
}
