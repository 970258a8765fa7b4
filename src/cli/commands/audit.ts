import { basename, dirname, resolve } from "node:path";
import { readRun, storeOf } from "../../store/runs.js";
import type { AuditRead } from "../../store/types.js";
import { closeStore, storeFrom } from "../store-flag.js";
import type { Command } from "commander";
import { type AuditAnchor, type AuditCheck, verifyAuditText } from "../../node/audit.js";
import { judgeApproval } from "../../approval/judge.js";
import { auditKeyOf, GuardStateError, readState } from "../../node/guard-state.js";
import type { Diagnostic } from "../../core/diagnostic.js";
import type { TrailUnreadable } from "../../core/input/approval.js";
import { readFileBounded } from "../../node/read-bounded.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { printApprovalResult } from "./approval-common.js";

/** Largest audit trail `audit verify` reads (1 GiB: millions of lines). */
const MAX_LOG_BYTES = 1 << 30;

interface AuditFlags {
  state?: string;
  store?: string;
  chainOnly?: boolean;
  output: string;
}

/** What the anchor lets the check prove, in one sentence for the text output. */
function summary(check: AuditCheck, why: string | undefined): string {
  if (check.level === "authenticated") {
    const a = check.authenticated!;
    const run = a.to < a.from ? "the run wrote no lines" : `lines ${a.from}–${a.to} carry valid MACs under the run's key`;
    const before = a.from > 1 ? `; lines 1–${a.from - 1} predate the run and are fixed by the chain into its first line` : "";
    return `chain intact; authenticated: ${run}${before}; the log ends where the guard last wrote`;
  }
  return `chain intact; not authenticated: ${why ?? "give --state to check the MACs"} (anyone who can write the log could have recomputed the chain)`;
}

/** `plangate audit verify LOG [--state S] [--chain-only]`. */
export function registerAudit(program: Command, io: CliIO, wrap: Wrap): void {
  const audit = program.command("audit").description("work with the guard's audit trail");
  audit
    .command("verify")
    .description("check an audit trail: its hash chain and, with the guard's state, each line's MAC and where the log ends")
    .argument("<log>", "JSON Lines audit trail (with --store: a run id)")
    .option("--store <url>", "read run LOG's trail and anchor from this store (file:DIR or postgres://…): authenticated like --state")
    .option("--state <file>", "guard state: check the run's MACs under its secret key, and that the log ends where the guard last wrote (catches a cut tail)")
    .option("--chain-only", "accept an intact hash chain without MACs (exit 0, reported as not authenticated)")
    .addOption(outputOption(["text", "json", "sarif"]))
    .action(
      wrap(async (log: string, flags: AuditFlags) => {
        if (flags.store !== undefined) return verifyStored(log, flags, io);
        const anchor: AuditAnchor = {};
        let why: string | undefined;
        if (flags.state !== undefined) {
          try {
            const file = resolve(io.cwd, flags.state);
            // A run's file in a state directory (DIR/runs/<id>.json) anchors its trail as a state does.
            const run = /^([0-9a-f]{32})\.json$/.exec(basename(file));
            const state = run && basename(dirname(file)) === "runs" ? readRun(dirname(dirname(file)), run[1]!) : readState(file);
            anchor.head = state.audit_head;
            const key = auditKeyOf(state);
            if (key !== undefined) {
              anchor.key = key;
              anchor.from = state.audit_from;
            } else why = `the state ${flags.state} was written by plangate 0.1 and holds no audit key (0.1 logs carry no MACs)`;
          } catch (err) {
            if (err instanceof GuardStateError) throw new UsageError(err.message);
            throw err;
          }
        }
        // A regular file only (a device or pipe would be read forever), and at most MAX_LOG_BYTES.
        const read = readFileBounded(resolve(io.cwd, log), MAX_LOG_BYTES);
        if (!read.ok) {
          const unreadable: TrailUnreadable =
            read.reason === "error" ? { kind: "error", code: String(read.code) } : read.reason === "not-a-file" ? { kind: "not-a-file", what: read.kind } : { kind: "too-large", max: MAX_LOG_BYTES };
          await printApprovalResult(io, log, judgeApproval({ step: "audit", file: log, unreadable }), flags.output, { level: "broken" });
          return EXIT.rejected;
        }
        const text = Buffer.from(read.bytes).toString("utf8");
        const r = verifyAuditText(text, anchor);
        const diagnostics: Diagnostic[] = [...r.diagnostics];
        if (r.level === "chain" && flags.chainOnly !== true)
          diagnostics.push(...judgeApproval({ step: "audit", unauthenticated: { stateGiven: flags.state !== undefined, ...(why !== undefined ? { keylessState: flags.state! } : {}) } }));
        const extra: Record<string, unknown> = { level: r.level, entries: r.head.count, head: r.head.hash, authenticated: r.authenticated ?? null };
        await printApprovalResult(io, log, diagnostics, flags.output, extra);
        if (r.ok && flags.output === "text") io.stdout(`${log}: ${r.head.count} entries, ${summary(r, why)}\n`);
        return diagnostics.length === 0 ? EXIT.ok : EXIT.rejected;
      }),
    );
  /** `audit verify RUN --store URL`: the run's trail as the store keeps it, anchored by the run. */
  async function verifyStored(id: string, flags: AuditFlags, io: CliIO): Promise<number> {
    if (flags.state !== undefined) throw new UsageError("give --store (with a run id) or --state, not both");
    const store = await storeFrom({ store: flags.store }, undefined, io);
    let read: AuditRead;
    try {
      read = await storeOf(store).readAudit(id);
    } catch (err) {
      if (err instanceof GuardStateError) throw new UsageError(err.message);
      throw err;
    } finally {
      await closeStore(store);
    }
    const r = verifyAuditText(read.text, { head: read.head, key: read.key, from: read.from });
    const extra: Record<string, unknown> = { level: r.level, entries: r.head.count, head: r.head.hash, authenticated: r.authenticated ?? null };
    const name = `run ${id}`;
    await printApprovalResult(io, name, r.diagnostics, flags.output, extra);
    if (r.ok && flags.output !== "json") io.stdout(`${name}: ${r.head.count} entries, ${summary(r, undefined)}\n`);
    return r.ok ? EXIT.ok : EXIT.rejected;
  }
  for (const cmd of audit.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
