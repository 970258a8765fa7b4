import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { type Command, Option } from "commander";
import { GuardRefusal } from "../../approval/guard.js";
import { HookInputError, type HookInput, hookCall, maxInputBytesOf, otherEvent, parseHookInput, startGuard } from "../../approval/hook.js";
import { subagentEvent, type Answer, decideHook, repairRun, type RunState, runOfSession, startRun, stateDirProblem, stopRun, storeOf } from "../../approval/runs.js";
import { GuardStateError, readState } from "../../approval/state.js";
import { loadPolicy, PolicyError } from "../../node/policy.js";
import { DEFAULT_MAX_INPUT_BYTES } from "../../policy/defaults.js";
import type { Policy } from "../../policy/types.js";
import type { HostProfile } from "../../host/profile.js";
import type { TrustedKey } from "../../approval/keys.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup, setupForFile } from "../setup.js";
import { closeStore, STORE_OPTION, storeFrom, storeName, storeNamed } from "../store-flag.js";
import type { Store } from "../../store/types.js";
import { consumedDirFrom, printApprovalResult, printApprovalResults, trustedKeysFrom } from "./approval-common.js";

/** Claude Code reads exit 2 of a PreToolUse hook as "block, reason on stderr"; 0 lets the call through. */
const BLOCK = 2;

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
export function stateDirFrom(flag: string | undefined, policy: Policy | undefined, io: CliIO): string {
  if (flag !== undefined) return resolve(io.cwd, flag);
  if (policy?.guard.stateDir !== undefined) return policy.guard.stateDir;
  const base = io.env.XDG_STATE_HOME || (io.env.HOME ? join(io.env.HOME, ".local", "state") : undefined);
  if (!base) throw new UsageError("cannot place the guard's state directory: pass --state-dir DIR (no HOME or XDG_STATE_HOME)");
  return join(base, "plangate");
}

