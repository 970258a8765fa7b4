import type { Command } from "commander";
import type { DialectId } from "../../core/plan.js";
import { DIALECT_IDS } from "../../core/plan.js";
import { type PlanReport, validatePlan } from "../../engine.js";
import { formatJson } from "../../formatters/json.js";
import { formatText } from "../../formatters/text.js";
import { validateFile } from "../../node/validate-file.js";
import { type CliIO, EXIT } from "../io.js";
import { type Action, type Wrap, outputOption, useColor } from "../main.js";
import { type PlanFlags, resolveSetup } from "../setup.js";
import { Option } from "commander";
import { resolve } from "node:path";

interface ValidateFlags extends PlanFlags {
  dialect?: DialectId;
  expectedHash?: string;
  failFast?: boolean;
  output: string;
}

export const VALIDATE_OUTPUTS = ["text", "json"] as const;

/** `plangate validate <file...>`. */
export function registerValidate(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("validate")
    .description("validate one or more plans ('-' reads standard input)")
    .argument("<file...>", "plan files")
    .addOption(new Option("--dialect <id>", "force a dialect instead of detecting it").choices(DIALECT_IDS as string[]))
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--workspace <dir>", "workspace root (default: the policy's, else the current directory)")
    .option("--tools <file>", "tool registry: one tool a line, or an MCP tools/list result")
    .option("--expected-hash <hash>", "reject the plan unless it has this plan hash or raw-file SHA-256")
    .option("--max-age <days>", "warn about plans older than this many days (default 30)")
    .option("--fail-fast", "stop at the first error, in the order the checks run")
    .addOption(outputOption(VALIDATE_OUTPUTS))
    .action(
      wrap(async (files: string[], flags: ValidateFlags) => {
        const setup = await resolveSetup(flags, io);
        const reports: PlanReport[] = [];
        for (const file of files) {
          const options = {
            dialect: flags.dialect,
            policy: setup.policy,
            tools: setup.tools,
            expectedHash: flags.expectedHash,
            failFast: flags.failFast === true,
            now: io.now,
          };
          if (file === "-") reports.push(await validatePlan(await io.readStdin(setup.policy.limits.maxFileBytes), { ...options, file: "-" }));
          else reports.push(await validateFile(resolve(io.cwd, file), { ...options, file }));
        }
        io.stdout(flags.output === "json" ? formatJson(reports) : formatText(reports, { color: useColor(io) }));
        return reports.every((r) => r.valid) ? EXIT.ok : EXIT.rejected;
      }),
    );
}
