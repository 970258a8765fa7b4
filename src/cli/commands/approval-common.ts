import { join, resolve } from "node:path";
import type { Diagnostic } from "../../core/diagnostic.js";
import { type ResultEntry, resultsJson } from "../../formatters/json.js";
import { KeyError, type KeyPlaces, keyPlacesFor, loadTrustedKeys, type TrustedKey } from "../../node/keys.js";
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
    for (const d of e.diagnostics) {
      // A place in another file than the result's (the policy setting that named a refused key).
      const at = d.file !== undefined && d.file !== e.file && d.line !== undefined ? `\n  = at: ${d.file}:${d.line}${d.column !== undefined ? `:${d.column}` : ""}` : "";
      io.stdout(`${e.file}: ${d.severity}: ${d.message} [${d.rule}]${at}${d.hint ? `\n  = hint: ${d.hint}` : ""}\n`);
    }
}

/** One file's approval diagnostics, as printApprovalResults prints them; valid when none is an error. */
export async function printApprovalResult(io: CliIO, file: string, diagnostics: readonly Diagnostic[], output: string, extra: Record<string, unknown> = {}): Promise<void> {
  await printApprovalResults(io, [{ file, valid: !diagnostics.some((d) => d.severity === "error"), extra, diagnostics }], output);
}

/** The trusted keys from --trusted-keys or the policy's approval.trustedKeys (each then knows where the policy named it); none when neither is set. */
export function trustedKeysFrom(flag: string | undefined, policy: Policy, io: Pick<CliIO, "cwd">): TrustedKey[] {
  const path = flag !== undefined ? resolve(io.cwd, flag) : policy.approval.trustedKeys;
  if (path === undefined) return [];
  let keys: TrustedKey[];
  try {
    keys = loadTrustedKeys(path);
  } catch (err) {
    if (err instanceof KeyError) throw new UsageError(err.message);
    throw err;
  }
  const at = flag === undefined ? policy.settingsAt?.trustedKeys : undefined;
  if (at !== undefined) for (const k of keys) k.namedAt = at;
  return keys;
}

/**
 * Where keys must not lie besides the workspace (keyPlacesFor): the folder of the policy file, the folder
 * the command runs in and the plan's folder (`plan`, as given: "-" or none for a plan read otherwise),
 * each with the repository holding it; and the per-user key folders the environment names.
 */
export function keyPlacesOf(policy: Policy, io: Pick<CliIO, "cwd" | "env">, plan?: string): KeyPlaces {
  return keyPlacesFor({ policy: policy.source, cwd: io.cwd, plan: plan === undefined || plan === "-" ? undefined : resolve(io.cwd, plan), env: io.env });
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
