import { Command, CommanderError, Option } from "commander";
import { type CliIO, EXIT, UsageError } from "./io.js";
import { registerInit } from "./commands/init.js";
import { registerExplain, registerRules } from "./commands/rules.js";
import { registerHash, registerMigrate, registerSeal } from "./commands/seal.js";
import { registerValidate } from "./commands/validate.js";
import { VERSION } from "../version.js";

/** A command's action returns its exit code. */
export type Action = (...args: any[]) => Promise<number>;
/** Turns an Action into a commander action that records the exit code. */
export type Wrap = (fn: Action) => (...args: any[]) => Promise<void>;

/** Builds the program; each command module adds its subcommand. */
export function buildProgram(io: CliIO, setExit: (code: number) => void): Command {
  const program = new Command("plangate");
  program
    .description("Validate, hash, approve and guard AI agent plans before they run.")
    .version(VERSION, "-V, --version")
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .allowExcessArguments(false);
  const wrap =
    (fn: Action) =>
    async (...args: unknown[]) => {
      setExit(await fn(...args));
    };
  registerValidate(program, io, wrap);
  registerHash(program, io, wrap);
  registerSeal(program, io, wrap);
  registerMigrate(program, io, wrap);
  registerRules(program, io, wrap);
  registerExplain(program, io, wrap);
  registerInit(program, io, wrap);
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
  }
  return program;
}

/** Runs the CLI and returns the exit code (0 accepted, 1 rejected, 2 usage error). Never throws. */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  const program = buildProgram(io, (c) => {
    code = c;
  });
  try {
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(argv as string[], { from: "user" });
    return code;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") return EXIT.ok;
      return EXIT.usage;
    }
    if (err instanceof UsageError) {
      io.stderr(`plangate: ${err.message}\n`);
      return EXIT.usage;
    }
    io.stderr(`plangate: internal error: ${(err as Error)?.message ?? String(err)}\nThis is a bug in plangate; the input was rejected.\n`);
    return EXIT.rejected;
  }
}

/** `--output` with a fixed set of choices (a bad value is a usage error). */
export function outputOption(choices: readonly string[]): Option {
  return new Option("-o, --output <format>", "output format").choices(choices as string[]).default("text");
}

/** Is colour wanted? Only on a terminal, and never with NO_COLOR. */
export function useColor(io: CliIO): boolean {
  return io.isTTY && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === "") && io.env.TERM !== "dumb";
}
