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
  if (isHookCall(argv) || io.stdinIsTTY === true) return run(argv, io);
  // A host's hook event on standard input: this command was put where the hook belongs.
  const look = await guarded(() => strayHookEvent(argv, io));
  if (typeof look === "string") {
    io.stderr(look);
    if (wantsJson(argv)) io.stdout(errorDocument("usage", look.replace(/^plangate: /, "").trim()));
    return EXIT.usage;
  }
  const code = await run(argv, io);
  // A command that reads `-` but ended before reading it (a usage error is exit 2 already) looks at it now.
  if (code === EXIT.usage || look === undefined) return code;
  const late = await guarded(look);
  if (late === undefined) return code;
  io.stderr(late);
  return EXIT.usage;
}

/** A look at standard input that fails is an internal error: its line, as the command's own would be. */
async function guarded<T>(fn: () => Promise<T>): Promise<T | string> {
  try {
    return await fn();
  } catch (err) {
    return `plangate: internal error: ${(err as Error)?.message ?? String(err)}\nThis is a bug in plangate; nothing was accepted.\n`;
  }
}

async function run(argv: readonly string[], io: CliIO): Promise<number> {
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
 * as bin/plangate.js reads it? Its host reads exit 0 as "allow": nothing but a decision may exit 0. The
 * parser runs a subcommand named after the hook's options or `--` too (`guard --state-dir D status`,
 * `guard -- status`), so a subcommand's name anywhere makes it no hook call: such a command line given
 * a hook event blocks (a hook whose option value is one of those names included).
 */
export function isHookCall(argv: readonly string[]): boolean {
  return argv[0] === "guard" && !argv.slice(1).some((a) => GUARD_SUBCOMMANDS.has(a));
}

/** The commands that read a plan or a return from standard input when given `-`. */
const STDIN_READERS = new Set(["validate", "approve", "hash", "seal", "migrate", "check-return"]);

/**
 * Is standard input a host's hook event for a tool call (an object with string `hook_event_name` and
 * `tool_name`, as Claude Code's PreToolUse, PermissionRequest and PostToolUse send)? Its name, if so.
 * Input that is not JSON counts if it opens an object and holds both keys; input cut at the size or time
 * bound (not `complete`) if it opens an object with any key of a hook event.
 */
export function toolHookEvent(bytes: Uint8Array, complete = true): string | undefined {
  const text = new TextDecoder().decode(bytes).trimStart();
  if (!text.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    const name = /"hook_event_name"\s*:\s*"([^"\\]*)/.exec(text);
    if (name && (/"tool_name"\s*:/.test(text) || TOOL_CALL_EVENTS.has(name[1] ?? ""))) return name[1] ?? "";
    // An object cut at the size or time bound may hold an event's keys past the cut: it cannot be told
    // from one, so it counts as one (a script rarely pipes a megabyte of JSON into a command that ignores it).
    return !complete ? "" : undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const event = value as { hook_event_name?: unknown; tool_name?: unknown };
  if (typeof event.hook_event_name !== "string") return undefined;
  // A tool call's event is one whatever its tool_name holds (missing, null: the hook itself would block it).
  return event.tool_name !== undefined || TOOL_CALL_EVENTS.has(event.hook_event_name) ? event.hook_event_name : undefined;
}

/** The events of a tool call (Claude Code's), which a command put in the hook's place must never answer with exit 0. */
const TOOL_CALL_EVENTS: ReadonlySet<string> = new Set(["PreToolUse", "PostToolUse", "PostToolUseFailure", "PermissionRequest"]);

/** The one-line block of a command run with a hook event on standard input: what to put in the hook's command instead. */
export function strayHookBlock(argv: readonly string[], event: string): string {
  let shown = ["plangate", ...argv].join(" ").replace(/[\u0000-\u001f\u007f-\u009f]/g, "?");
  if (shown.length > 100) shown = `${shown.slice(0, 97)}...`;
  const name = /^[A-Za-z]{1,40}$/.test(event) ? `${event} ` : "";
  // "": a JSON object cut at the bound on what is read, which may be an event whose keys come after the cut.
  const what = event === "" ? "a JSON object too large (or too slow) to tell from a host's hook event for a tool call" : `a host's ${name}hook event for a tool call`;
  return `blocked: standard input is ${what}, but \`${shown}\` is not the guard hook and decides nothing (exit 0 would let the call run): set the hook's command to \`plangate guard\`, with only the hook's options (--output, --state-dir, --store, --policy, --host, --timeout) [guard-failure]`;
}

/**
 * For a command other than the hook, with standard input not a terminal: is standard input a host's
 * tool-call hook event? The block's line, if so. Any command looks at standard input first (bounded in
 * size and time) and may not read it afterwards, but for two: `mcp`, whose standard input is its
 * protocol, looks at its first message itself; a command that reads `-` checks what it reads, and if it
 * ends without reading it (nothing is written before), the look it returns is taken then.
 */
async function strayHookEvent(argv: readonly string[], io: CliIO): Promise<string | undefined | (() => Promise<string | undefined>)> {
  if (argv[0] === "mcp") return undefined;
  const look = async () => {
    const seen = await io.sniffStdin?.();
    const event = seen === undefined ? undefined : toolHookEvent(seen.bytes, seen.complete);
    return event === undefined ? undefined : `plangate: ${strayHookBlock(argv, event)}\n`;
  };
  if (STDIN_READERS.has(argv[0] ?? "") && argv.slice(1).includes("-")) {
    const read = io.readStdin;
    let unread = true;
    io.readStdin = async (maxBytes) => {
      unread = false;
      const bytes = await read.call(io, maxBytes);
      const event = toolHookEvent(bytes, maxBytes === undefined || bytes.byteLength <= maxBytes);
      if (event !== undefined) throw new CliError(strayHookBlock(argv, event));
      return bytes;
    };
    return async () => (unread ? look() : undefined);
  }
  const seen = await io.sniffStdin?.();
  if (seen === undefined) return undefined;
  const event = toolHookEvent(seen.bytes, seen.complete);
  if (event !== undefined) return `plangate: ${strayHookBlock(argv, event)}\n`;
  io.readStdin = async () => {
    if (!seen.complete) throw new CliError("standard input was read in part already: this command does not read it");
    return seen.bytes;
  };
  return undefined;
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
