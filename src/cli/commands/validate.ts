import type { ToolRegistry } from "../../core/tools.js";
import type { Command } from "commander";
import type { DialectId } from "../../core/plan.js";
import { DIALECT_IDS } from "../../core/plan.js";
import type { PlanReport } from "../../core/plan-report.js";
import { validatePlan } from "../../node/validate-plan.js";
import { formatJson } from "../../formatters/json.js";
import { textFormatter } from "../../formatters/text.js";
import { validateFile } from "../../node/validate-file.js";
import { type CliIO, EXIT } from "../io.js";
import { expandInputs } from "../inputs.js";
import { type Wrap, outputOption, useColor } from "../main.js";
import { intFlag, type PlanFlags, resolveSetup, type Setup, setupForFile } from "../setup.js";
import { discoverPolicy, PolicyError } from "../../node/policy.js";
import { Option } from "commander";
import { dirname, resolve } from "node:path";
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
  format?: string;
  quiet?: boolean;
  maxWarnings?: string;
  stdinFilename?: string;
  color?: boolean;
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
    .description("validate plans: files, folders (walked for plan files) and quoted globs; '-' reads standard input")
    .argument("<file...>", "plan files, folders or globs (.plangateignore and node_modules/.git are skipped in folders)")
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
    .addOption(new Option("--format <format>", "the same as --output").choices(VALIDATE_OUTPUTS as unknown as string[]))
    .option("--quiet", "report errors only (warnings still count for --max-warnings)")
    .option("--max-warnings <n>", "exit 1 when there are more than this many warnings")
    .option("--stdin-filename <name>", "the name standard input ('-') is read and reported as; its extension picks the syntax")
    .option("--color", "colour the text output even when it is not a terminal")
    .option("--no-color", "never colour the text output")
    .action(
      wrap(async (args: string[], flags: ValidateFlags, cmd: Command) => {
        if (flags.format !== undefined && cmd.getOptionValueSource("output") !== "default" && flags.format !== flags.output)
          throw new UsageError(`--format ${flags.format} and --output ${flags.output} disagree; give one`);
        const output = flags.format ?? flags.output;
        const maxWarnings = flags.maxWarnings === undefined ? undefined : intFlag(flags.maxWarnings, "--max-warnings", 0);
        const stdinName = flags.stdinFilename;
        if (stdinName !== undefined && !args.includes("-")) throw new UsageError("--stdin-filename names standard input: pass - among the files");
        const inputs = expandInputs(args, io.cwd);
        const setup = await resolveSetup(flags, io);
        const setupFor = policyPerFile(flags, io, setup);
        const policies: (string | null)[] = [];
        const context = flags.context === undefined ? undefined : readContext(resolve(io.cwd, flags.context), flags.context);
        const shown = await reportSink(output, io, setup.tools, flags.color);
        let count = 0;
        let warnings = 0;
        let allValid = true;
        // A check that threw is a bug, not a verdict on the plan: exit 2 (an internal error), never 1.
        let crash: { file: string; rule: string; message: string } | undefined;
        const done = (report: PlanReport, policy: string | null) => {
          count++;
          warnings += report.diagnostics.filter((d) => d.severity === "warning").length;
          allValid &&= report.valid;
          if (!crash && report.internalErrors?.length) crash = { file: report.file ?? "-", ...report.internalErrors[0]! };
          policies.push(policy);
          // Formatted now: the plan and its source are not kept past this file.
          shown.add(flags.quiet ? errorsOnly(report) : report);
        };
        for (const input of inputs) {
          const file = input.name;
          const own = setupForFile(await setupFor(input.path), input.path, io);
          const options = {
            dialect: flags.dialect,
            policy: own.policy,
            tools: own.tools,
            expectedHash: flags.expectedHash,
            failFast: flags.failFast === true,
            context,
            now: io.now,
            host: setup.host,
          };
          if (input.path === "-") {
            done(await validatePlan(await io.readStdin(setup.policy.limits.maxFileBytes), { ...options, file: stdinName ?? "-" }), own.policy.source ?? null);
            continue;
          }
          const report = await validateFile(input.path, { ...options, file });
          // A file found in a folder that no dialect reads is not a plan: skipped, as a linter skips other files.
          if (!input.named && !looksLikePlan(input.path, report)) continue;
          done(report, own.policy.source ?? null);
        }
        if (crash) throw new Error(`the ${crash.rule} check failed on ${crash.file} (${crash.message})`);
        if (count === 0) throw new UsageError(`no plan files found in ${args.join(", ")}`);
        io.stdout(shown.end(policies));
        if (maxWarnings !== undefined && warnings > maxWarnings) {
          io.stderr(`plangate: ${warnings} warnings, more than --max-warnings ${maxWarnings}\n`);
          return EXIT.rejected;
        }
        return allValid ? EXIT.ok : EXIT.rejected;
      }),
    );
}

