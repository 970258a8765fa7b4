import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { verifyAuditText } from "../../approval/audit.js";
import { approvalDiagnostic } from "../../approval/record.js";
import { GuardStateError, readState } from "../../approval/state.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { outputOption, type Wrap } from "../main.js";
import { printApprovalResult } from "./approval-common.js";

/** `plangate audit verify LOG [--state S]`. */
export function registerAudit(program: Command, io: CliIO, wrap: Wrap): void {
  const audit = program.command("audit").description("work with the guard's audit trail");
  audit
    .command("verify")
    .description("check an audit trail's hash chain: a deleted, inserted, reordered or edited line is reported")
    .argument("<log>", "JSON Lines audit trail")
    .option("--state <file>", "guard state: also check that the log ends where the guard last wrote (catches a cut tail)")
    .addOption(outputOption(["text", "json"]))
    .action(
      wrap(async (log: string, flags: { state?: string; output: string }) => {
        let head: ReturnType<typeof readState>["audit_head"] | undefined;
        if (flags.state !== undefined) {
          try {
            head = readState(resolve(io.cwd, flags.state)).audit_head;
          } catch (err) {
            if (err instanceof GuardStateError) throw new UsageError(err.message);
            throw err;
          }
        }
        let text: string;
        try {
          text = readFileSync(resolve(io.cwd, log), "utf8");
        } catch (err) {
          const d = approvalDiagnostic("audit-chain-broken", `The audit trail ${log} cannot be read (${(err as NodeJS.ErrnoException).code}).`, "check the path; a missing log is a broken trail");
          printApprovalResult(io, log, [d], flags.output);
          return EXIT.rejected;
        }
        const r = verifyAuditText(text, head);
        printApprovalResult(io, log, r.diagnostics, flags.output, { entries: r.head.count, head: r.head.hash });
        if (r.ok && flags.output !== "json") io.stdout(`${log}: ${r.head.count} entries, chain intact\n`);
        return r.ok ? EXIT.ok : EXIT.rejected;
      }),
    );
  for (const cmd of audit.commands) cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
}
