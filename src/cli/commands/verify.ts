import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { approvalDiagnostic, consumedDiagnostic, toolsHash } from "../../approval/record.js";
import { GuardStateError } from "../../store/errors.js";
import { FileStore } from "../../store/file.js";
import { closeStore, storeFrom, storeNamed } from "../store-flag.js";
import { isConsumed } from "../../approval/state.js";
import { verifyApproval } from "../../approval/verify.js";
import { profileHash } from "../../host/profile.js";
import { planHash } from "../../ops/hash.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup } from "../setup.js";
import { printApprovalResult, trustedKeysFrom } from "./approval-common.js";

interface VerifyFlags extends PlanFlags {
  approval: string;
  trustedKeys?: string;
  allowUnsigned?: boolean;
  consumedDir?: string;
  store?: string;
  stateDir?: string;
  output: string;
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
    .option("--store <url>", "also refuse a single-use approval consumed in this shared store: file:DIR (its consumed/) or postgres://…")
    .option("--state-dir <dir>", "the same as --store file:DIR")
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
        if (consumed !== undefined && storeNamed(flags)) throw new UsageError("give --consumed-dir or --store, not both");
        const shared = storeNamed(flags) ? await storeFrom(flags, undefined, io) : undefined;
        const store = typeof shared === "string" ? new FileStore(shared) : shared;
        const result = verifyApproval(approval, {
          planHash: hash,
          workspace: setup.policy.workspace,
          policyHash: setup.policyHash,
          toolsHash: toolsHash(setup.tools),
          trustedKeys,
          allowUnsigned: flags.allowUnsigned === true,
          now: io.now(),
          host: { name: setup.host.name, hash: profileHash(setup.host) },
          isConsumed: consumed === undefined ? undefined : (nonce) => isConsumed(consumed, nonce),
        });
        if (store !== undefined && result.record?.single_use === true) {
          try {
            if (await store.isConsumed(result.record.nonce)) {
              result.diagnostics.push(consumedDiagnostic(result.record.nonce));
              result.ok = false;
            }
          } catch (err) {
            if (err instanceof GuardStateError) throw new UsageError(err.message);
            throw err;
          } finally {
            await closeStore(shared);
          }
        } else await closeStore(shared);
        const r = result.record;
        printApprovalResult(io, file, result.diagnostics, flags.output, { record: r ?? null, keyid: result.key?.keyid ?? null });
        if (result.ok && r && flags.output !== "json")
          io.stdout(`${file}: approval verified: plan ${r.plan_hash}, ${result.key ? `signed by ${result.key.keyid.slice(0, 16)}…` : "unsigned (allowed)"}, ${r.expires_at ? `expires ${r.expires_at}` : "no expiry"}\n`);
        return result.ok ? EXIT.ok : EXIT.rejected;
      }),
    );
}
