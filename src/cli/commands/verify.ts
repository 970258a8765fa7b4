import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { approvalDiagnostic, toolsHash } from "../../approval/record.js";
import { isConsumed } from "../../approval/state.js";
import type { TrustedKey } from "../../approval/keys.js";
import { type VerifyResult, verifyApproval } from "../../approval/verify.js";
import { profileHash } from "../../host/profile.js";
import { planHash } from "../../ops/hash.js";
import { type CliIO, EXIT } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup, type Setup } from "../setup.js";
import { printApprovalResult, trustedKeysFrom } from "./approval-common.js";

interface VerifyFlags extends PlanFlags {
  approval: string;
  trustedKeys?: string;
  allowUnsigned?: boolean;
  consumedDir?: string;
  output: string;
}

/** Checks an approval against a plan's hash under the policy, tools and host in force. */
export function checkApproval(
  approval: Uint8Array,
  planHash: string | undefined,
  o: { setup: Setup; trustedKeys: TrustedKey[]; allowUnsigned: boolean; now: Date; consumed?: string | undefined },
): VerifyResult {
  const consumed = o.consumed;
  return verifyApproval(approval, {
    planHash,
    workspace: o.setup.policy.workspace,
    policyHash: o.setup.policyHash,
    toolsHash: toolsHash(o.setup.tools),
    trustedKeys: o.trustedKeys,
    allowUnsigned: o.allowUnsigned,
    now: o.now,
    host: { name: o.setup.host.name, hash: profileHash(o.setup.host) },
    isConsumed: consumed === undefined ? undefined : (nonce) => isConsumed(consumed, nonce),
  });
}

/** What `verify -o json` adds to the diagnostics: the record and the key that signed it. */
export function verifyExtra(result: VerifyResult): Record<string, unknown> {
  return { record: result.record ?? null, keyid: result.key?.keyid ?? null };
}

/** `plangate verify <file> --approval A`. */
export function registerVerify(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("verify")
    .description("check that a plan is the approved one: hash, signature by a trusted key, expiry, workspace, policy")
    .argument("<file>", "plan file")
    .requiredOption("--approval <file>", "the approval (DSSE envelope from plangate approve --key)")
    .option("--trusted-keys <path>", "public key file, or folder of *.pub / *.pem files (default: the policy's approval.trustedKeys)")
    .option("--allow-unsigned", "accept an unsigned approval record (only from a channel you trust)")
    .option("--consumed-dir <dir>", "also refuse a single-use approval recorded as consumed in this store")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry the plan was approved with")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (file: string, flags: VerifyFlags) => {
        const setup = await resolveSetup(flags, io);
        const trustedKeys = trustedKeysFrom(flags.trustedKeys, setup.policy, io);
        let approval: Uint8Array;
        try {
          approval = readFileSync(resolve(io.cwd, flags.approval));
        } catch (err) {
          const d = approvalDiagnostic("approval-invalid", `The approval file ${flags.approval} cannot be read (${(err as NodeJS.ErrnoException).code}).`, "check the --approval path");
          printApprovalResult(io, file, [d], flags.output);
          return EXIT.rejected;
        }
        let hash: string | undefined;
        try {
          hash = await planHash(readFileSync(resolve(io.cwd, file)), { file });
        } catch (err) {
          const d = { rule: "file-not-found", severity: "error" as const, message: `Plan file not found: ${file} (${(err as NodeJS.ErrnoException).code}).`, hint: "check the path" };
          printApprovalResult(io, file, [d], flags.output);
          return EXIT.rejected;
        }
        const consumed = flags.consumedDir === undefined ? undefined : resolve(io.cwd, flags.consumedDir);
        const result = checkApproval(approval, hash, { setup, trustedKeys, allowUnsigned: flags.allowUnsigned === true, now: io.now(), consumed });
        const r = result.record;
        printApprovalResult(io, file, result.diagnostics, flags.output, verifyExtra(result));
        if (result.ok && r && flags.output !== "json")
          io.stdout(`${file}: approval verified: plan ${r.plan_hash}, ${result.key ? `signed by ${result.key.keyid.slice(0, 16)}…` : "unsigned (allowed)"}, ${r.expires_at ? `expires ${r.expires_at}` : "no expiry"}\n`);
        return result.ok ? EXIT.ok : EXIT.rejected;
      }),
    );
}
