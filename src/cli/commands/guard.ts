import { join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { GuardRefusal } from "../../node/guard.js";
import { repairRun, type RunState, runOfSession, runSummary, startRun, stateDirProblem, stepOf, stopRun, storeOf } from "../../store/runs.js";
import { GuardStateError } from "../../node/guard-state.js";
import type { LoadedPolicy } from "../../node/policy.js";
import { DEFAULT_MAX_INPUT_BYTES } from "../../policy/defaults.js";
import { readSmallFile } from "../../node/read-bounded.js";
import type { Policy } from "../../core/policy.js";
import { answerHook } from "../hook-answer.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import type { PlanFlags } from "../setup.js";
import { closeStore, STORE_OPTION, storeFrom, storeName, storeNamed } from "../store-flag.js";
import type { Store } from "../../store/types.js";

interface StartFlags extends PlanFlags {
  approval: string;
  audit?: string;
  stateDir?: string;
  store?: string;
  session?: string;
  trustedKeys?: string;
  consumedDir?: string;
  allowUnsigned?: boolean;
  output: string;
}

function statePath(flag: string | undefined, io: CliIO): string | undefined {
  const p = flag ?? io.env.PLANGATE_GUARD_STATE;
  return p ? resolve(io.cwd, p) : undefined;
}

/**
 * The state directory: --state-dir, else the policy's guard.stateDir, else $XDG_STATE_HOME/plangate,
 * else ~/.local/state/plangate (the same folder whose consumed/ has always held consumed approvals).
 */
export function stateDirFrom(flag: string | undefined, policy: Policy | undefined, io: Pick<CliIO, "cwd" | "env">): string {
  if (flag !== undefined) return resolve(io.cwd, flag);
  if (policy?.guard.stateDir !== undefined) return policy.guard.stateDir;
  const base = io.env.XDG_STATE_HOME || (io.env.HOME ? join(io.env.HOME, ".local", "state") : undefined);
  if (!base) throw new UsageError("cannot place the guard's state directory: pass --state-dir DIR (no HOME or XDG_STATE_HOME)");
  return join(base, "plangate");
}

/** The policy file's reader (with its validator) loads only when a command needs the policy: a hook call with --state-dir may not. */
async function policyFor(flag: string | false | undefined, io: CliIO): Promise<LoadedPolicy> {
  const { loadPolicy, PolicyError } = await import("../../node/policy.js");
  try {
    return await loadPolicy({ file: flag, cwd: io.cwd });
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(err.message);
    throw err;
  }
}

export { claudeAnswer } from "../hook-answer.js";

interface HookFlags {
  state?: string;
  stateDir?: string;
  store?: string;
  timeout: string;
  output: "exit" | "claude";
  policy?: string | false;
  host?: string;
}

interface RunFlags {
  stateDir?: string;
  store?: string;
  policy?: string | false;
  output: string;
}

/** `plangate guard` (a PreToolUse hook) and `plangate guard start`. */
export function registerGuard(program: Command, io: CliIO, wrap: Wrap): void {
  const guard = program
    .command("guard")
    // The hook's options go before a subcommand: `guard start -o json` is start's own --output.
    .enablePositionalOptions()
    .description("PreToolUse hook: allow a tool call only if it is its session's next approved step (or a free tool); otherwise block")
    .option("--state-dir <dir>", "state directory of runs, audit trails and consumed approvals (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate)")
    .option(...STORE_OPTION)
    .option("--state <file>", "deprecated: a single run's state file from `guard start --state` (default: $PLANGATE_GUARD_STATE)")
    .addOption(new Option("--output <mode>", "exit: exit 0 allows, exit 2 blocks (reason on stderr); claude: Claude Code's PreToolUse JSON on stdout, exit 0").choices(["exit", "claude"]).default("exit"))
    .option("--timeout <ms>", "block if no decision is reached in this many milliseconds", "5000")
    .option("--policy <file>", "policy for sessions with no run (guard.noRun, guard.free) and guard.stateDir (default: plangate.yaml found walking up)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--host <name|file>", "agent host profile for plan mode's plans (ExitPlanMode); a run uses the profile it was approved for (default: the policy's host, else generic)")
    .action(
      wrap(async (flags: HookFlags) => {
        const legacy = statePath(flags.state, io);
        let loaded: Promise<LoadedPolicy> | undefined;
        const policy = () => (loaded ??= policyFor(flags.policy, io));
        const r = await answerHook((max) => io.readStdin(max), {
          output: flags.output,
          timeoutMs: flags.timeout,
          now: io.now,
          cwd: io.cwd,
          env: io.env,
          policy,
          // With --state-dir the policy is read only when a decision needs it (a session with no run, plan mode).
          store: async () => {
            // --store / --state-dir: the policy is not needed to find the store (or the input limit).
            const p = storeNamed(flags) ? undefined : (await policy()).policy;
            const dir = await storeFrom(flags, p, io);
            const planDir = async () => (typeof dir === "string" ? dir : stateDirFrom(undefined, p ?? (await policy()).policy, io));
            return { dir, planDir, maxInputBytes: p?.guard.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES, close: () => closeStore(dir) };
          },
          ...(flags.host !== undefined ? { host: flags.host } : {}),
          ...(legacy !== undefined && !storeNamed(flags) ? { legacyState: legacy } : {}),
        });
        if (r.stdout) io.stdout(r.stdout);
        if (r.stderr) io.stderr(r.stderr);
        return r.code;
      }),
    );

  guard
    .command("start")
    .description("verify a plan and its approval, consume the approval, and start a run (pending until a session's first call claims it, or bound with --session)")
    .argument("<file>", "the approved plan")
    .requiredOption("--approval <file>", "the approval (DSSE envelope from plangate approve --key)")
    .option("--state-dir <dir>", "state directory (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate, else ~/.local/state/plangate)")
    .option(...STORE_OPTION)
    .option("--session <id>", "bind the run to this Claude Code session id now")
    .option("--state <file>", "deprecated: write a single-run state file instead of a run in the state directory (needs --audit)")
    .option("--audit <file>", "deprecated, with --state: the JSON Lines audit trail to append to")
    .option("--trusted-keys <path>", "public key file, or folder of *.pub / *.pem files (default: the policy's approval.trustedKeys)")
    .option("--consumed-dir <dir>", "deprecated: store of consumed approvals (default: the state directory's consumed/; with --state: $PLANGATE_CONSUMED_DIR, else ~/.local/state/plangate/consumed)")
    .option("--allow-unsigned", "accept an unsigned approval record (only from a channel you trust)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry the plan was approved with")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, local: StartFlags & { state?: string }, cmd: Command) => {
        // `guard --state S start …` (plangate 0.1's spelling) still names the state file.
        const flags = { ...local, state: local.state ?? (cmd.parent?.opts() as { state?: string }).state };
        const state = !storeNamed(flags) ? statePath(flags.state, io) : undefined;
        if (state !== undefined && flags.audit === undefined) throw new UsageError("--state FILE (deprecated) needs --audit FILE; or use --state-dir DIR, which holds the audit trails");
        if (state === undefined && flags.audit !== undefined) throw new UsageError("--audit goes with the deprecated --state FILE: pass --state FILE, or drop --audit (the state directory holds the audit trails)");
        if (state !== undefined && flags.session !== undefined) throw new UsageError("--session needs a state directory (--state-dir), not --state");
        // What starting a run needs (the policy, tool and profile readers, the approval printers) loads
        // here, not with the hook call, which this module also registers.
        const [{ resolveSetup, setupForFile }, { consumedDirFrom, keyPlacesOf, printApprovalResult, printApprovalResults, trustedKeysFrom }, { startGuard }, { guardFailure }] = await Promise.all([
          import("../setup.js"),
          import("./approval-common.js"),
          import("../../node/hook.js"),
          import("../../approval/judge.js"),
        ]);
        const setup = setupForFile(await resolveSetup(flags, io), resolve(io.cwd, file), io);
        const dir = state === undefined ? await storeFrom(flags, setup.policy, io) : undefined;
        if (typeof dir === "string") {
          const problem = stateDirProblem(dir, setup.policy.workspace);
          if (problem) throw new UsageError(problem);
        }
        let approval: Uint8Array;
        try {
          // A regular file of bounded size: a device or a pipe would be read forever.
          approval = readSmallFile(resolve(io.cwd, flags.approval));
        } catch (err) {
          throw new UsageError(`cannot read the approval ${flags.approval} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
        }
        const common = {
          plan: resolve(io.cwd, file),
          approval,
          workspace: setup.policy.workspace,
          policyHash: setup.policyHash,
          policy: setup.policy,
          tools: setup.tools,
          host: setup.host,
          trustedKeys: trustedKeysFrom(flags.trustedKeys, setup.policy, io),
          // The policy's folder, the working folder and the plan's are the project's too: the workspace is the policy's to say.
          keyPlaces: keyPlacesOf(setup.policy, io, file),
          allowUnsigned: flags.allowUnsigned === true,
          now: io.now,
        };
        // The per-user store of consumed approvals, when it can be placed: a run in any state directory records its nonce there.
        const userStore = io.env.PLANGATE_CONSUMED_DIR || io.env.XDG_STATE_HOME || io.env.HOME ? consumedDirFrom(undefined, io) : undefined;
        // Without one, a single-use approval's one use would be recorded only where this start says: a start
        // naming a fresh state directory or store could run it again. Refused unless the store is named.
        if (userStore === undefined && flags.consumedDir === undefined) {
          await closeStore(dir);
          await printApprovalResult(io, file, [guardFailure({ kind: "no-consumed-store" })], flags.output);
          return EXIT.rejected;
        }
        try {
          if (state !== undefined) {
            // --consumed-dir names another store: the approval is recorded in the per-user one too, so a fresh folder cannot replay it.
            const consumedDir = consumedDirFrom(flags.consumedDir, io);
            const also = userStore !== undefined && userStore !== consumedDir ? { alsoConsumedIn: userStore } : {};
            const st = await startGuard(state, { ...common, consumedDir, audit: resolve(io.cwd, flags.audit!), ...also });
            // The audit key stays in the state file (0600): printed, it could reach whoever writes the log.
            if (flags.output === "json") await printApprovalResults(io, [{ file, valid: true, extra: { state: { ...st, audit_key: undefined } }, diagnostics: [] }], "json");
            else io.stdout(`${file}: guard started: ${st.steps} approved steps, state ${state}\n`);
            return EXIT.ok;
          }
          const opts: Parameters<typeof startRun>[1] = { ...common };
          if (flags.session !== undefined) opts.session = flags.session;
          if (flags.consumedDir !== undefined) opts.consumedDir = resolve(io.cwd, flags.consumedDir);
          // The per-user store too (when it is another folder): no state directory can replay an approval.
          if (userStore !== undefined && userStore !== (opts.consumedDir ?? (typeof dir === "string" ? join(dir, "consumed") : undefined))) opts.alsoConsumedIn = userStore;
          const run = await startRun(dir!, opts);
          if (flags.output === "json") await printApprovalResults(io, [{ file, valid: true, extra: { ...(typeof dir === "string" ? { stateDir: dir } : { store: storeName(dir!) }), ...runSummary(run) }, diagnostics: [] }], "json");
          else io.stdout(`${file}: run ${run.run_id} started: ${run.expected.length} approved steps, ${run.session_id === null ? "pending (the first call of a session in its scope claims it)" : `bound to session ${JSON.stringify(run.session_id)}`}, ${typeof dir === "string" ? "state directory" : "store"} ${storeName(dir!)}\n`);
          return EXIT.ok;
        } catch (err) {
          if (err instanceof GuardStateError) throw new UsageError(err.message);
          if (!(err instanceof GuardRefusal)) throw err;
          await printApprovalResult(io, file, err.diagnostics, flags.output);
          return EXIT.rejected;
        } finally {
          await closeStore(dir);
        }
      }),
    );

  guard
    .command("status")
    .description("list the runs in the state directory: session, plan, step k of n, status, expiry")
    .option("--state-dir <dir>", "state directory (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate)")
    .option(...STORE_OPTION)
    .option("--policy <file>", "policy file (for store and guard.stateDir)")
    .option("--no-policy", "read no policy file")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (flags: RunFlags) => {
        const dir = await runDir(flags);
        let listed: { runs: RunState[]; problems: string[] };
        try {
          listed = await storeOf(dir).listRuns();
        } catch (err) {
          if (err instanceof GuardStateError) throw new UsageError(err.message);
          throw err;
        } finally {
          await closeStore(dir);
        }
        const { runs, problems } = listed;
        if (flags.output === "json") {
          io.stdout(JSON.stringify({ ...(typeof dir === "string" ? { stateDir: dir } : { store: storeName(dir) }), runs: runs.map(runSummary), problems }, null, 2) + "\n");
        } else {
          if (runs.length === 0) io.stdout(`no runs in ${storeName(dir)}\n`);
          for (const r of runs) {
            const { done, total } = stepOf(r);
            io.stdout(`${r.run_id}  ${r.status.padEnd(8)}  step ${done} of ${total}  session ${r.session_id === null ? "-" : JSON.stringify(r.session_id)}  expires ${r.expires_at ?? "never"}  ${r.plan}${r.stop_reason ? `  (${r.stop_reason})` : ""}\n`);
          }
          for (const p of problems) io.stderr(`plangate guard status: ${p}\n`);
        }
        return problems.length > 0 ? EXIT.rejected : EXIT.ok;
      }),
    );

  guard
    .command("stop")
    .description("stop a run (audited): its session's later calls are denied")
    .argument("[run]", "run id (as `guard status` lists it)")
    .option("--session <id>", "stop the run bound to this session")
    .option("--reason <text>", "why (recorded in the audit trail)", "stopped with plangate guard stop")
    .option("--state-dir <dir>", "state directory (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate)")
    .option(...STORE_OPTION)
    .option("--policy <file>", "policy file (for store and guard.stateDir)")
    .option("--no-policy", "read no policy file")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (id: string | undefined, flags: RunFlags & { session?: string; reason: string }) => {
        if ((id === undefined) === (flags.session === undefined)) throw new UsageError("name the run to stop: RUN or --session ID (one of them)");
        const dir = await runDir(flags);
        try {
          const run = await stopRun(dir, id ?? (await runOfSession(dir, flags.session!)), flags.reason, io.now());
          if (flags.output === "json") io.stdout(JSON.stringify({ ok: true, ...runSummary(run) }, null, 2) + "\n");
          else io.stdout(`run ${run.run_id} stopped\n`);
          return EXIT.ok;
        } catch (err) {
          if (err instanceof GuardStateError) throw new UsageError(err.message);
          throw err;
        } finally {
          await closeStore(dir);
        }
      }),
    );

  guard
    .command("repair")
    .description("finish a run left between its audit append and its state write: roll it forward when the audit lines prove the decisions, else mark it broken and stop it")
    .argument("<run>", "run id")
    .option("--state-dir <dir>", "state directory (default: the policy's guard.stateDir, else $XDG_STATE_HOME/plangate)")
    .option(...STORE_OPTION)
    .option("--policy <file>", "policy file (for store and guard.stateDir)")
    .option("--no-policy", "read no policy file")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (id: string, flags: RunFlags) => {
        const dir = await runDir(flags);
        try {
          const r = await repairRun(dir, id, io.now());
          if (flags.output === "json") io.stdout(JSON.stringify({ ok: r.action !== "broken", action: r.action, detail: r.detail, ...runSummary(r.run) }, null, 2) + "\n");
          else io.stdout(`run ${id}: ${r.action === "none" ? "nothing to repair" : r.action === "rolled-forward" ? "rolled forward" : "broken, stopped"}: ${r.detail}\n`);
          return r.action === "broken" ? EXIT.rejected : EXIT.ok;
        } catch (err) {
          if (err instanceof GuardStateError) throw new UsageError(err.message);
          throw err;
        } finally {
          await closeStore(dir);
        }
      }),
    );

  async function runDir(flags: RunFlags): Promise<string | Store> {
    return storeFrom(flags, storeNamed(flags) ? undefined : (await policyFor(flags.policy, io)).policy, io);
  }
  for (const cmd of guard.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
