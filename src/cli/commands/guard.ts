import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { GuardRefusal } from "../../approval/guard.js";
import { HookInputError, hookCall, maxInputBytesOf, parseHookInput, startGuard } from "../../approval/hook.js";
import { GuardStateError, readState } from "../../approval/state.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup } from "../setup.js";
import { consumedDirFrom, printApprovalResult, trustedKeysFrom } from "./approval-common.js";

/** Claude Code reads exit 2 of a PreToolUse hook as "block, reason on stderr"; 0 lets the call through. */
const BLOCK = 2;

interface StartFlags extends PlanFlags {
  approval: string;
  audit: string;
  trustedKeys?: string;
  consumedDir?: string;
  allowUnsigned?: boolean;
  output: string;
}

function statePath(flag: string | undefined, io: CliIO): string | undefined {
  const p = flag ?? io.env.PLANGATE_GUARD_STATE;
  return p ? resolve(io.cwd, p) : undefined;
}

/** `plangate guard` (a PreToolUse hook) and `plangate guard start`. */
export function registerGuard(program: Command, io: CliIO, wrap: Wrap): void {
  const guard = program
    .command("guard")
    .description("PreToolUse hook: allow a tool call (exit 0) only if it is the next approved step; otherwise block (exit 2, reason on stderr)")
    .option("--state <file>", "guard state written by `plangate guard start` (default: $PLANGATE_GUARD_STATE)")
    .option("--timeout <ms>", "block if no decision is reached in this many milliseconds", "5000")
    .action(
      wrap(async (flags: { state?: string; timeout: string }) => {
        // Every path out of here but the one explicit allow is a block: a crash must never read as "allow".
        let timer: NodeJS.Timeout | undefined;
        try {
          const ms = Number(flags.timeout);
          if (!Number.isInteger(ms) || ms <= 0) throw new GuardStateError(`--timeout must be a positive whole number of milliseconds, not "${flags.timeout}"`);
          const expired = new Promise<never>((_, reject) => {
            timer = setTimeout(() => reject(new GuardStateError(`no decision within ${ms} ms`)), ms);
          });
          const decide = async () => {
            const state = statePath(flags.state, io);
            if (!state) throw new GuardStateError("no guard state: pass --state FILE or set PLANGATE_GUARD_STATE");
            // The state says how much input to read: standard input is never buffered past that bound.
            const max = maxInputBytesOf(readState(state));
            const call = parseHookInput(await io.readStdin(max), max);
            return hookCall(state, call, io.now());
          };
          const refusal = await Promise.race([decide(), expired]);
          if (refusal === undefined) return EXIT.ok;
          io.stderr(`plangate guard: blocked: ${refusal.message}${refusal.hint ? ` (${refusal.hint})` : ""} [${refusal.rule}]\n`);
          return BLOCK;
        } catch (err) {
          const rule = err instanceof HookInputError ? err.rule : "guard-failure";
          io.stderr(`plangate guard: blocked: ${(err as Error)?.message ?? String(err)} [${rule}]\n`);
          return BLOCK;
        } finally {
          clearTimeout(timer);
        }
      }),
    );

  guard
    .command("start")
    .description("verify a plan and its approval, consume the approval, and write the state the hook reads")
    .argument("<file>", "the approved plan")
    .requiredOption("--approval <file>", "the approval (DSSE envelope from plangate approve --key)")
    .requiredOption("--audit <file>", "JSON Lines audit trail to append to (outside the workspace)")
    .option("--trusted-keys <path>", "public key file, or folder of *.pub / *.pem files (default: the policy's approval.trustedKeys)")
    .option("--consumed-dir <dir>", "store of consumed approvals (default: $PLANGATE_CONSUMED_DIR, else ~/.local/state/plangate/consumed)")
    .option("--allow-unsigned", "accept an unsigned approval record (only from a channel you trust)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry the plan was approved with")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, _flags: StartFlags, cmd: Command) => {
        const flags = cmd.optsWithGlobals() as StartFlags & { state?: string };
        const state = statePath(flags.state, io);
        if (!state) throw new UsageError("pass --state FILE (or set PLANGATE_GUARD_STATE) for the guard state to write");
        const setup = await resolveSetup(flags, io);
        let approval: Uint8Array;
        try {
          approval = readFileSync(resolve(io.cwd, flags.approval));
        } catch (err) {
          throw new UsageError(`cannot read the approval ${flags.approval} (${(err as NodeJS.ErrnoException).code})`);
        }
        try {
          const st = await startGuard(state, {
            plan: resolve(io.cwd, file),
            approval,
            workspace: setup.policy.workspace,
            policyHash: setup.policyHash,
            policy: setup.policy,
            tools: setup.tools,
            host: setup.host,
            trustedKeys: trustedKeysFrom(flags.trustedKeys, setup.policy, io),
            consumedDir: consumedDirFrom(flags.consumedDir, io),
            audit: resolve(io.cwd, flags.audit),
            allowUnsigned: flags.allowUnsigned === true,
            now: io.now,
          });
          // The audit key stays in the state file (0600): printed, it could reach whoever writes the log.
          if (flags.output === "json") io.stdout(JSON.stringify({ file, ok: true, state: { ...st, audit_key: undefined } }, null, 2) + "\n");
          else io.stdout(`${file}: guard started: ${st.steps} approved steps, state ${state}\n`);
          return EXIT.ok;
        } catch (err) {
          if (!(err instanceof GuardRefusal)) throw err;
          printApprovalResult(io, file, err.diagnostics, flags.output);
          return EXIT.rejected;
        }
      }),
    );
  for (const cmd of guard.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
