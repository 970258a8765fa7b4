import { MissingDependency } from "../core/missing-dependency.js";
import { Command, CommanderError, Option } from "commander";
import { CliError, type CliIO, errorDocument, EXIT, wantsJson } from "./io.js";
import { VERSION } from "../version.js";

/** A command's action returns its exit code. */
export type Action = (...args: any[]) => Promise<number>;
/** Turns an Action into a commander action that records the exit code. */
export type Wrap = (fn: Action) => (...args: any[]) => Promise<void>;

type Register = (program: Command, io: CliIO, wrap: Wrap) => void;

/**
 * The commands and the module that defines each. Only the invoked command's module is loaded, so
 * `plangate validate` does not pay for signing, schemas or tokenizers at start-up.
 */
const COMMANDS: ReadonlyArray<{ names: readonly string[]; load: () => Promise<Register[]> }> = [
  { names: ["validate"], load: async () => [(await import("./commands/validate.js")).registerValidate] },
  {
    names: ["hash", "seal", "migrate"],
    load: async () => {
      const m = await import("./commands/seal.js");
      return [m.registerHash, m.registerSeal, m.registerMigrate];
    },
  },
  {
    names: ["rules", "explain"],
    load: async () => {
      const m = await import("./commands/rules.js");
      return [m.registerRules, m.registerExplain];
    },
  },
  { names: ["schema"], load: async () => [(await import("./commands/schema.js")).registerSchema] },
  { names: ["approve"], load: async () => [(await import("./commands/approve.js")).registerApprove] },
  { names: ["verify"], load: async () => [(await import("./commands/verify.js")).registerVerify] },
  { names: ["keygen"], load: async () => [(await import("./commands/keygen.js")).registerKeygen] },
  { names: ["guard"], load: async () => [(await import("./commands/guard.js")).registerGuard] },
  { names: ["audit"], load: async () => [(await import("./commands/audit.js")).registerAudit] },
  { names: ["check-task"], load: async () => [(await import("./commands/check-task.js")).registerCheckTask] },
  { names: ["check-delegation"], load: async () => [(await import("./commands/check-delegation.js")).registerCheckDelegation] },
  { names: ["check-return"], load: async () => [(await import("./commands/check-return.js")).registerCheckReturn] },
  { names: ["init"], load: async () => [(await import("./commands/init.js")).registerInit] },
  { names: ["store"], load: async () => [(await import("./commands/store.js")).registerStore] },
  { names: ["serve"], load: async () => [(await import("./commands/serve.js")).registerServe] },
  { names: ["mcp"], load: async () => [(await import("./commands/mcp.js")).registerMcp] },
];

/** The names of every command, in help order. */
export const COMMAND_NAMES: readonly string[] = COMMANDS.flatMap((c) => c.names);

/**
 * Builds the program. With `only`, just the module defining that command is loaded; otherwise (help,
 * an unknown command) every command is registered so help and suggestions are complete.
 */
export async function buildProgram(io: CliIO, setExit: (code: number) => void, only?: string): Promise<Command> {
  const program = new Command("plangate");
  program
    .description("Validate, hash, approve and guard AI agent plans before they run.")
    .version(VERSION, "-V, --version")
    // A subcommand's options belong to it: `guard start -o json` is not the hook's `guard --output`.
    .enablePositionalOptions()
    .exitOverride()
    .showHelpAfterError("(run with --help for usage)")
    .configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) })
    .allowExcessArguments(false);
  const wrap =
    (fn: Action) =>
    async (...args: unknown[]) => {
      setExit(await fn(...args));
    };
  const chosen = COMMANDS.filter((c) => only === undefined || c.names.includes(only));
  for (const entry of chosen.length > 0 ? chosen : COMMANDS) for (const register of await entry.load()) register(program, io, wrap);
  for (const cmd of program.commands) {
    cmd.exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }).allowExcessArguments(false);
  }
  return program;
}

