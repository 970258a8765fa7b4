import { resolve } from "node:path";
import type { Command } from "commander";
import { judgeApproval } from "../../approval/judge.js";
import { consumedDiagnostic, toolsHash } from "../../approval/record.js";
import { GuardStateError } from "../../store/errors.js";
import { FileStore } from "../../store/file.js";
import { closeStore, storeFrom, storeNamed } from "../store-flag.js";
import { isConsumed } from "../../node/guard-state.js";
import type { KeyPlaces, TrustedKey } from "../../node/keys.js";
import { type VerifyResult, verifyApproval } from "../../node/verify.js";
import type { Diagnostic } from "../../core/diagnostic.js";
import type { ResultEntry } from "../../formatters/json.js";
import { profileHash } from "../../host/profile.js";
import { inputTooLarge, planFileFailed, planFileNotFound, readFileBounded, readSmallFile } from "../../node/read-bounded.js";
import { planHash } from "../../ops/hash.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { type PlanFlags, resolveSetup, type Setup, setupForFile } from "../setup.js";
import { keyPlacesOf, printApprovalResults, trustedKeysFrom } from "./approval-common.js";

interface VerifyFlags extends PlanFlags {
  approval: string[];
  trustedKeys?: string;
  allowUnsigned?: boolean;
  consumedDir?: string;
  store?: string;
  stateDir?: string;
  output: string;
}

/** Checks an approval against a plan's hash under the policy, tools and host in force. */
export function checkApproval(
  approval: Uint8Array,
  planHash: string | undefined,
  o: { setup: Setup; trustedKeys: TrustedKey[]; keyPlaces?: KeyPlaces; allowUnsigned: boolean; now: Date; consumed?: string | undefined },
): VerifyResult {
  const consumed = o.consumed;
  return verifyApproval(approval, {
    planHash,
    workspace: o.setup.policy.workspace,
    policyHash: o.setup.policyHash,
    toolsHash: toolsHash(o.setup.tools),
    trustedKeys: o.trustedKeys,
    ...(o.keyPlaces ? { keyPlaces: o.keyPlaces } : {}),
    allowUnsigned: o.allowUnsigned,
    now: o.now,
    host: { name: o.setup.host.name, hash: profileHash(o.setup.host) },
    isConsumed: consumed === undefined ? undefined : (nonce) => isConsumed(consumed, nonce),
    ...(o.setup.policy.approval.acceptMissingExpiry === true ? { acceptMissingExpiry: true } : {}),
  });
}

/** What `verify -o json` adds to the diagnostics: the record and the key that signed it. */
export function verifyExtra(result: VerifyResult): Record<string, unknown> {
  return { record: result.record ?? null, keyid: result.key?.keyid ?? null };
}

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * Pairs each plan with its approval: `--approval` once per plan, in the order of the plans. Any other
 * count is ambiguous (which approval goes with which plan?) and a usage error.
 */
export function pairApprovals(files: readonly string[], approvals: readonly string[]): [string, string][] {
  if (approvals.length === 0) throw new UsageError("required option '--approval <file>' not specified");
  if (approvals.length !== files.length)
    throw new UsageError(
      `${files.length} plan${files.length === 1 ? "" : "s"} and ${approvals.length} --approval: give one --approval per plan, in the order of the plans (verify a.json b.json --approval a.approval.json --approval b.approval.json)`,
    );
  return files.map((f, i) => [f, approvals[i]!]);
}

/** `plangate verify <file...> --approval A [--approval B …]`. */
export function registerVerify(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("verify")
    .description("check that plans are the approved ones: hash, signature by a trusted key, expiry, workspace, policy")
    .argument("<file...>", "plan files; each needs its own --approval, in the same order")
    .option("--approval <file>", "the approval (DSSE envelope from plangate approve --key); once per plan, paired with the plans in order", collect, [])
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
    .addOption(outputOption(["text", "json", "sarif"]))
    .action(
      wrap(async (files: string[], flags: VerifyFlags) => {
        const pairs = pairApprovals(files, flags.approval);
        const setup = await resolveSetup(flags, io);
        const trustedKeys = trustedKeysFrom(flags.trustedKeys, setup.policy, io);
        const consumed = flags.consumedDir === undefined ? undefined : resolve(io.cwd, flags.consumedDir);
        if (consumed !== undefined && storeNamed(flags)) throw new UsageError("give --consumed-dir or --store, not both");
        const shared = storeNamed(flags) ? await storeFrom(flags, undefined, io) : undefined;
        const store = typeof shared === "string" ? new FileStore(shared) : shared;
        try {
          const entries: ResultEntry[] = [];
          const lines: string[] = [];
          for (const [file, approvalFile] of pairs) {
            const extra: Record<string, unknown> = { approval: approvalFile };
            const fail = (d: Diagnostic) => entries.push({ file, valid: false, extra: { ...extra, record: null, keyid: null }, diagnostics: [d] });
            let approval: Uint8Array;
            try {
              // A regular file of bounded size: a device or a pipe would be read forever.
              approval = readSmallFile(resolve(io.cwd, approvalFile));
            } catch (err) {
              fail(judgeApproval({ step: "envelope", unreadable: { kind: "file", file: approvalFile, code: (err as NodeJS.ErrnoException).code ?? (err as Error).message }, allowUnsigned: false })[0]!);
              continue;
            }
            let hash: string | undefined;
            // The plan as validate reads it: a regular file within the size limit, never a device or a pipe.
            const own = setupForFile(setup, resolve(io.cwd, file), io);
            const maxBytes = own.policy.limits.maxFileBytes;
            const read = readFileBounded(resolve(io.cwd, file), maxBytes);
            if (!read.ok) {
              fail(read.reason === "too-large" ? inputTooLarge({ max: maxBytes, size: read.size, file }) : planFileNotFound(file, read, { file }));
              continue;
            }
            try {
              hash = await planHash(read.bytes, { file });
            } catch (err) {
              const code = (err as NodeJS.ErrnoException).code;
              fail(planFileFailed(file, code ?? (err as Error).message));
              continue;
            }
            const keyPlaces = keyPlacesOf(own.policy, io, file);
            const result = checkApproval(approval, hash, { setup: own, trustedKeys, keyPlaces, allowUnsigned: flags.allowUnsigned === true, now: io.now(), consumed });
            if (store !== undefined && result.record?.single_use === true) {
              try {
                if (await store.isConsumed(result.record.nonce)) {
                  result.diagnostics.push(consumedDiagnostic(result.record.nonce));
                  result.ok = false;
                }
              } catch (err) {
                if (err instanceof GuardStateError) throw new UsageError(err.message);
                throw err;
              }
            }
            const r = result.record;
            entries.push({ file, valid: result.ok, extra: { ...extra, planHash: hash, ...verifyExtra(result) }, diagnostics: result.diagnostics });
            if (result.ok && r)
              lines.push(`${file}: approval verified: plan ${r.plan_hash}, ${result.key ? `signed by ${result.key.keyid.slice(0, 16)}…` : "unsigned (allowed)"}, ${r.expires_at ? `expires ${r.expires_at}` : "no expiry"}\n`);
          }
          await printApprovalResults(io, entries, flags.output, { policy: setup.policy.source ?? null });
          if (flags.output === "text") for (const l of lines) io.stdout(l);
          return entries.every((e) => e.valid) ? EXIT.ok : EXIT.rejected;
        } finally {
          await closeStore(shared);
        }
      }),
    );
}