async function policyFor(flag: string | false | undefined, io: CliIO): Promise<Policy> {
  try {
    return (await loadPolicy({ file: flag, cwd: io.cwd })).policy;
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * ExitPlanMode (Claude Code's plan mode): before the person sees the plan (PreToolUse, and a
 * PermissionRequest hook if one is set), an invalid or unenforceable plan is denied with the re-plan
 * feedback, so the model revises it; a valid one gets no answer, so the person decides. After the person
 * accepted it (PostToolUse), the plan is signed with the local approver key and its run started for the
 * session (approval.onPlanAccepted: sign-and-start), or recorded as pending for `plangate approve`.
 */
async function planMode(input: HookInput, dir: string | Store, flags: HookFlags, claude: boolean, io: CliIO): Promise<number> {
  let loaded: Awaited<ReturnType<typeof loadPolicy>>;
  try {
    loaded = await loadPolicy({ file: flags.policy, cwd: io.cwd });
  } catch (err) {
    if (err instanceof PolicyError) throw new UsageError(err.message);
    throw err;
  }
  const { policy, tools } = loaded;
  // Loaded here, not at start-up: the hook's other calls never need the validator.
  const [{ createPublicKey }, { acceptPlan, permissionRequestOutput, planModeCheck, postToolUseOutput, preToolUseOutput }, { keyId, loadPrivateKey }, { HostProfileError, loadProfile }, { resolvedPolicyHash }] = await Promise.all([
    import("node:crypto"),
    import("../../host/plan-mode.js"),
    import("../../approval/keys.js"),
    import("../../host/profile.js"),
    import("../../node/policy.js"),
  ]);
  let host: HostProfile;
  try {
    host = loadProfile(flags.host ?? policy.host ?? "generic", io.cwd);
  } catch (err) {
    if (err instanceof HostProfileError) throw new UsageError(`${flags.host !== undefined ? "--host" : "the policy's host"}: ${err.message}`);
    throw err;
  }
  const policyHash = resolvedPolicyHash(policy, host);
  const markdown = input.args?.plan;
  const base = { policy, workspace: policy.workspace, now: io.now, host, ...(tools ? { tools } : {}) };
  if (input.event !== "PostToolUse") {
    const check = await planModeCheck(markdown, base);
    if (!claude) {
      if (!check) return EXIT.ok;
      io.stderr(`plangate guard: blocked: ${check.deny}\n`);
      return BLOCK;
    }
    const out = input.event === "PreToolUse" ? preToolUseOutput(check) : permissionRequestOutput(check);
    if (out) io.stdout(JSON.stringify(out) + "\n");
    return EXIT.ok;
  }
  const result = await acceptPlan(markdown, {
    ...base,
    // Plan files stay on this machine (the hook reads them); a database store keeps the runs.
    stateDir: typeof dir === "string" ? dir : stateDirFrom(undefined, policy, io),
    policyHash,
    session: input.session,
    ...(input.cwd ? { cwd: input.cwd } : {}),
    startRun: async (planFile, approval, session) => {
      // The run trusts the local approver's own key, and the policy's trusted keys.
      const own = loadPrivateKey(policy.approval.key!);
      const trusted: TrustedKey[] = [{ keyid: keyId(own), alg: "ed25519", key: createPublicKey(own), file: policy.approval.key! }];
      if (policy.approval.trustedKeys) trusted.push(...trustedKeysFrom(undefined, policy, io));
      try {
        await startRun(dir, { plan: planFile, approval, workspace: policy.workspace, policyHash, policy, tools, host, trustedKeys: trusted, now: io.now, ...(session ? { session } : {}) });
      } catch (err) {
        if (err instanceof GuardRefusal) return err.diagnostics;
        throw err;
      }
    },
  });
  if (claude) io.stdout(JSON.stringify(postToolUseOutput(result)) + "\n");
  else io.stderr(result.message + "\n");
  return claude || result.status !== "refused" ? EXIT.ok : BLOCK;
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

function stepOf(run: RunState): { done: number; total: number } {
  const c = run.progress.cursor;
  return { done: c.count > 0 ? c.index + 1 : c.index, total: run.expected.length };
}

function runSummary(run: RunState): Record<string, unknown> {
  const { done, total } = stepOf(run);
  return { run: run.run_id, session: run.session_id, status: run.status, plan: run.plan, step: done, steps: total, expires_at: run.expires_at ?? null, created_at: run.created_at, ...(run.stop_reason ? { stop_reason: run.stop_reason } : {}) };
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
        const claude = flags.output === "claude";
        // Every path out of here but an explicit allow (or ask) is a block: a crash must never read as "allow".
        let spoken = false;
        const answer = (a: Answer): number => {
          // One answer only: a decision that lands after the timeout's deny is not printed.
          if (spoken) return BLOCK;
          spoken = true;
          if (claude) {
            io.stdout(claudeAnswer(a));
            return EXIT.ok;
          }
          if (a.decision === "allow") return EXIT.ok;
          const why = a.decision === "ask" ? `${a.reason} (the exit-code answer cannot ask the person; use --output claude)` : a.reason;
          io.stderr(`plangate guard: blocked: ${why} [${a.rule ?? "guard-failure"}]\n`);
          return BLOCK;
        };
        let timer: NodeJS.Timeout | undefined;
        try {
          const ms = Number(flags.timeout);
          if (!Number.isInteger(ms) || ms <= 0) throw new GuardStateError(`--timeout must be a positive whole number of milliseconds, not "${flags.timeout}"`);
          const expired = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new GuardStateError(`no decision within ${ms} ms`)), ms);
          });
          const decide = async (): Promise<number> => {
            const legacy = statePath(flags.state, io);
            if (legacy !== undefined && !storeNamed(flags)) {
              // The single-file state of plangate 0.1 (deprecated): one run, no sessions.
              const max = maxInputBytesOf(readState(legacy));
              const input = parseHookInput(await io.readStdin(max), max);
              if (input.event !== "PreToolUse") return other(input);
              const refusal = await hookCall(legacy, { tool: input.tool!, args: input.args! }, io.now());
              return answer(refusal === undefined ? { decision: "allow", reason: "the next approved step" } : { decision: "deny", reason: `${refusal.message}${refusal.hint ? ` (${refusal.hint})` : ""}`, rule: refusal.rule });
            }
            let policy: Policy | undefined;
            const loadOnce = async () => (policy ??= await policyFor(flags.policy, io));
            const dir = await storeFrom(flags, storeNamed(flags) ? undefined : await loadOnce(), io);
            try {
              const max = policy?.guard.maxInputBytes ?? DEFAULT_MAX_INPUT_BYTES;
              const bytes = await io.readStdin(max);
              const input = parseHookInput(bytes, max);
              if (input.tool === "ExitPlanMode" && (input.event === "PreToolUse" || input.event === "PermissionRequest" || input.event === "PostToolUse")) {
                spoken = true;
                return planMode(input, dir, flags, claude, io);
              }
              if (input.event === "SubagentStart" || input.event === "SubagentStop") {
                const r = await subagentEvent(dir, { event: input.event as "SubagentStart" | "SubagentStop", session: input.session, agentId: input.agentId, agentType: input.agentType }, io.now());
                // Neither event is refused (a start cannot be, a blocked stop keeps the subagent running): the run denies its calls instead.
                if (r.diagnostic) io.stderr(`plangate guard: ${input.event}: ${r.diagnostic.message} [${r.diagnostic.rule}]\n`);
                spoken = true;
                return EXIT.ok;
              }
              if (input.event !== "PreToolUse") return other(input);
              const call = { session: input.session, cwd: input.cwd, tool: input.tool!, args: input.args!, bytes: bytes.byteLength, ...(input.agentId === undefined ? {} : { agentId: input.agentId }) };
              const a = await decideHook(dir, call, { now: io.now(), mode: claude ? "claude" : "exit", noRunPolicy: loadOnce });
              return answer(a);
            } finally {
              await closeStore(dir);
            }
          };
          const other = (input: HookInput): number => {
            const o = otherEvent(input);
            if (o.decision === "ignore") {
              io.stderr(o.reason + "\n");
              return EXIT.ok;
            }
            if (claude && input.event === "PermissionRequest") {
              io.stdout(claudePermissionDeny(o.reason));
              return EXIT.ok;
            }
            if (claude && input.event !== "PreToolUse") {
              // The generic form every event reads: a block with the reason.
              io.stdout(JSON.stringify({ decision: "block", reason: `plangate: ${o.reason} [guard-failure]` }) + "\n");
              spoken = true;
              return EXIT.ok;
            }
            return answer({ decision: "deny", reason: o.reason, rule: "guard-failure" });
          };
          return await Promise.race([decide(), expired]);
        } catch (err) {
          const rule = err instanceof HookInputError ? err.rule : "guard-failure";
          return answer({ decision: "deny", reason: (err as Error)?.message ?? String(err), rule });
        } finally {
          clearTimeout(timer);
        }
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
        const setup = setupForFile(await resolveSetup(flags, io), resolve(io.cwd, file), io);
        const dir = state === undefined ? await storeFrom(flags, setup.policy, io) : undefined;
        if (typeof dir === "string") {
          const problem = stateDirProblem(dir, setup.policy.workspace);
          if (problem) throw new UsageError(problem);
        }
        let approval: Uint8Array;
        try {
          approval = readFileSync(resolve(io.cwd, flags.approval));
        } catch (err) {
          throw new UsageError(`cannot read the approval ${flags.approval} (${(err as NodeJS.ErrnoException).code})`);
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
          allowUnsigned: flags.allowUnsigned === true,
          now: io.now,
        };
        try {
          if (state !== undefined) {
            const st = await startGuard(state, { ...common, consumedDir: consumedDirFrom(flags.consumedDir, io), audit: resolve(io.cwd, flags.audit!) });
            // The audit key stays in the state file (0600): printed, it could reach whoever writes the log.
            if (flags.output === "json") printApprovalResults(io, [{ file, valid: true, extra: { state: { ...st, audit_key: undefined } }, diagnostics: [] }], "json");
            else io.stdout(`${file}: guard started: ${st.steps} approved steps, state ${state}\n`);
            return EXIT.ok;
          }
          const opts: Parameters<typeof startRun>[1] = { ...common };
          if (flags.session !== undefined) opts.session = flags.session;
          if (flags.consumedDir !== undefined) opts.consumedDir = resolve(io.cwd, flags.consumedDir);
          // The per-user store too (when it is another folder): no state directory can replay an approval.
          const userStore = io.env.PLANGATE_CONSUMED_DIR || io.env.XDG_STATE_HOME || io.env.HOME ? consumedDirFrom(undefined, io) : undefined;
          if (userStore !== undefined && userStore !== (opts.consumedDir ?? (typeof dir === "string" ? join(dir, "consumed") : undefined))) opts.alsoConsumedIn = userStore;
          const run = await startRun(dir!, opts);
          if (flags.output === "json") printApprovalResults(io, [{ file, valid: true, extra: { ...(typeof dir === "string" ? { stateDir: dir } : { store: storeName(dir!) }), ...runSummary(run) }, diagnostics: [] }], "json");
          else io.stdout(`${file}: run ${run.run_id} started: ${run.expected.length} approved steps, ${run.session_id === null ? "pending (the first call of a session in its scope claims it)" : `bound to session ${JSON.stringify(run.session_id)}`}, ${typeof dir === "string" ? "state directory" : "store"} ${storeName(dir!)}\n`);
          return EXIT.ok;
        } catch (err) {
          if (err instanceof GuardStateError) throw new UsageError(err.message);
          if (!(err instanceof GuardRefusal)) throw err;
          printApprovalResult(io, file, err.diagnostics, flags.output);
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
    return storeFrom(flags, storeNamed(flags) ? undefined : await policyFor(flags.policy, io), io);
  }
  for (const cmd of guard.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