/**
 * Runs the CLI and returns the exit code: 0 accepted, 1 rejected, 2 usage or internal error. Never
 * throws. With `--output json`, a usage or internal error also prints one JSON error document on stdout.
 */
export async function main(argv: readonly string[], io: CliIO): Promise<number> {
  let code: number = EXIT.ok;
  // `plangate --version` (a host's check that plangate is installed) needs no command: none is loaded.
  if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-V")) {
    io.stdout(`${VERSION}\n`);
    return EXIT.ok;
  }
  const json = wantsJson(argv);
  try {
    const program = await buildProgram(
      io,
      (c) => {
        code = c;
      },
      argv[0] !== undefined && COMMAND_NAMES.includes(argv[0]) ? argv[0] : undefined,
    );
    if (argv.length === 0) {
      program.outputHelp();
      return EXIT.usage;
    }
    await program.parseAsync(argv as string[], { from: "user" });
    return code;
  } catch (err) {
    try {
      if (err instanceof CommanderError) {
        if (err.code === "commander.helpDisplayed" || err.code === "commander.version" || err.code === "commander.help") {
          if (!isHookCall(argv) || io.stdinIsTTY === true) return EXIT.ok;
          // Run as a hook (standard input is not a terminal), a help request decides no call: exit 0 would
          // read as "allow" to the host, so the hook blocks, saying why (a stray --help in the hook's command).
          io.stderr(HOOK_HELP_BLOCK);
          return EXIT.usage;
        }
        // commander has already written its message to stderr.
        if (json) io.stdout(errorDocument("usage", err.message.replace(/^error: /, "")));
        return EXIT.usage;
      }
      if (err instanceof CliError) {
        io.stderr(`plangate: ${err.message}\n`);
        if (json) io.stdout(errorDocument(err.code, err.message));
        return EXIT.usage;
      }
      if (err instanceof MissingDependency) {
        // Not a bug: an optional package the check needs is not installed.
        io.stderr(`plangate: ${err.message}\n`);
        if (json) io.stdout(errorDocument("missing-dependency", err.message));
        return EXIT.usage;
      }
      const message = (err as Error)?.message ?? String(err);
      io.stderr(`plangate: internal error: ${message}\nThis is a bug in plangate; nothing was accepted.\n`);
      if (json) io.stdout(errorDocument("internal", message));
    } catch {
      // Even a failing stream must not turn an error into another exit code.
    }
    return EXIT.internal;
  }
}

/** The subcommands of `guard` that are not the hook itself. */
const GUARD_SUBCOMMANDS = new Set(["start", "status", "stop", "repair"]);

/**
 * Is this command line the PreToolUse hook (`plangate guard ...`, not `guard start|status|stop|repair`),
 * as bin/plangate.js reads it? Its host reads exit 0 as "allow": nothing but a decision may exit 0.
 */
export function isHookCall(argv: readonly string[]): boolean {
  return argv[0] === "guard" && !GUARD_SUBCOMMANDS.has(argv[1] ?? "");
}

const HOOK_HELP_BLOCK =
  "plangate guard: blocked: the hook's command asks for help (--help, -h or help), so no tool call was decided; remove it from the hook's command (help exits 0 only when standard input is a terminal) [guard-failure]\n";

/** `--output` with a fixed set of choices (a bad value is a usage error). */
export function outputOption(choices: readonly string[]): Option {
  return new Option("-o, --output <format>", "output format").choices(choices as string[]).default("text");
}

/**
 * Is colour wanted? `--color` / `--no-color` decide; else FORCE_COLOR (`0` or `false`: no, any other
 * value: yes); else only on a terminal, never with NO_COLOR or TERM=dumb.
 */
export function useColor(io: CliIO, flag?: boolean): boolean {
  if (flag !== undefined) return flag;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force.toLowerCase() !== "false";
  return io.isTTY && (io.env.NO_COLOR === undefined || io.env.NO_COLOR === "") && io.env.TERM !== "dumb";
}
