import { resolve } from "node:path";
import type { Command } from "commander";
import { KeyError, realPathOf } from "../../node/keys.js";
import { approvalLifetime, unconstrainedToolsDiagnostic } from "../../approval/record.js";
import { approve, keyInWorkspace, loadSigner, type Signer } from "../../node/sign.js";
import type { PlanReport } from "../../core/plan-report.js";
import { validatePlan } from "../../node/validate-plan.js";
import { createFileProbe } from "../../node/file-probe.js";
import { compileCalls, profileHash } from "../../host/profile.js";
import { formatJson } from "../../formatters/json.js";
import { formatText } from "../../formatters/text.js";
import { writeFileAtomic } from "../../node/atomic-write.js";
import { validateFile } from "../../node/validate-file.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup, type Setup, setupForFile } from "../setup.js";
import type { Diagnostic } from "../../core/diagnostic.js";
import type { ApprovalRecord } from "../../approval/record.js";
import { keyPlacesOf, printApprovalResult } from "./approval-common.js";

interface ApproveFlags extends PlanFlags {
  key?: string;
  ttl?: string;
  reusable?: boolean;
  expectedHash?: string;
  out?: string;
  output: string;
}

/** `plangate approve <file>`. */
export function registerApprove(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("approve")
    .description("validate a plan and, if it is valid, print its approval record (signed with --key, as a DSSE envelope)")
    .argument("<file>", "plan file, or - for standard input")
    .option("--key <file>", "Ed25519 private key (PEM, from plangate keygen) to sign the record with; must be outside the workspace")
    .option("--ttl <duration>", "lifetime of the approval: 90s, 30m, 1h, 2d, or never (default: the policy's approval.ttl; none: no expiry for a single-use approval, required with --reusable)")
    .option("--reusable", "let the approval run more than once (default: single-use)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry: one tool a line, or an MCP tools/list result")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .option("--expected-hash <hash>", "approve only a plan with this plan hash or raw-file SHA-256")
    .option("--out <file>", "write the approval to this file (atomically) instead of standard output")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, flags: ApproveFlags) => {
        const setup = file === "-" ? await resolveSetup(flags, io) : setupForFile(await resolveSetup(flags, io), resolve(io.cwd, file), io);
        const singleUse = !flags.reusable && setup.policy.approval.singleUse;
        const lifetime = approvalLifetime(flags.ttl ?? setup.policy.approval.ttl, singleUse, "--ttl");
        if ("error" in lifetime) throw new UsageError(lifetime.error);
        const workspace = setup.policy.workspace;
        if (setup.tools === undefined) {
          await printApprovalResult(io, file, [unconstrainedToolsDiagnostic()], flags.output === "json" ? "json" : "text");
          return EXIT.rejected;
        }
        let signer: Signer | undefined;
        if (flags.key !== undefined) {
          const keyFile = resolve(io.cwd, flags.key);
          try {
            signer = loadSigner(keyFile);
          } catch (err) {
            if (err instanceof KeyError) throw new UsageError(err.message);
            throw err;
          }
          // The policy's folder, the working folder and the plan's are the project's too: the workspace is the policy's to say.
          const d = keyInWorkspace(keyFile, [workspace], keyPlacesOf(setup.policy, io, file));
          if (d) {
            await printApprovalResult(io, file, [d], flags.output === "json" ? "json" : "text");
            return EXIT.rejected;
          }
        }
        const options = { policy: setup.policy, tools: setup.tools, expectedHash: flags.expectedHash, now: io.now, host: setup.host };
        const report: PlanReport =
          file === "-" ? await validatePlan(await io.readStdin(setup.policy.limits.maxFileBytes), { ...options, file: "-" }) : await validateFile(resolve(io.cwd, file), { ...options, file });
        const crash = report.internalErrors?.[0];
        if (crash) throw new Error(`the ${crash.rule} check failed on ${file} (${crash.message})`);
        if (!report.valid || report.planHash === undefined) {
          if (flags.output === "json") io.stdout(formatJson([report], { policy: setup.policy.source ?? null }));
          else io.stderr(formatText([report], { color: false }));
          return EXIT.rejected;
        }
        const approved = approveReport(report, setup, { now: io.now(), ...lifetime, singleUse, signer });
        if ("diagnostics" in approved) {
          await printApprovalResult(io, file, approved.diagnostics, flags.output === "json" ? "json" : "text");
          return EXIT.rejected;
        }
        const { record, text } = approved;
        if (flags.out !== undefined) {
          writeFileAtomic(resolve(io.cwd, flags.out), text);
          io.stderr(`approved ${file} (${record.plan_hash}${signer ? `, signed by ${signer.keyid.slice(0, 16)}…` : ", unsigned"}); wrote ${flags.out}\n`);
        } else io.stdout(text);
        return EXIT.ok;
      }),
    );
}

/**
 * The approval record of a valid plan's report (signed when a signer is given): every step must become
 * a host call the guard can match, whatever the policy says of unknown-tool. Shared by `plangate approve`
 * and POST /v1/approve.
 */
export function approveReport(
  report: PlanReport,
  setup: Pick<Setup, "policy" | "tools" | "policyHash" | "host">,
  o: { now: Date; ttlMs?: number; neverExpires?: true; singleUse: boolean; signer: Signer | undefined },
): { diagnostics: Diagnostic[] } | { record: ApprovalRecord; text: string } {
  const workspace = setup.policy.workspace;
  const mapped = report.plan ? compileCalls(setup.host, report.plan, realPathOf(workspace), createFileProbe(), { constraints: setup.policy.plan.constraints === "allow" }) : { calls: [] };
  if ("diagnostics" in mapped) return { diagnostics: mapped.diagnostics };
  return approve({
    planHash: report.planHash!,
    workspace,
    policyHash: setup.policyHash,
    tools: setup.tools!,
    steps: report.steps,
    now: o.now,
    ...(o.ttlMs !== undefined ? { ttlMs: o.ttlMs } : {}),
    ...(o.neverExpires ? { neverExpires: true } : {}),
    singleUse: o.singleUse,
    signer: o.signer,
    host: { name: setup.host.name, hash: profileHash(setup.host) },
  });
}
