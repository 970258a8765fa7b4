import type { Command } from "commander";
import type { DialectId } from "../../core/plan.js";
import { DIALECT_IDS } from "../../core/plan.js";
import { type PlanReport, validatePlan } from "../../engine.js";
import { formatFeedback } from "../../formatters/feedback.js";
import { formatJson } from "../../formatters/json.js";
import { formatSarif } from "../../formatters/sarif.js";
import { formatText } from "../../formatters/text.js";
import { validateFile } from "../../node/validate-file.js";
import { type CliIO, EXIT } from "../io.js";
import { type Wrap, outputOption, useColor } from "../main.js";
import { type PlanFlags, resolveSetup } from "../setup.js";
import { Option } from "commander";
import { resolve } from "node:path";
import { ContextFileError, loadContextFile } from "../../node/context-file.js";
import { UsageError } from "../io.js";

function readContext(path: string, name: string): string[] {
  try {
    return loadContextFile(path, name);
  } catch (err) {
    if (err instanceof ContextFileError) throw new UsageError(err.message);
    throw err;
  }
}

interface ValidateFlags extends PlanFlags {
  dialect?: DialectId;
  expectedHash?: string;
  failFast?: boolean;
  context?: string;
  output: string;
}

export const VALIDATE_OUTPUTS = ["text", "json", "sarif", "feedback"] as const;

/** `plangate validate <file...>`. */
export function registerValidate(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("validate")
    .description("validate one or more plans ('-' reads standard input)")
    .argument("<file...>", "plan files")
    .addOption(new Option("--dialect <id>", "force a dialect instead of detecting it").choices(DIALECT_IDS as string[]))
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry: one tool a line, or an MCP tools/list result")
    .option("--host <name|file>", "agent host profile (claude-code, generic, or a profile file; default: the policy's host, else generic)")
    .option("--context <file>", "turn context of a Markdown plan: the paths the planner has read (one a line, or a JSON array)")
    .option("--expected-hash <hash>", "reject the plan unless it has this plan hash or raw-file SHA-256")
    .option("--max-age <days>", "warn about plans older than this many days (default 30)")
    .option("--fail-fast", "stop at the first error, in the order the checks run")
    .addOption(outputOption(VALIDATE_OUTPUTS))
    .action(
      wrap(async (files: string[], flags: ValidateFlags) => {
        const setup = await resolveSetup(flags, io);
        const context = flags.context === undefined ? undefined : readContext(resolve(io.cwd, flags.context), flags.context);
        const reports: PlanReport[] = [];
        for (const file of files) {
          const options = {
            dialect: flags.dialect,
            policy: setup.policy,
            tools: setup.tools,
            expectedHash: flags.expectedHash,
            failFast: flags.failFast === true,
            context,
            now: io.now,
            host: setup.host,
          };
          if (file === "-") reports.push(await validatePlan(await io.readStdin(setup.policy.limits.maxFileBytes), { ...options, file: "-" }));
          else reports.push(await validateFile(resolve(io.cwd, file), { ...options, file }));
        }
        // A check that threw is a bug, not a verdict on the plan: exit 2 (an internal error), never 1.
        const crash = reports.find((r) => r.internalErrors?.length);
        if (crash) {
          const c = crash.internalErrors![0]!;
          throw new Error(`the ${c.rule} check failed on ${crash.file ?? "-"} (${c.message})`);
        }
        io.stdout(formatReports(flags.output, reports, io, setup.policy.source ?? null));
        return reports.every((r) => r.valid) ? EXIT.ok : EXIT.rejected;
      }),
    );
}

function formatReports(output: string, reports: PlanReport[], io: CliIO, policy: string | null): string {
  if (output === "json") return formatJson(reports, { policy });
  if (output === "sarif") return formatSarif(reports, { cwd: io.cwd });
  if (output === "feedback") return formatFeedback(reports);
  return formatText(reports, { color: useColor(io), policy, cwd: io.cwd });
}
