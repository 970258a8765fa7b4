import { join, resolve } from "node:path";
import type { Diagnostic } from "../../core/diagnostic.js";
import { type ResultEntry, resultsJson } from "../../formatters/json.js";
import { KeyError, loadTrustedKeys, type TrustedKey } from "../../node/keys.js";
import type { Policy } from "../../core/policy.js";
import { type CliIO, UsageError } from "../io.js";

/**
 * Prints approval results: text lines (`file: error: message [rule]`), the report envelope (json) or SARIF
 * (its formatter, with every rule's documentation, is loaded only for SARIF: a guard hook call prints none).
 */
export async function printApprovalResults(io: CliIO, entries: readonly ResultEntry[], output: string, top: Record<string, unknown> = {}): Promise<void> {
  if (output === "json") {
    io.stdout(JSON.stringify(resultsJson(entries, top), null, 2) + "\n");
    return;
  }
  if (output === "sarif") {
    const { formatSarif } = await import("../../formatters/sarif.js");
    io.stdout(formatSarif(entries, { cwd: io.cwd }));
    return;
  }
  for (const e of entries)
    for (const d of e.diagnostics) io.stdout(`${e.file}: ${d.severity}: ${d.message} [${d.rule}]${d.hint ? `\n  = hint: ${d.hint}` : ""}\n`);
}

/** One file's approval diagnostics, as printApprovalResults prints them; valid when none is an error. */
export async function printApprovalResult(io: CliIO, file: string, diagnostics: readonly Diagnostic[], output: string, extra: Record<string, unknown> = {}): Promise<void> {
  await printApprovalResults(io, [{ file, valid: !diagnostics.some((d) => d.severity === "error"), extra, diagnostics }], output);
}

/** The trusted keys from --trusted-keys or the policy's approval.trustedKeys; none when neither is set. */
export function trustedKeysFrom(flag: string | undefined, policy: Policy, io: Pick<CliIO, "cwd">): TrustedKey[] {
  const path = flag !== undefined ? resolve(io.cwd, flag) : policy.approval.trustedKeys;
  if (path === undefined) return [];
  try {
    return loadTrustedKeys(path);
  } catch (err) {
    if (err instanceof KeyError) throw new UsageError(err.message);
    throw err;
  }
}

/**
 * Where consumed approvals are recorded: --consumed-dir, else $PLANGATE_CONSUMED_DIR, else
 * $XDG_STATE_HOME/plangate/consumed (~/.local/state/…). One store per user, so another state file
 * cannot replay an approval.
 */
export function consumedDirFrom(flag: string | undefined, io: CliIO): string {
  if (flag !== undefined) return resolve(io.cwd, flag);
  if (io.env.PLANGATE_CONSUMED_DIR) return resolve(io.cwd, io.env.PLANGATE_CONSUMED_DIR);
  const base = io.env.XDG_STATE_HOME || (io.env.HOME ? join(io.env.HOME, ".local", "state") : undefined);
  if (!base) throw new UsageError("cannot place the consumed-approval store: pass --consumed-dir DIR (no HOME or XDG_STATE_HOME)");
  return join(base, "plangate", "consumed");
}
