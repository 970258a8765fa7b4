import { clipActual } from "../../core/rule.js";
import { resolve } from "node:path";
import type { Command } from "commander";
import { closest } from "../../core/tools.js";
import { checkTask, type NamedText } from "../../orchestration/task.js";
import { type CliIO, EXIT, UsageError } from "../io.js";
import { type Wrap, outputOption, useColor } from "../main.js";
import { resolveSetup } from "../setup.js";
import { readConfigText } from "../../node/read-bounded.js";
import { CHECK_OUTPUTS, formatCheckOutputs } from "./check-output.js";

interface TaskFlags {
  todo?: string;
  state?: string;
  operation?: string;
  policy?: string;
  workspace?: string;
  output: string;
}

function readInput(io: CliIO, file: string, flag: string): NamedText {
  try {
    // A regular file of bounded size: a device or a pipe (TODO.md linked to /dev/zero) would be read forever.
    return { text: readConfigText(resolve(io.cwd, file)), file };
  } catch (err) {
    throw new UsageError(`cannot read ${flag} file ${file}: ${(err as Error).message}`);
  }
}

/** `plangate check-task <N> --todo TODO.md [--state state.json] [--operation OP]`. */
export function registerCheckTask(program: Command, io: CliIO, wrap: Wrap): void {
  program
    .command("check-task")
    .description("check a task number against TODO.md / state.json and its status against an operation (the orchestrator validation strategy)")
    .argument("<number>", "task number")
    .option("--todo <file>", "TODO.md: tasks are '### N. Title' headings with a Status line")
    .option("--state <file>", "state.json: active_projects[].project_number")
    .option("--operation <op>", "operation about to run (research, plan, revise, implement, or one from tasks.operations)")
    .option("--policy <file>", "policy file (default: plangate.yaml found walking up from the current directory)")
    .option("--no-policy", "use the built-in defaults: read no policy file")
    .option("--workspace <dir>", "workspace root")
    .addOption(outputOption(CHECK_OUTPUTS))
    .action(
      wrap(async (number: string, flags: TaskFlags) => {
        if (flags.todo === undefined && flags.state === undefined) throw new UsageError("check-task needs --todo FILE, --state FILE, or both");
        const { policy } = await resolveSetup(flags, io);
        const ops = policy.tasks.operations;
        if (flags.operation !== undefined && !Object.hasOwn(ops, flags.operation)) {
          const near = closest(flags.operation, Object.keys(ops));
          throw new UsageError(
            `unknown --operation "${flags.operation}"${near ? `; did you mean "${near}"?` : ""} (known: ${Object.keys(ops).join(", ")}; add others in tasks.operations)`,
          );
        }
        const todo = flags.todo !== undefined ? readInput(io, flags.todo, "--todo") : undefined;
        const state = flags.state !== undefined ? readInput(io, flags.state, "--state") : undefined;
        const result = checkTask(number, { todo, state, operation: flags.operation, policy });
        const found = result.task;
        // A title or status is quoted as messages quote values: a hostile TODO.md's 14 MB line is cut, not printed.
        const t = found && { ...found, title: quoted(found.title), status: quoted(found.status), language: quoted(found.language) };
        const task = t ? { number: t.number, title: t.title ?? null, status: t.status ?? null, language: t.language ?? null } : null;
        const what = t
          ? `task ${t.number}${t.title ? ` "${t.title}"` : ""} (${[t.status ?? "no status", t.language].filter(Boolean).join(", ")})${flags.operation ? `, ${flags.operation}` : ""}`
          : `task ${number}`;
        const out = [{ result, extra: { task, ...(flags.operation !== undefined ? { operation: flags.operation } : {}) }, what }];
        io.stdout(formatCheckOutputs(out, flags.output, useColor(io), io.cwd));
        return result.valid ? EXIT.ok : EXIT.rejected;
      }),
    );
}

/** A task's text as a report quotes it (see clipActual). */
function quoted(text: string | undefined): string | undefined {
  return text === undefined ? undefined : (clipActual(text) as string);
}