/**
 * Without --policy or --no-policy, each file is judged by the policy found from its own folder (walking
 * up, stopping at a repository root), as ruff finds its configuration: a plan in another project is
 * checked with that project's policy and workspace. A file with none above it takes the one found from
 * the working directory.
 */
function policyPerFile(flags: ValidateFlags, io: CliIO, base: Setup): (path: string) => Promise<Setup> {
  if (flags.policy !== undefined) return async () => base;
  const byFile = new Map<string, Promise<Setup>>();
  // Each folder is searched once per run: the files of one folder share its policy (and 400 files of
  // one folder do not stat the same policy names 400 times).
  const byFolder = new Map<string, string | undefined>();
  return async (path) => {
    if (path === "-") return base;
    const folder = dirname(path);
    let found: string | undefined;
    if (byFolder.has(folder)) found = byFolder.get(folder);
    else {
      try {
        found = discoverPolicy(folder);
      } catch (err) {
        if (err instanceof PolicyError) throw new UsageError(err.message);
        throw err;
      }
      byFolder.set(folder, found);
    }
    if (found === undefined || found === base.policy.source) return base;
    let s = byFile.get(found);
    if (!s) {
      s = resolveSetup({ ...flags, policy: found }, io);
      byFile.set(found, s);
    }
    return s;
  };
}

/** A Markdown file is a plan when it has a TeDDy section; any other file when a dialect reads it. */
function looksLikePlan(path: string, report: PlanReport): boolean {
  if (report.diagnostics.some((d) => d.rule === "unknown-format")) return false;
  if (/\.md$/i.test(path)) return report.source !== undefined && /^ {0,3}##[ \t]+[`*_]*(?:Action Plan|Message|Rationale)\b/im.test(report.source.text);
  return true;
}

/** `--quiet`: the report with its errors only. */
function errorsOnly(r: PlanReport): PlanReport {
  return { ...r, diagnostics: r.diagnostics.filter((d) => d.severity === "error") };
}

/**
 * The output, a report at a time: text and feedback are formatted as each report comes; JSON and SARIF
 * need the whole set, so they keep each report without its plan and source (file, verdict, diagnostics).
 * The SARIF and feedback formatters, which quote every rule's documentation, load only when asked for.
 */
async function reportSink(output: string, io: CliIO, tools: ToolRegistry | undefined, color?: boolean): Promise<{ add(report: PlanReport): void; end(policies: (string | null)[]): string }> {
  if (output === "json" || output === "sarif") {
    const sarif = output === "sarif" ? await import("../../formatters/sarif.js") : undefined;
    const kept: PlanReport[] = [];
    return {
      add: (r) => {
        kept.push({ file: r.file, dialect: r.dialect, valid: r.valid, planHash: r.planHash, steps: r.steps, diagnostics: r.diagnostics });
      },
      end: (policies) => (sarif === undefined ? formatJson(kept, { policy: policies[0] ?? null, policies }) : sarif.formatSarif(kept, { cwd: io.cwd })),
    };
  }
  if (output === "feedback") {
    const feedback = (await import("../../formatters/feedback.js")).feedbackFormatter({ tools });
    return { add: feedback.add, end: () => feedback.end() };
  }
  const text = textFormatter({ color: useColor(io, color), cwd: io.cwd });
  return { add: text.add, end: (policies) => text.end({ policy: policies[0] ?? null, policies }) };
}
