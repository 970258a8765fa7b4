import type { ShellWord } from "../syntax/shell/types.js";
import type { EnvSetting, Inner, RunsIn, WrapperReason } from "./wrappers.js";

/**
 * Programs that run a command line (or a program) they are given as an argument, each read by its own
 * grammar (wrappers.ts's LAUNCHERS). What they run is checked as any other command; a form whose command
 * cannot be made out is refused, with the reason.
 */

const word = (value: string): ShellWord => ({ source: value, value, glob: false, start: 0, end: 0 });
const unknown = (why: WrapperReason): Inner => ({ kind: "unknown", why });
const unknownAt = (w: ShellWord): Inner => unknown({ id: "argumentAtRunTime", data: { source: w.source } });
const unknownOption = (option: string): Inner => unknown({ id: "unknownOption", data: { option } });
const withValue = (w: ShellWord, value: string): ShellWord => ({ ...w, value });

/** The first word decided at run time, if any. */
const lateWord = (args: readonly ShellWord[]): ShellWord | undefined => args.find((w) => w.value === undefined);

/** An inner that runs `words` (argv) or the line they make (script), with settings and a folder. */
function runs(kind: "argv" | "script", words: ShellWord[], extra: { text?: string; env?: EnvSetting[]; runsIn?: RunsIn }): Inner {
  const also = { ...(extra.env && extra.env.length > 0 ? { env: extra.env } : {}), ...(extra.runsIn ? { runsIn: extra.runsIn } : {}) };
  if (kind === "argv") return { kind, words, ...also };
  return { kind, word: words, ...(extra.text !== undefined ? { text: extra.text } : {}), ...also };
}

/** A `NAME=value` setting. */
function setting(text: string): EnvSetting {
  const eq = text.indexOf("=");
  return { name: eq < 0 ? text : text.slice(0, eq), value: eq < 0 ? undefined : text.slice(eq + 1) };
}

/**
 * A command line split into words as POSIX shells quote them (the Rust crate shell-words, which hyperfine
 * and watchexec use for a shell given with its options): undefined for an open quote.
 */
export function splitWords(text: string): string[] | undefined {
  const out: string[] = [];
  let current: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (/\s/.test(c)) {
      if (current !== undefined) out.push(current);
      current = undefined;
      continue;
    }
    current ??= "";
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      if (end < 0) return undefined;
      current += text.slice(i + 1, end);
      i = end;
    } else if (c === '"') {
      let k = i + 1;
      for (; k < text.length && text[k] !== '"'; k++) {
        if (text[k] === "\\" && k + 1 < text.length && '$`"\\\n'.includes(text[k + 1]!)) k++;
        current += text[k]!;
      }
      if (k >= text.length) return undefined;
      i = k;
    } else if (c === "\\") {
      if (i + 1 >= text.length) return undefined;
      current += text[++i]!;
    } else current += c;
  }
  if (current !== undefined) out.push(current);
  return out;
}

/**
 * What runs a command line through a shell a program was given by an option (hyperfine -S, watchexec
 * --shell), as `SHELL [OPTIONS] -c LINE`: a POSIX shell with options that change nothing of what runs reads
 * the line (checked as any line is); any other program, or a shell with other options (`bash -c 'cmd'`,
 * whose own -c runs first), is checked with its words and the line, and the line is read as a shell's too.
 * A shell the program cannot split (an open quote) runs nothing.
 */
function throughShell(shell: string | undefined, line: ShellWord[], text: string | undefined, extra: { env?: EnvSetting[]; runsIn?: RunsIn }): Inner[] {
  const script = runs("script", line, { ...extra, ...(text !== undefined ? { text } : {}) });
  if (shell === undefined) return [script];
  const words = splitWords(shell);
  if (words === undefined || words.length === 0 || words[0] === "") return [{ kind: "none" }];
  const program = words[0]!.replace(/^.*\//, "");
  if (POSIX_SHELLS.has(program) && words.slice(1).every((w) => QUIET_SHELL_OPTION.test(w))) return [script];
  const joined = text ?? line.map((w) => w.value).join(" ");
  return [runs("argv", [...words.map(word), word("-c"), word(joined)], extra), script];
}

/** A shell's option that changes nothing of what its -c line runs (no -c of its own, no -o or -O with a value). */
const QUIET_SHELL_OPTION = /^(?:[-+][abefhiklmnpstuvxBCEHPT]+|--(?:norc|noprofile|posix|login|noediting|restricted|verbose))$/;

/** Shells whose command lines plangate reads (as SHELLS in wrappers.ts). */
const POSIX_SHELLS = new Set(["sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "posh", "lksh", "rbash"]);

// ---------------------------------------------------------------------------------------------------
// clap (Rust) command lines: hyperfine, watchexec.

/** An option of a clap command line: its long name (without `--`), its short letter, how many values it takes. */
interface ClapOption {
  long?: string;
  short?: string;
  values: number;
  /** The value may be left out (clap's num_args 0..=1); it is the next word when that is no option. */
  optional?: true;
  /** An optional value only after `=` (`--ignore-failure=1`). */
  requireEquals?: true;
  /** A flag that takes a following true or false word as its value (clap's boolish parser). */
  boolish?: true;
  /** The option runs nothing (help, version). */
  nothing?: true;
}

/** One option met, with its values (the words holding them: a glued value is a word of its own). */
interface ClapHit {
  option: ClapOption;
  word: ShellWord;
  values: ShellWord[];
  /** The value was joined to the option (`--clear=reset`, `-cclear`). */
  glued: boolean;
}

const BOOLISH = /^(?:y|yes|t|true|on|1|n|no|f|false|off|0)$/i;

/**
 * Reads a clap command line: options (long with `=` or the next words, short clusters with a glued
 * value) anywhere among the positional words, `--` ending them. `trailing`: the first positional word
 * starts the trailing command, whose words are all positional (clap's trailing_var_arg). An option
 * plangate does not know is refused.
 */
function readClap(args: ShellWord[], table: readonly ClapOption[], trailing: boolean): { hits: ClapHit[]; positional: ShellWord[] } | Inner {
  const longs = new Map(table.filter((o) => o.long !== undefined).map((o) => [`--${o.long}`, o]));
  const shorts = new Map(table.filter((o) => o.short !== undefined).map((o) => [`-${o.short}`, o]));
  const hits: ClapHit[] = [];
  const positional: ShellWord[] = [];
  const take = (option: ClapOption, w: ShellWord, glued: string | undefined, i: number): number => {
    const values: ShellWord[] = [];
    if (glued !== undefined) values.push(withValue(w, glued));
    let k = i;
    const want = option.optional ? (glued !== undefined || option.requireEquals ? 0 : 1) : option.values - values.length;
    for (let n = 0; n < want && k + 1 < args.length; n++) {
      const next = args[k + 1]!;
      if (option.optional && (next.value === undefined || next.value.startsWith("-"))) break;
      values.push(next);
      k++;
    }
    if (option.boolish && glued === undefined && BOOLISH.test(args[k + 1]?.value ?? "")) values.push(args[++k]!);
    hits.push({ option, word: w, values, glued: glued !== undefined });
    return k;
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) {
      if (trailing && positional.length > 0) {
        positional.push(w);
        continue;
      }
      return unknownAt(w);
    }
    if (trailing && positional.length > 0) {
      positional.push(w);
      continue;
    }
    if (v === "--") {
      positional.push(...args.slice(i + 1));
      break;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = eq < 0 ? v : v.slice(0, eq);
      const option = longs.get(name);
      if (option === undefined) return unknownOption(name);
      if (option.values === 0 && !option.optional && eq >= 0) return unknownOption(name);
      i = take(option, w, eq < 0 ? undefined : v.slice(eq + 1), i);
      continue;
    }
    if (v.startsWith("-") && v !== "-") {
      for (let k = 1; k < v.length; k++) {
        const option = shorts.get(`-${v[k]!}`);
        if (option === undefined) return unknownOption(`-${v[k]!}`);
        if (option.values === 0 && !option.optional && !option.boolish) {
          hits.push({ option, word: w, values: [], glued: false });
          continue;
        }
        const rest = v.slice(k + 1).replace(/^=/, "");
        i = take(option, w, rest === "" ? undefined : rest, i);
        break;
      }
      continue;
    }
    positional.push(w);
  }
  return { hits, positional };
}

// ---------------------------------------------------------------------------------------------------
// hyperfine

const HYPERFINE: readonly ClapOption[] = [
  { long: "warmup", short: "w", values: 1 },
  { long: "min-runs", short: "m", values: 1 },
  { long: "max-runs", short: "M", values: 1 },
  { long: "runs", short: "r", values: 1 },
  { long: "setup", short: "s", values: 1 },
  { long: "reference", values: 1 },
  { long: "reference-name", values: 1 },
  { long: "prepare", short: "p", values: 1 },
  { long: "conclude", short: "C", values: 1 },
  { long: "cleanup", short: "c", values: 1 },
  { long: "parameter-scan", short: "P", values: 3 },
  { long: "parameter-step-size", short: "D", values: 1 },
  { long: "parameter-list", short: "L", values: 2 },
  { long: "shell", short: "S", values: 1 },
  { long: "no-shell", short: "N", values: 0 },
  { long: "ignore-failure", short: "i", values: 1, optional: true, requireEquals: true },
  { long: "style", values: 1 },
  { long: "sort", values: 1 },
  { long: "time-unit", short: "u", values: 1 },
  { long: "export-asciidoc", values: 1 },
  { long: "export-csv", values: 1 },
  { long: "export-json", values: 1 },
  { long: "export-markdown", values: 1 },
  { long: "export-orgmode", values: 1 },
  { long: "show-output", values: 0 },
  { long: "output", values: 1 },
  { long: "input", values: 1 },
  { long: "command-name", short: "n", values: 1 },
  { long: "min-benchmarking-time", values: 1 },
  { long: "debug-mode", values: 0 },
  { long: "help", short: "h", values: 0, nothing: true },
  { long: "version", short: "V", values: 0, nothing: true },
];
/** hyperfine's options whose value is a command it runs (besides the benchmarked commands). */
const HYPERFINE_COMMANDS = new Set(["setup", "reference", "prepare", "conclude", "cleanup"]);
/** How many parameter combinations of a hyperfine call are read, each into its commands. */
const MAX_COMBINATIONS = 32;

/** A -L list of values, split at commas (`\,` is a comma and `\\` a backslash, as hyperfine reads them). */
function parameterValues(text: string): string[] {
  const out: string[] = [];
  let buf = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "\\" && (text[i + 1] === "," || text[i + 1] === "\\")) buf += text[++i]!;
    else if (c === ",") {
      out.push(buf);
      buf = "";
    } else buf += c;
  }
  out.push(buf);
  return out;
}

/** `{name}` replaced by the parameter's value, left to right and never inside a value already put in (as hyperfine does). */
function substitute(text: string, values: ReadonlyMap<string, string>): string {
  let out = "";
  let i = 0;
  outer: while (i < text.length) {
    for (const [name, value] of values) {
      const key = `{${name}}`;
      if (text.startsWith(key, i)) {
        out += value;
        i += key.length;
        continue outer;
      }
    }
    out += text[i]!;
    i++;
  }
  return out;
}

/**
 * `hyperfine [options] CMD...`: each command, and each of --setup, --prepare, --conclude, --cleanup and
 * --reference, is a command line run by `sh -c` (by the shell -S names; with -N or `--shell=none` split
 * into words and run directly, read here as a line all the same). With -L and -P, each command is run with
 * `{VAR}` replaced by each value of the parameter: every combination is read (a -P range by its ends).
 */
export function hyperfineInners(args: ShellWord[]): Inner[] {
  const read = readClap(args, HYPERFINE, false);
  if ("kind" in read) return [read];
  if (read.hits.some((h) => h.option.nothing)) return [{ kind: "none" }];
  const late = read.hits.flatMap((h) => h.values).find((w) => w.value === undefined);
  if (late) return [unknownAt(late)];
  let shell: string | undefined;
  const lists: { name: string; values: string[] }[] = [];
  const commands: ShellWord[] = [...read.positional];
  for (const h of read.hits) {
    const name = h.option.long ?? "";
    if (HYPERFINE_COMMANDS.has(name)) commands.push(...h.values);
    else if (name === "shell") {
      const value = h.values[0]?.value;
      shell = value === "default" || value === "none" ? undefined : value;
    } else if (name === "no-shell") shell = undefined;
    else if (name === "parameter-list" && h.values.length === 2) lists.push({ name: h.values[0]!.value!, values: parameterValues(h.values[1]!.value!) });
    else if (name === "parameter-scan" && h.values.length === 3) lists.push({ name: h.values[0]!.value!, values: [h.values[1]!.value!, h.values[2]!.value!] });
  }
  let combinations: Map<string, string>[] = [new Map()];
  for (const list of lists) {
    combinations = combinations.flatMap((c) => list.values.map((v) => new Map([...c, [list.name, v]])));
    if (combinations.length > MAX_COMBINATIONS)
      return [unknown({ id: "placeholder", data: { source: `{${list.name}}`, placeholder: `more than ${MAX_COMBINATIONS} combinations of parameter values` } })];
  }
  const out: Inner[] = [];
  for (const c of commands) {
    if (c.value === undefined) {
      out.push(runs("script", [c], {}));
      continue;
    }
    const texts = [...new Set(combinations.map((m) => substitute(c.value!, m)))];
    for (const text of texts) out.push(...throughShell(shell, [c], text === c.value ? undefined : text, {}));
  }
  return out.length > 0 ? out : [{ kind: "none" }];
}

// ---------------------------------------------------------------------------------------------------
// watchexec

const WATCHEXEC: readonly ClapOption[] = [
  // watchexec 2's options, and those of 1.x that it no longer has (--no-ignore, -k, --watch-when-idle).
  ...["manual", "only-emit-events", "no-environment", "no-process-group", "stdin-quit", "exit-on-error", "no-vcs-ignore", "no-project-ignore", "no-global-ignore", "no-default-ignore", "no-discover-ignore", "ignore-nothing", "no-meta", "no-follow-symlinks", "print-events", "timings", "bell", "no-ignore", "no-shell", "watch-when-idle"].map((long): ClapOption => ({ long, values: 0 })),
  ...["completions", "wrap-process", "stop-signal", "stop-timeout", "timeout", "delay-run", "workdir", "socket", "map-signal", "emit-events-to", "filter-file", "project-origin", "ignore-file", "fs-events", "color", "colour", "shell"].map((long): ClapOption => ({ long, values: 1 })),
  { short: "1", values: 0 },
  { short: "n", values: 0 },
  { long: "restart", short: "r", values: 0 },
  { long: "interactive", short: "I", values: 0 },
  { long: "postpone", short: "p", values: 0 },
  { long: "verbose", short: "v", values: 0 },
  { long: "quiet", short: "q", values: 0 },
  { long: "kill", short: "k", values: 0 },
  { long: "quote", short: "Q", values: 0, boolish: true },
  { long: "env", short: "E", values: 1 },
  { long: "on-busy-update", short: "o", values: 1 },
  { long: "signal", short: "s", values: 1 },
  { long: "debounce", short: "d", values: 1 },
  { long: "watch", short: "w", values: 1 },
  { long: "watch-non-recursive", short: "W", values: 1 },
  { long: "watch-file", short: "F", values: 1 },
  { long: "exts", short: "e", values: 1 },
  { long: "filter", short: "f", values: 1 },
  { long: "filter-prog", short: "j", values: 1 },
  { long: "ignore", short: "i", values: 1 },
  { long: "poll", values: 1, optional: true },
  { long: "force-poll", values: 1, optional: true },
  { long: "log-file", values: 1, optional: true },
  { long: "clear", short: "c", values: 1, optional: true },
  { long: "notify", short: "N", values: 1, optional: true },
  { long: "help", short: "h", values: 0, nothing: true },
  { long: "version", short: "V", values: 0, nothing: true },
];

/**
 * `watchexec [options] [--] COMMAND...`: the command's words, joined with spaces, are a line for the shell
 * (`$SHELL -c`, or `sh`; the one --shell names); with -n or `--shell=none`, they are the program and its
 * arguments. The command starts at the first word that is not an option: the words after it are all its
 * own. -E settings are the program's, --workdir its folder. watchexec reads the arguments of a file for
 * each word `@FILE` before `--`: refused.
 */
export function watchexecInners(args: ShellWord[]): Inner[] {
  const end = args.findIndex((w) => w.value === "--");
  const argfile = args.slice(0, end < 0 ? undefined : end).find((w) => w.value?.startsWith("@"));
  if (argfile) return [unknown({ id: "argumentFile", data: { source: argfile.source } })];
  const first = readClap(args, WATCHEXEC, true);
  // An option whose value may be left out took the next word (`-c clear`): watchexec 1.x reads -c, -N and
  // --poll as flags, so that word starts the command there. Both readings are checked.
  if (!("kind" in first) && first.hits.some((h) => h.option.optional && h.values.length > 0 && !h.glued))
    return [...watchexecRead(first), ...watchexecRead(readClap(args, WATCHEXEC_FLAGS, true))];
  return watchexecRead(first);
}

/** watchexec's options with a value that may be left out, read as flags (as watchexec 1.x reads -c, -N, --poll). */
const WATCHEXEC_FLAGS: readonly ClapOption[] = WATCHEXEC.map((o): ClapOption => {
  if (!o.optional) return o;
  const { optional: _optional, ...flag } = o;
  return { ...flag, values: 0 };
});

function watchexecRead(read: ReturnType<typeof readClap>): Inner[] {
  if ("kind" in read) return [read];
  if (read.hits.some((h) => h.option.nothing)) return [{ kind: "none" }];
  const late = read.hits.flatMap((h) => h.values).find((w) => w.value === undefined);
  if (late) return [unknownAt(late)];
  let shell: string | undefined;
  let direct = false;
  const env: EnvSetting[] = [];
  let runsIn: RunsIn | undefined;
  for (const h of read.hits) {
    const name = h.option.long ?? h.option.short;
    const value = h.values[0]?.value;
    if (name === "shell") {
      direct = value === "none";
      shell = value === "none" || value === "default" ? undefined : value;
    } else if (name === "n" || name === "no-shell") direct = true;
    else if (name === "env" && value !== undefined) env.push(setting(value));
    else if (name === "workdir" && value !== undefined) runsIn = { dir: value };
  }
  const command = read.positional;
  if (command.length === 0) return env.length > 0 ? [{ kind: "none", env }] : [{ kind: "none" }];
  const extra = { env, ...(runsIn ? { runsIn } : {}) };
  if (direct) return [runs("argv", command, extra)];
  return throughShell(shell, command, undefined, extra);
}

// ---------------------------------------------------------------------------------------------------
// nodemon

const NODEMON_VALUED = new Set(["--polling-interval", "-P", "--watch", "-w", "--ignore", "-i", "--delay", "-d", "--ext", "-e", "--signal", "-s"]);
const NODEMON_FLAGS = new Set(["--no-update-notifier", "--spawn", "--verbose", "-V", "--legacy-watch", "-L", "--js", "--quiet", "-q", "--exitcrash", "--no-stdin", "-I", "--on-change-only", "-C", "--no-colours", "--no-colors"]);
const NODEMON_NOTHING = new Set(["--help", "-h", "-?", "--version", "-v", "--dump"]);
/** The program nodemon runs a script with by its extension, without --exec (its default execMap; node otherwise). */
const NODEMON_EXEC_MAP: Readonly<Record<string, string>> = { py: "python", rb: "ruby", ts: "ts-node", coffee: "coffee", litcoffee: "coffee" };

/**
 * `nodemon [options] [script] [args...]`: nodemon's own options are read anywhere before `--` (each exactly,
 * a value in the next word); the other words are the script and its arguments. It runs, with `sh -c`, the
 * line `EXEC ARG...`: --exec's (-x's) text as written, then each argument as is, or in double quotes when it
 * holds a space (so `$(...)` in it still runs). Without --exec the script runs with node (python, ruby or
 * ts-node by its extension). --cwd moves it to a folder. --config names a configuration file, whose `exec`
 * and `events` name commands: refused. nodemon replaces {{pwd}} and {{filename}} in --exec: refused. Without
 * a script or --exec, nodemon runs the project's package.json `main` or `start` script, as npm start does.
 */
export function nodemonInners(args: ShellWord[]): Inner[] {
  let exec: ShellWord | undefined;
  let runsIn: RunsIn | undefined;
  const rest: ShellWord[] = [];
  let ended = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (ended) {
      rest.push(w);
      continue;
    }
    if (v === undefined) return [unknownAt(w)];
    if (v === "--") {
      ended = true;
      continue;
    }
    if (NODEMON_NOTHING.has(v)) return [{ kind: "none" }];
    if (NODEMON_FLAGS.has(v)) continue;
    if (v === "--config") return [unknown({ id: "configurationFile", data: { option: v } })];
    if (NODEMON_VALUED.has(v) || v === "--exec" || v === "-x" || v === "--cwd") {
      const value = args[++i];
      if (value === undefined) return [unknown({ id: "optionWithoutValue", data: { option: v } })];
      if (value.value === undefined) return [unknownAt(value)];
      if (v === "--exec" || v === "-x") exec = value;
      if (v === "--cwd") runsIn = { dir: value.value };
      continue;
    }
    rest.push(w);
  }
  const late = lateWord(rest);
  if (late) return [unknownAt(late)];
  if (exec === undefined && rest.length === 0) return [{ kind: "none" }];
  const placeholder = /\{\{(?:pwd|filename)\}\}/.exec(exec?.value ?? "");
  if (placeholder) return [unknown({ id: "placeholder", data: { source: exec!.source, placeholder: placeholder[0] } })];
  const script = rest.find((w) => !w.value!.startsWith("-"))?.value ?? "";
  const program = exec?.value ?? NODEMON_EXEC_MAP[/\.([A-Za-z]+)$/.exec(script)?.[1] ?? ""] ?? "node";
  const quoted = rest.map((w) => (w.value!.length > 0 && !w.value!.includes(" ") ? w.value! : JSON.stringify(w.value)));
  const text = [program, ...quoted].join(" ").trim();
  return [runs("script", exec ? [exec, ...rest] : rest, { text, ...(runsIn ? { runsIn } : {}) })];
}

// ---------------------------------------------------------------------------------------------------
// capsh

/** capsh's options: each an exact word, or a prefix its value follows (`--uid=0`). */
const CAPSH_EXACT = new Set(["--quiet", "--has-ambient", "--noenv", "--strict", "--modes", "--print", "--no-new-privs", "--has-no-new-privs", "--current"]);
const CAPSH_PREFIXED = ["--explain=", "--suggest=", "--drop=", "--dropped=", "--addamb=", "--delamb=", "--noamb", "--inh=", "--caps=", "--mode", "--inmode=", "--keep=", "--secbits=", "--forkfor=", "--killit=", "--uid=", "--cap-uid=", "--gid=", "--groups=", "--user=", "--decode=", "--supports=", "--has-p=", "--has-i=", "--has-a=", "--has-b=", "--is-uid=", "--is-gid=", "--iab="];
/** capsh's options that end it (--explain= and --suggest= print and go on to the next option). */
const CAPSH_NOTHING = /^(?:--license|--help|-h)$/s;

/**
 * `capsh [options] -- ARGS...`: capsh works through its options in order, and at `--` (or `-+`) runs its
 * shell (/bin/bash, or the one `--shell=` named) with the words after it (`capsh -- -c 'cmd'` is `bash -c
 * 'cmd'`); at `==` (or `=+`) it runs capsh again with them. `--chroot=DIR` makes DIR the root and `/` its
 * folder. Without `--` it runs nothing.
 */
export function capshInner(args: ShellWord[]): Inner {
  let shell = "/bin/bash";
  let root: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (v === "--" || v === "-+" || v === "==" || v === "=+") {
      const program = word(v.startsWith("=") ? "capsh" : shell);
      return runs("argv", [program, ...args.slice(i + 1)], root !== undefined ? { runsIn: { dir: root } } : {});
    }
    if (CAPSH_NOTHING.test(v)) return { kind: "none" };
    if (v.startsWith("--shell=")) shell = v.slice("--shell=".length);
    else if (v.startsWith("--chroot=")) {
      const dir = v.slice("--chroot=".length);
      root = root === undefined || dir.startsWith("/") ? dir : `${root}/${dir}`;
    } else if (!CAPSH_EXACT.has(v) && !CAPSH_PREFIXED.some((p) => v.startsWith(p))) return unknownOption(v.replace(/=.*$/s, ""));
  }
  return { kind: "none" };
}

// ---------------------------------------------------------------------------------------------------
// machinectl

const MACHINECTL_VALUED = new Set(["-p", "--property", "-P", "-s", "--signal", "--kill-whom", "--uid", "-E", "--setenv", "-n", "--lines", "-o", "--output", "--format", "--max-addresses", "-H", "--host", "-M", "--machine", "--runner"]);
const MACHINECTL_FLAGS = new Set(["-a", "--all", "-l", "--full", "--value", "--no-pager", "--no-legend", "--no-ask-password", "--read-only", "--mkdir", "--force", "-q", "--quiet"]);

/**
 * `machinectl [options] shell [options] [[USER@]MACHINE [PROGRAM [ARGS...]]]`: runs PROGRAM (without one, the
 * user's login shell) in the machine, or on this one (`.host`, or `USER@`), in the user's home folder. The
 * options after the machine are the program's. -E (--setenv) settings are the program's.
 */
export function machinectlInner(args: ShellWord[]): Inner {
  const env: EnvSetting[] = [];
  let verb = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (v === "--help" || v === "-h" || v === "--version") return { kind: "none" };
    if (v.startsWith("-") && v !== "-" && v !== "--") {
      const eq = v.startsWith("--") ? v.indexOf("=") : -1;
      const name = eq < 0 ? v : v.slice(0, eq);
      if (MACHINECTL_FLAGS.has(name) && eq < 0) continue;
      if (!MACHINECTL_VALUED.has(name)) return unknownOption(name);
      const value = eq < 0 ? args[++i]?.value : v.slice(eq + 1);
      if (value === undefined) return args[i] ? unknownAt(args[i]!) : unknown({ id: "optionWithoutValue", data: { option: name } });
      if (name === "-E" || name === "--setenv") env.push(setting(value));
      continue;
    }
    if (!verb) {
      if (v !== "shell") return { kind: "none" };
      verb = true;
      continue;
    }
    // The machine, then the program and its arguments (`--` before the machine ends the options).
    const from = v === "--" ? i + 1 : i;
    const program = args.slice(from + 1);
    const words = program.length > 0 ? program : [word("sh")];
    return runs("argv", words, { env, runsIn: { dir: "~" } });
  }
  return verb ? runs("argv", [word("sh")], { env, runsIn: { dir: "~" } }) : { kind: "none" };
}

// ---------------------------------------------------------------------------------------------------
// ssh

/** ssh's options that take a value (OpenSSH's getopt string); the others are flags. */
const SSH_VALUED = "bceilmopBDEFIJLOPQRSwW";
const SSH_FLAGS = "1246afgknqstvxACGKMNTVXYy";

/**
 * `ssh [options] DESTINATION [options] [COMMAND...]`: OpenSSH reads options before and after the
 * destination; the words from the first one that is not an option are the remote command, joined with
 * spaces and run by the remote user's shell in their home folder (on this machine too, with `ssh
 * localhost`). Without a command (or with -N, -W, -O, -G, -V, -Q or -s: no shell, a control command, a
 * subsystem), it runs a login session or nothing, as before.
 */
export function sshInner(args: ShellWord[]): Inner {
  let host: ShellWord | undefined;
  let shellless = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return host ? runs("script", args.slice(i), { runsIn: { dir: "~" } }) : unknownAt(w);
    if (v === "--") {
      const rest = args.slice(i + 1);
      if (!host) {
        if (rest.length === 0) return { kind: "none" };
        return command(rest.slice(1));
      }
      return command(rest);
    }
    if (v.startsWith("-") && v !== "-") {
      for (let k = 1; k < v.length; k++) {
        const c = v[k]!;
        if (SSH_FLAGS.includes(c)) {
          if ("NGVs".includes(c)) shellless = true;
          continue;
        }
        if (!SSH_VALUED.includes(c)) return unknownOption(`-${c}`);
        if ("WOQ".includes(c)) shellless = true;
        if (k === v.length - 1) i++;
        break;
      }
      continue;
    }
    if (!host) {
      host = w;
      continue;
    }
    return command(args.slice(i));
  }
  return host === undefined ? { kind: "none" } : command([]);
  function command(words: ShellWord[]): Inner {
    if (shellless) return { kind: "none" };
    if (words.length === 0) return { kind: "none" };
    return runs("script", words, { runsIn: { dir: "~" } });
  }
}

// ---------------------------------------------------------------------------------------------------
// expect, and shells whose language plangate does not read

/**
 * `expect [-dinN] [-D n] [-c CODE]... [[-f|-b] FILE] [args]` runs Tcl: the code -c gives it, a script file,
 * or what it reads from standard input (`-`, -i, no file). The code may spawn any program, and plangate
 * does not read Tcl: -c is refused, a file or standard input is hidden.
 */
export function expectInner(args: ShellWord[]): Inner {
  const file = (w: ShellWord | undefined): Inner =>
    w === undefined || w.value === "-" ? { kind: "hidden", why: { id: "standardInput", data: { program: "expect" } } } : { kind: "hidden", why: { id: "scriptFile", data: { program: "expect", script: w.source } } };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (v === "-v") return { kind: "none" };
    if (v === "--") return file(args[i + 1]);
    if (v === "-" || v === "-i") return file(undefined);
    if (v.startsWith("-c")) return unknown({ id: "codeAsText", data: { option: "-c" } });
    if (v === "-f" || v === "-b") return file(args[i + 1]);
    if (v === "-D") {
      i++;
      continue;
    }
    if (/^-[dnN]+$/.test(v)) continue;
    if (v.startsWith("-")) return unknownOption(v);
    return file(w);
  }
  return file(undefined);
}

/** Shells whose language plangate does not read: the commands they run are refused. */
export const OTHER_SHELLS = new Set(["fish", "csh", "tcsh", "pwsh", "powershell", "nu", "elvish", "xonsh"]);

/** A shell plangate does not read: only asking it its version or help runs nothing. */
export function otherShellInner(program: string, args: ShellWord[]): Inner {
  if (args.length > 0 && args.every((w) => w.value !== undefined && /^(?:-v|--version|-Version|-h|--help|-Help|-\?)$/.test(w.value))) return { kind: "none" };
  if (args.length === 0) return { kind: "hidden", why: { id: "standardInput", data: { program } } };
  return unknown({ id: "shellLanguage", data: { program } });
}

// ---------------------------------------------------------------------------------------------------
// cross-env

/**
 * `cross-env NAME=value... cmd args...`: cross-env takes each word holding `NAME=` (a run of letters, digits
 * and `_` before an `=`, anywhere in the word: `./PATH=x` sets PATH) as a setting, up to the first word
 * that holds none, the program. `cross-env-shell` runs the words after the settings, joined with spaces,
 * with the shell.
 */
export function crossEnvInner(program: string, args: ShellWord[]): Inner {
  const env: EnvSetting[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknownAt(args[i]!);
    const m = /(\w+)=('(.*)'|"(.*)"|(.*))/s.exec(v);
    if (!m) break;
    env.push({ name: m[1]!, value: m[3] ?? m[4] ?? m[5] ?? "" });
  }
  // cross-env drops each ' of the command's words (\' is a quote), and each \ before $, " or \ (\\ is one): r'm runs rm.
  const rest = args.slice(i).map((w) => (w.value === undefined ? w : withValue(w, w.value.replace(/\\\\|(\\)?'|(\\)(?=[$"\\])/g, (m) => (m === "\\\\" ? "\\" : m === "\\'" ? "'" : "")))));
  if (rest.length === 0) return env.length > 0 ? { kind: "none", env } : { kind: "none" };
  return runs(program === "cross-env-shell" ? "script" : "argv", rest, { env });
}

// ---------------------------------------------------------------------------------------------------
// tmux

/** tmux's commands, in its own order (which decides what a prefix of a name means): name, alias, flags (getopt's letters). */
const TMUX_COMMANDS: readonly (readonly [string, string, string])[] = [
  ["attach-session", "attach", "c:dEf:rt:x"],
  ["bind-key", "bind", "nrN:T:"],
  ["break-pane", "breakp", "abdPF:n:s:t:Wx:X:y:Y:"],
  ["capture-pane", "capturep", "ab:CeE:FHJLMNpPqRS:Tt:"],
  ["choose-buffer", "", "F:f:K:kNO:rt:yZ"],
  ["choose-client", "", "F:f:hiK:kNO:rt:yZ"],
  ["choose-tree", "", "F:f:GhK:kNO:rst:wyZ"],
  ["clear-history", "clearhist", "Ht:"],
  ["clear-prompt-history", "clearphist", "T:"],
  ["clock-mode", "", "t:"],
  ["command-prompt", "", "1CbeFiklI:NPp:t:T:"],
  ["confirm-before", "confirm", "bc:p:t:y"],
  ["copy-mode", "", "dekHMqSs:t:u"],
  ["customize-mode", "", "F:f:kNt:yZ"],
  ["delete-buffer", "deleteb", "b:"],
  ["detach-client", "detach", "aE:s:t:P"],
  ["display-menu", "menu", "b:c:C:H:s:S:MOt:T:x:y:"],
  ["display-message", "display", "aCc:d:lINpt:F:v"],
  ["display-popup", "popup", "Bb:Cc:d:e:Eh:kNs:S:t:T:w:x:y:"],
  ["display-panes", "displayp", "d:kNs:t:Z"],
  ["find-window", "findw", "CiNrt:TZ"],
  ["has-session", "has", "t:"],
  ["if-shell", "if", "bFt:"],
  ["join-pane", "joinp", "bdfhvp:l:s:t:"],
  ["kill-pane", "killp", "af:t:"],
  ["kill-server", "", ""],
  ["kill-session", "", "aCgf:t:"],
  ["kill-window", "killw", "af:t:"],
  ["last-pane", "lastp", "det:Z"],
  ["last-window", "last", "t:"],
  ["link-window", "linkw", "abdks:t:"],
  ["list-buffers", "lsb", "F:f:O:r"],
  ["list-clients", "lsc", "F:f:O:rt:"],
  ["list-commands", "lscm", "F:"],
  ["list-keys", "lsk", "1aF:NO:P:rT:"],
  ["list-panes", "lsp", "aF:f:O:rst:"],
  ["list-sessions", "ls", "F:f:O:r"],
  ["list-windows", "lsw", "aF:f:O:rt:"],
  ["load-buffer", "loadb", "b:t:w"],
  ["lock-client", "lockc", "t:"],
  ["lock-server", "lock", ""],
  ["lock-session", "locks", "t:"],
  ["move-pane", "movep", "bdD::fhMvl:L::P:R::s:t:U::X:Y:z:"],
  ["move-window", "movew", "abdkrs:t:"],
  ["new-pane", "newp", "AbB:Cc:de:EfF:hIkl:KLMm:Op:PR:s:S:t:T:vWx:X:y:Y:Z"],
  ["new-session", "new", "Ac:dDe:EF:f:n:Ps:t:x:Xy:"],
  ["new-window", "neww", "abc:de:EF:kn:PSt:"],
  ["next-layout", "nextl", "t:"],
  ["next-window", "next", "at:"],
  ["paste-buffer", "pasteb", "db:prSs:t:"],
  ["pipe-pane", "pipep", "IOot:"],
  ["previous-layout", "prevl", "t:"],
  ["previous-window", "prev", "at:"],
  ["refresh-client", "refresh", "A:B:cC:Df:r:F:lLRSt:U"],
  ["rename-session", "rename", "t:"],
  ["rename-window", "renamew", "t:"],
  ["resize-pane", "resizep", "D::L::MR::Tt:U::x:y:Z"],
  ["resize-window", "resizew", "aADLRt:Ux:y:"],
  ["respawn-pane", "respawnp", "c:e:Ekt:"],
  ["respawn-window", "respawnw", "c:e:Ekt:"],
  ["rotate-window", "rotatew", "Dt:UZ"],
  ["run-shell", "run", "bd:Ct:Es:c:"],
  ["save-buffer", "saveb", "ab:"],
  ["select-layout", "selectl", "Enopt:"],
  ["select-pane", "selectp", "DdegLlMmP:RT:t:UZ"],
  ["select-window", "selectw", "lnpTt:"],
  ["send-keys", "send", "c:FHKlMN:Rt:X"],
  ["send-prefix", "", "2t:"],
  ["server-access", "", "adglrw"],
  ["set-buffer", "setb", "ab:t:n:w"],
  ["set-environment", "setenv", "Fhgrt:u"],
  ["set-hook", "", "agpERTt:uB:w"],
  ["set-option", "set", "aFgopqst:uUw"],
  ["set-window-option", "setw", "aFgoqt:u"],
  ["show-buffer", "showb", "b:"],
  ["show-environment", "showenv", "hgst:"],
  ["show-hooks", "", "BF:gpt:w"],
  ["show-messages", "showmsgs", "JTt:"],
  ["show-options", "show", "AgF:Hpqst:vw"],
  ["show-prompt-history", "showphist", "T:"],
  ["show-window-options", "showw", "F:gvt:"],
  ["source-file", "source", "t:Fnqv"],
  ["split-window", "splitw", "bB:c:de:EfF:hIkl:m:p:PR:s:S:t:T:vWZ"],
  ["start-server", "start", ""],
  ["suspend-client", "suspendc", "t:"],
  ["swap-pane", "swapp", "dDs:t:UZ"],
  ["swap-window", "swapw", "ds:t:"],
  ["switch-client", "switchc", "c:EFlnO:pt:rT:Z"],
  ["switch-mode", "", "F:kst:wZ"],
  ["unbind-key", "unbind", "anqT:"],
  ["unlink-window", "unlinkw", "kt:"],
  ["wait-for", "wait", "EF:LSUlvw:"],
];
/** The command aliases tmux defines by default (its command-alias option). */
const TMUX_ALIASES: Readonly<Record<string, readonly string[]>> = {
  "split-pane": ["split-window"],
  splitp: ["split-window"],
  "server-info": ["show-messages", "-JT"],
  info: ["show-messages", "-JT"],
  "choose-window": ["choose-tree", "-w"],
  "choose-session": ["choose-tree", "-s"],
};
/** Commands that start a program in a pane: their folder option, and whether the folder is known without it (the client's). */
const TMUX_SPAWNS: Readonly<Record<string, { folder: string; known: boolean }>> = {
  "new-session": { folder: "c", known: true },
  "new-window": { folder: "c", known: true },
  "split-window": { folder: "c", known: true },
  "new-pane": { folder: "c", known: true },
  "respawn-pane": { folder: "c", known: false },
  "respawn-window": { folder: "c", known: false },
  "display-popup": { folder: "d", known: false },
};
/** Commands that run tmux commands they are given as text (when given some). */
const TMUX_COMMAND_TEXT = new Set(["if-shell", "confirm-before", "command-prompt", "display-menu", "bind-key", "choose-buffer", "choose-client", "choose-tree", "switch-mode", "display-panes"]);
/** Commands that type keys into the program running in a pane. */
const TMUX_KEYS = new Set(["send-keys", "paste-buffer"]);
/** Options tmux may set without naming a command it runs later (no hook, default command, format or editor): on/off, numbers, keys. */
const TMUX_PLAIN_OPTIONS = new Set([
  "mouse", "history-limit", "base-index", "pane-base-index", "escape-time", "status", "mode-keys", "status-keys", "renumber-windows", "remain-on-exit",
  "aggressive-resize", "monitor-activity", "monitor-bell", "monitor-silence", "visual-activity", "visual-bell", "visual-silence", "focus-events", "default-terminal",
  "set-clipboard", "allow-rename", "automatic-rename", "prefix", "prefix2", "repeat-time", "display-time", "display-panes-time", "status-position", "status-interval",
  "status-justify", "bell-action", "activity-action", "silence-action", "destroy-unattached", "exit-empty", "exit-unattached", "detach-on-destroy", "set-titles",
  "synchronize-panes", "wrap-search", "xterm-keys", "clock-mode-style", "main-pane-width", "main-pane-height", "other-pane-width", "other-pane-height",
  "window-size", "buffer-limit", "message-limit", "extended-keys", "allow-passthrough", "alternate-screen", "lock-after-time", "word-separators",
]);

/** tmux's own options (getopt's letters). */
const TMUX_GLOBAL = "2c:CDdf:hlL:NqS:T:uUvV";

/** Is `text`, as a tmux format, one that runs or builds a command (`#(...)`, or `#{...}` with more than a variable's name)? */
function tmuxFormatRuns(text: string): boolean {
  for (let i = text.indexOf("#"); i >= 0; i = text.indexOf("#", i + 1)) {
    const next = text[i + 1];
    if (next === "#") {
      i++;
      continue;
    }
    if (next === "(") return true;
    if (next === "{" && !/^#\{[A-Za-z_][A-Za-z0-9_]*\}/.test(text.slice(i))) return true;
  }
  return false;
}

/** A tmux command's name as tmux finds it: an alias, the exact name, or the one name it is a prefix of. */
function tmuxCommand(name: string): readonly [string, string, string] | undefined {
  let found: readonly [string, string, string] | undefined;
  let ambiguous = false;
  for (const entry of TMUX_COMMANDS) {
    if (entry[1] !== "" && entry[1] === name) return entry;
    if (!entry[0].startsWith(name)) continue;
    if (found !== undefined) ambiguous = true;
    found = entry;
    if (entry[0] === name) break;
  }
  return ambiguous ? undefined : found;
}

/** A tmux command's arguments read by its flags (tmux's getopt): the flags with their values, and the other words. */
function tmuxFlags(template: string, args: ShellWord[]): { flags: Map<string, ShellWord[]>; positional: ShellWord[] } | Inner {
  const flags = new Map<string, ShellWord[]>();
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (!v.startsWith("-") || v === "-") break;
    if (v === "--") {
      i++;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      const at = /^[A-Za-z0-9]$/.test(c) ? template.indexOf(c) : -1;
      if (at < 0) return unknownOption(`-${c}`);
      const seen = flags.get(c) ?? [];
      flags.set(c, seen);
      if (template[at + 1] !== ":") continue;
      const optional = template[at + 2] === ":";
      if (k < v.length - 1) seen.push(withValue(w, v.slice(k + 1)));
      else {
        const next = args[i + 1];
        if (next && !(optional && next.value !== undefined && /^-[-A-Za-z]/.test(next.value))) {
          if (next.value === undefined) return unknownAt(next);
          seen.push(next);
          i++;
        } else if (!optional) return unknown({ id: "optionWithoutValue", data: { option: `-${c}` } });
      }
      break;
    }
  }
  return { flags, positional: args.slice(i) };
}

/** What one tmux command runs. */
function tmuxCommandInners(words: ShellWord[]): Inner[] {
  const first = words[0]!;
  const aliased = Object.hasOwn(TMUX_ALIASES, first.value!) ? [...TMUX_ALIASES[first.value!]!.map(word), ...words.slice(1)] : words;
  const entry = tmuxCommand(aliased[0]!.value!);
  if (entry === undefined) return [unknown({ id: "unknownSubcommand", data: { command: first.source } })];
  const [name, , template] = entry;
  const read = tmuxFlags(template, aliased.slice(1));
  if ("kind" in read) return [read];
  const { flags, positional } = read;
  const values = [...flags.values()].flat();
  const folderFlag = Object.hasOwn(TMUX_SPAWNS, name) ? TMUX_SPAWNS[name]!.folder : name === "run-shell" ? "c" : undefined;
  const folder = folderFlag === undefined ? undefined : flags.get(folderFlag)?.[0];
  if (folder && folder.value!.includes("#")) return [unknown({ id: "folderUnknown", data: { command: `${name} -${folderFlag!}` } })];
  // Flag values are formats, and so are most commands' arguments (a window's new name...); a spawned program's are not.
  const format = [...values, ...(Object.hasOwn(TMUX_SPAWNS, name) ? [] : positional)].find((w) => tmuxFormatRuns(w.value!));
  if (format) return [unknown({ id: "formatCommand", data: { source: format.source } })];
  const env = (flags.get("e") ?? []).map((w) => setting(w.value!));
  if (Object.hasOwn(TMUX_SPAWNS, name)) {
    if (positional.length === 0) return env.length > 0 ? [{ kind: "none", env }] : [{ kind: "none" }];
    if (folder === undefined && !TMUX_SPAWNS[name]!.known) return [unknown({ id: "folderUnknown", data: { command: name } })];
    // One word is a line for the shell; more are the program and its arguments. A folder tmux cannot enter leaves the program in the home folder.
    const kind = positional.length === 1 ? "script" : "argv";
    const folders: (RunsIn | undefined)[] = folder === undefined ? [undefined] : [{ dir: folder.value! }, { dir: "~" }];
    return folders.map((runsIn) => runs(kind, positional, { env, ...(runsIn ? { runsIn } : {}) }));
  }
  if (name === "run-shell") {
    if (flags.has("C")) return positional.length === 0 ? [{ kind: "none" }] : [unknown({ id: "commandText", data: { command: `${name} -C` } })];
    const line = positional[0];
    if (line === undefined) return [{ kind: "none" }];
    if (line.value!.includes("#")) return [unknown({ id: "formatCommand", data: { source: line.source } })];
    const folders: (RunsIn | undefined)[] = folder === undefined ? [undefined] : [{ dir: folder.value! }, { dir: "~" }];
    return folders.map((runsIn) => runs("script", [line], runsIn ? { runsIn } : {}));
  }
  if (name === "pipe-pane") return positional.length === 0 || positional[0]!.value === "" ? [{ kind: "none" }] : [unknown({ id: "folderUnknown", data: { command: name } })];
  if (name === "detach-client" && flags.has("E")) return [unknown({ id: "folderUnknown", data: { command: `${name} -E` } })];
  if (name === "source-file") return positional.map((p) => ({ kind: "hidden", why: { id: "scriptFile", data: { program: "tmux source-file", script: p.source } } }));
  if (TMUX_KEYS.has(name)) return [unknown({ id: "typesKeys", data: { command: name } })];
  if (TMUX_COMMAND_TEXT.has(name)) return positional.length === 0 ? [{ kind: "none" }] : [unknown({ id: "commandText", data: { command: name } })];
  if (name === "set-environment") {
    if (flags.has("F") && positional.some((p) => p.value!.includes("#"))) return [unknown({ id: "formatCommand", data: { source: positional[positional.length - 1]!.source } })];
    if (flags.has("u") || flags.has("r") || positional.length === 0) return [{ kind: "none" }];
    return [{ kind: "none", env: [{ name: positional[0]!.value!, value: positional[1]?.value ?? "" }] }];
  }
  if (name === "set-option" || name === "set-window-option" || name === "set-hook") {
    const option = positional[0]?.value ?? "";
    const plain = name !== "set-hook" && TMUX_PLAIN_OPTIONS.has(option.replace(/\[\d*\]$/, "")) && !positional.some((p) => p.value!.includes("#"));
    return plain || flags.has("u") || flags.has("U") ? [{ kind: "none" }] : [unknown({ id: "laterSettings", data: { command: `${name} ${option}`.trim() } })];
  }
  return [{ kind: "none" }];
}

/**
 * `tmux [options] [COMMAND [flags] [args] [; COMMAND...]]`, a list of tmux commands (an argument ending in an
 * unescaped `;` ends one). The commands that start a program in a pane (new-session, new-window,
 * split-window, respawn-pane, display-popup...) run one argument as a line for the shell and more as the
 * program and its arguments, with -e settings, in the folder -c names (the client's without it; tmux goes
 * to the home folder if it cannot enter it); respawn-pane and display-popup run it in the pane's or the
 * session's folder without one, and pipe-pane in the server's: refused. run-shell's line is a format:
 * refused if it holds one. Commands that run tmux commands given as text (if-shell, bind-key,
 * confirm-before...), type keys into a pane (send-keys, paste-buffer), set hooks, a default command or a
 * format (set-option), read a file of commands (source-file, -f), or take commands on standard input (-C)
 * are refused; so is a format that runs a command (`#(...)`). `tmux -c LINE` runs the line with the shell.
 */
export function tmuxInners(args: ShellWord[]): Inner[] {
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return [unknownAt(w)];
    if (!v.startsWith("-") || v === "-") break;
    if (v === "--") {
      i++;
      break;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      const at = TMUX_GLOBAL.indexOf(c);
      if (at < 0 || c === ":") return [unknownOption(`-${c}`)];
      if (c === "V" || c === "h") return [{ kind: "none" }];
      if (c === "C") return [{ kind: "hidden", why: { id: "standardInput", data: { program: "tmux -C" } } }];
      if (TMUX_GLOBAL[at + 1] !== ":") continue;
      const value = k < v.length - 1 ? withValue(w, v.slice(k + 1)) : args[++i];
      if (value === undefined) return [unknown({ id: "optionWithoutValue", data: { option: `-${c}` } })];
      if (value.value === undefined) return [unknownAt(value)];
      if (c === "f") return [unknown({ id: "configurationFile", data: { option: "-f" } })];
      if (c === "c") return [runs("script", [value], {})];
      break;
    }
  }
  // The list of commands: an argument ending in `;` ends one (`\;` is a `;` of the argument).
  const commands: ShellWord[][] = [];
  let current: ShellWord[] = [];
  for (const w of args.slice(i)) {
    const v = w.value;
    if (v === undefined) return [unknownAt(w)];
    let text = v;
    let end = false;
    if (text.endsWith(";")) {
      text = text.slice(0, -1);
      if (text.endsWith("\\")) text = `${text.slice(0, -1)};`;
      else end = true;
    }
    if (!end || text !== "") current.push(text === v ? w : withValue(w, text));
    if (end) {
      if (current.length > 0) commands.push(current);
      current = [];
    }
  }
  if (current.length > 0) commands.push(current);
  const inners = commands.flatMap(tmuxCommandInners);
  return inners.length > 0 ? inners : [{ kind: "none" }];
}

// ---------------------------------------------------------------------------------------------------
// screen

/** screen commands (-X, -Q) that run no program and type nothing into a window. */
const SCREEN_QUIET_COMMANDS = new Set(["quit", "detach", "kill", "windows", "info", "select", "title", "number", "lastmsg", "time", "version", "redisplay", "clear", "sessionname"]);
/** screen commands that type text into a window's program. */
const SCREEN_KEYS = new Set(["stuff", "paste", "readbuf", "register", "process", "slowpaste"]);

/**
 * `screen [options] [cmd [args]]`: runs the program in a new window, in the folder screen starts in (without
 * one, the shell -s names, or the user's). The options are read as screen reads them: clusters, values
 * glued or in the next word, `-S name`, `-d`/`-r`/`-x` with a session, `-ls`, `-wipe`, `-Logfile file`.
 * `-c FILE` reads a configuration file, whose commands may run programs: refused. `-X` (and `-Q`) send a
 * command to a running session: one that runs nothing is accepted; `stuff` and the like type keys into a
 * window, and the rest (`screen`, `exec`, `eval`, `source`...) run programs in a folder plangate does not know:
 * refused.
 */
export function screenInner(args: ShellWord[]): Inner {
  let shell: ShellWord | undefined;
  let session = false;
  let command = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return unknownAt(w);
    if (!v.startsWith("-")) break;
    if (v === "--") {
      i++;
      break;
    }
    if (v.startsWith("--version") || v.startsWith("--help") || v === "-v") return { kind: "none" };
    const remaining = args.length - i;
    const takeNext = (): ShellWord | Inner => {
      const next = args[++i];
      if (next === undefined) return { kind: "none" };
      return next.value === undefined ? unknownAt(next) : next;
    };
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (c === "v") return { kind: "none" };
      if ("aAPimOqUX46".includes(c)) {
        if (c === "X") command = true;
        continue;
      }
      if (c === "Q") {
        command = true;
        continue;
      }
      if (c === "p" || c === "c" || c === "e") {
        if (k === v.length - 1) {
          const next = takeNext();
          if ("kind" in next) return next;
        }
        if (c === "c") return unknown({ id: "configurationFile", data: { option: "-c" } });
        break;
      }
      if (c === "f") {
        if ("n0y1a".includes(v[k + 1] ?? "-")) k++;
        continue;
      }
      if (c === "l") {
        const sub = v[k + 1];
        if (sub === "s" || sub === "i") return { kind: "none" };
        if (sub !== undefined && "n0y1a".includes(sub)) k++;
        continue;
      }
      if (c === "w") {
        if (v.slice(k + 1) === "ipe") return { kind: "none" };
        return unknownOption(v);
      }
      if (c === "L") {
        if (v.slice(k + 1) === "ogfile") {
          const next = takeNext();
          if ("kind" in next) return next;
          break;
        }
        continue;
      }
      if (c === "h" || c === "t" || c === "T" || c === "s" || (c === "S" && !session)) {
        const next = takeNext();
        if ("kind" in next) return next;
        if (c === "s") shell = next;
        if (c === "S") session = true;
        continue;
      }
      if (c === "S") continue;
      if (c === "r" || c === "R" || c === "x") {
        const next = args[i + 1];
        if (next && next.value !== undefined && !next.value.startsWith("-") && !session) {
          session = true;
          i++;
        }
        continue;
      }
      if (c === "d" || c === "D") {
        const next = args[i + 1];
        if (remaining === 2 && next && next.value !== undefined && !next.value.startsWith("-") && !session) {
          session = true;
          i++;
        }
        continue;
      }
      return unknownOption(`-${c}`);
    }
  }
  const rest = args.slice(i);
  if (command) {
    const name = rest[0]?.value;
    if (rest.length === 0) return { kind: "none" };
    const late = lateWord(rest);
    if (late) return unknownAt(late);
    if (SCREEN_KEYS.has(name!)) return unknown({ id: "typesKeys", data: { command: `-X ${name!}` } });
    return SCREEN_QUIET_COMMANDS.has(name!) ? { kind: "none" } : unknown({ id: "commandText", data: { command: `-X ${name!}` } });
  }
  if (rest.length > 0) return { kind: "argv", words: rest };
  if (shell !== undefined) return { kind: "argv", words: [shell.value!.startsWith("-") ? withValue(shell, shell.value!.slice(1)) : shell] };
  return { kind: "none" };
}

// ---------------------------------------------------------------------------------------------------
// Programs that run a command they are given elsewhere, later, or by a grammar plangate does not follow.

/**
 * `ip [options] netns exec NAME cmd args...`: runs the program in the network namespace NAME, on this
 * machine's files, in the current folder. Other `ip` commands run nothing.
 */
export function ipInner(args: ShellWord[]): Inner {
  let i = 0;
  for (; i < args.length && args[i]!.value?.startsWith("-"); i++) {
    const v = args[i]!.value!;
    // ip's options that take a value (-n NETNS runs the command in that namespace too).
    if (/^-(?:f|family|l|loops|rc|rcvbuf|b|batch|n|netns)$/.test(v.replace(/^--/, "-"))) i++;
    if (/^-(?:b|batch|force)$/.test(v.replace(/^--/, "-"))) return { kind: "hidden", why: { id: "scriptFile", data: { program: "ip -batch", script: args[i]?.source ?? "-" } } };
  }
  const late = lateWord(args.slice(i, i + 3));
  if (late) return unknownAt(late);
  const [object, command] = [args[i]?.value ?? "", args[i + 1]?.value ?? ""];
  if (!"netns".startsWith(object) || object.length < 2 || !"exec".startsWith(command) || command === "") return { kind: "none" };
  const rest = args.slice(i + 3);
  return rest.length === 0 ? { kind: "none" } : { kind: "argv", words: rest };
}

/** perf's subcommands that run a program, and their options that take a value (the others are flags). */
const PERF_RUNS: Readonly<Record<string, ReadonlySet<string>>> = {
  stat: new Set(["-e", "--event", "-r", "--repeat", "-o", "--output", "-x", "--field-separator", "-C", "--cpu", "-G", "--cgroup", "-I", "--interval-print", "-M", "--metrics", "-D", "--delay"]),
  record: new Set(["-e", "--event", "-o", "--output", "-F", "--freq", "-c", "--count", "-C", "--cpu", "-G", "--cgroup", "-m", "--mmap-pages", "--call-graph", "-D", "--delay"]),
  trace: new Set(["-e", "--event", "--expr", "-o", "--output", "-C", "--cpu", "-G", "--cgroup", "-m", "--mmap-pages", "--duration", "--max-events"]),
};
const PERF_FLAGS = new Set(["-a", "--all-cpus", "-d", "--detailed", "-v", "--verbose", "-n", "--null", "-B", "--big-num", "-A", "--no-aggr", "-g", "-q", "--quiet", "-s", "--summary", "-S", "--with-summary", "--per-core", "--per-socket", "--per-thread", "-i", "--no-inherit"]);

/**
 * `perf stat|record|trace [options] [--] cmd args...`: runs the program; its options are read with their
 * values (one plangate does not know is refused, as it may take the next word). -p and -t attach to
 * running processes: nothing runs. Other subcommands run nothing.
 */
export function perfInner(args: ShellWord[]): Inner {
  const sub = args[0]?.value;
  if (sub === undefined) return args[0] ? unknownAt(args[0]) : { kind: "none" };
  const valued = Object.hasOwn(PERF_RUNS, sub) ? PERF_RUNS[sub]! : undefined;
  if (valued === undefined) return { kind: "none" };
  for (let i = 1; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknownAt(args[i]!);
    if (v === "--") return runs("argv", args.slice(i + 1), {});
    if (!v.startsWith("-")) return runs("argv", args.slice(i), {});
    const name = v.startsWith("--") ? v.replace(/=.*$/s, "") : v;
    if (PERF_FLAGS.has(name)) continue;
    if (/^-(?:p|t|-pid|-tid)$/.test(name)) return { kind: "none" };
    if (!valued.has(name)) return unknownOption(name);
    if (name === v) i++;
  }
  return { kind: "none" };
}

/**
 * Programs that run a command somewhere plangate does not see (a container, another root), later (a
 * daemon, a queue, a crontab), or by a grammar it does not follow (several command lines, placeholders):
 * refused when given one, with what to do instead. The value: the subcommands that run one (none: any
 * call with arguments does), and those that do under a group (`docker image build`).
 */
const ELSEWHERE: Readonly<Record<string, { subs?: readonly string[]; groups?: Readonly<Record<string, readonly string[]>>; id: "container" | "later" | "commandList" }>> = {
  docker: { subs: ["run", "exec", "create", "start", "restart", "unpause", "attach", "container", "compose", "buildx", "build", "debug"], groups: { image: ["build"], builder: ["build"], stack: ["deploy", "up"], service: ["create", "update"], plugin: ["install", "enable", "upgrade"] }, id: "container" },
  podman: { subs: ["run", "exec", "create", "start", "restart", "unpause", "attach", "container", "compose", "build", "buildx", "play", "kube", "unshare", "auto-update", "runlabel", "quadlet"], groups: { image: ["build"], farm: ["build"], machine: ["ssh"], pod: ["create", "clone", "start", "restart", "unpause"], healthcheck: ["run"] }, id: "container" },
  nerdctl: { subs: ["run", "exec", "create", "start", "restart", "unpause", "attach", "container", "compose", "build", "internal"], groups: { image: ["build"], builder: ["build"] }, id: "container" },
  "docker-compose": { id: "container" },
  "podman-compose": { id: "container" },
  "systemd-nspawn": { id: "container" },
  schroot: { id: "container" },
  fakechroot: { id: "container" },
  pm2: { subs: ["start", "restart", "reload", "startOrRestart", "startOrReload", "startOrGracefulReload", "ecosystem", "deploy", "trigger", "startup"], id: "later" },
  pueue: { subs: ["add", "edit", "restart"], id: "later" },
  crontab: { id: "later" },
  daemonize: { id: "later" },
  "start-stop-daemon": { id: "later" },
  concurrently: { id: "commandList" },
  chokidar: { id: "commandList" },
  "chokidar-cli": { id: "commandList" },
  onchange: { id: "commandList" },
  xterm: { id: "commandList" },
  "gnome-terminal": { id: "commandList" },
  konsole: { id: "commandList" },
  "x-terminal-emulator": { id: "commandList" },
};

/** Is the program one ELSEWHERE lists? */
export const runsElsewhere = (program: string): boolean => Object.hasOwn(ELSEWHERE, program);

/**
 * The options a container engine reads before its subcommand that take a value (`docker -H host run`,
 * `docker --context=x compose up`) and those that take none. After one it does not know, any later word
 * may be the subcommand. `reads`: the subcommands that start no container and run no program of the
 * plan's choosing (listing, pulling, stopping, removing, and the groups ELSEWHERE reads further); any other
 * one, a CLI plugin's among them (`docker debug`, `docker scout`), is refused.
 */
const ENGINE_OPTIONS: Readonly<Record<string, { valued: ReadonlySet<string>; flags: ReadonlySet<string>; reads: ReadonlySet<string> }>> = {
  docker: {
    valued: new Set(["-c", "--context", "-H", "--host", "-l", "--log-level", "--tlscacert", "--tlscert", "--tlskey"]),
    flags: new Set(["-D", "--debug", "--tls", "--tlsverify", "-h", "--help", "-v", "--version"]),
    reads: new Set(["ps", "images", "image", "pull", "push", "logs", "inspect", "login", "logout", "tag", "rmi", "rm", "stop", "kill", "pause", "version", "info", "search", "history", "port", "top", "stats", "events", "diff", "export", "import", "save", "load", "wait", "rename", "update", "cp", "commit", "help", "network", "volume", "system", "context", "builder", "stack", "service", "swarm", "node", "secret", "config", "trust", "manifest", "plugin", "completion"]),
  },
  podman: {
    valued: new Set(["-c", "--connection", "--url", "--identity", "--log-level", "--root", "--runroot", "--storage-driver", "--storage-opt", "--tmpdir", "--events-backend", "--cgroup-manager", "--imagestore", "--volumepath", "--out", "--ssh", "--db-backend", "--network-backend"]),
    flags: new Set(["-r", "--remote", "--syslog", "--noout", "--transient-store", "-h", "--help", "-v", "--version"]),
    reads: new Set(["ps", "images", "image", "pull", "push", "logs", "inspect", "login", "logout", "tag", "untag", "rmi", "rm", "stop", "kill", "pause", "version", "info", "search", "history", "port", "top", "stats", "events", "diff", "export", "import", "save", "load", "wait", "rename", "update", "cp", "commit", "help", "network", "volume", "system", "pod", "machine", "farm", "secret", "manifest", "generate", "healthcheck", "mount", "unmount", "umount", "init", "completion", "artifact"]),
  },
  nerdctl: {
    valued: new Set(["-a", "-H", "--address", "--host", "-n", "--namespace", "--snapshotter", "--storage-driver", "--cgroup-manager", "--data-root", "--hosts-dir", "--host-gateway-ip", "--bridge-ip"]),
    flags: new Set(["--debug", "--debug-full", "--insecure-registry", "--experimental", "-h", "--help", "-v", "--version"]),
    reads: new Set(["ps", "images", "image", "pull", "push", "logs", "inspect", "login", "logout", "tag", "rmi", "rm", "stop", "kill", "pause", "version", "info", "history", "port", "top", "stats", "events", "diff", "export", "import", "save", "load", "wait", "rename", "update", "cp", "commit", "help", "network", "volume", "system", "namespace", "builder", "completion", "apparmor"]),
  },
};

/**
 * The engines' options that name a program they run (an OCI runtime, conmon, a network helper, CNI
 * plugins, podman's `--ssh native`, which runs ssh; `--runtime-flag` passes the runtime options) or a file
 * or folder of settings that name one (docker's configuration folder, whose credential helpers and CLI
 * plugins it runs; podman's containers.conf modules, OCI hooks, CDI specifications, network
 * configurations, registries.conf and auth files with credential helpers). podman and nerdctl read them
 * after the subcommand too (`podman ps --runtime ./x`).
 */
const ENGINE_PROGRAM_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  docker: new Set(),
  podman: new Set(["--runtime", "--runtime-flag", "--conmon", "--network-cmd-path"]),
  nerdctl: new Set(["--cni-path"]),
};
const ENGINE_SETTINGS_OPTIONS: Readonly<Record<string, ReadonlySet<string>>> = {
  docker: new Set(["--config"]),
  podman: new Set(["--config", "--module", "--hooks-dir", "--cdi-spec-dir", "--network-config-dir", "--registries-conf", "--registries-conf-dir", "--authfile"]),
  nerdctl: new Set(["--cni-netconfpath", "--cdi-spec-dirs"]),
};

/**
 * The refusal for an engine's option that names a program or a file of settings that names one
 * (ENGINE_PROGRAM_OPTIONS, ENGINE_SETTINGS_OPTIONS; a storage option setting `mount_program`, podman's
 * `--ssh` other than `golang`, and docker's ssh:// host, which runs ssh) among `words` (before the
 * subcommand for docker, any of them for podman and nerdctl), or undefined.
 */
function engineProgramOption(program: string, words: readonly (string | undefined)[], before: number): Inner | undefined {
  const programs = ENGINE_PROGRAM_OPTIONS[program]!;
  const settings = ENGINE_SETTINGS_OPTIONS[program]!;
  const end = program === "docker" ? before : words.length;
  for (let i = 0; i < end; i++) {
    const v = words[i];
    if (v === undefined || !v.startsWith("-")) continue;
    if (v === "--") break;
    const name = v.startsWith("--") ? v.replace(/=.*$/s, "") : v;
    const value = name !== v ? v.slice(name.length + 1) : /^-[A-Za-z]./s.test(v) ? v.slice(2) : words[i + 1];
    if (settings.has(name)) return unknown({ id: "configurationFile", data: { option: name } });
    if (programs.has(name)) return unknown({ id: "namesProgram", data: { option: name } });
    if (program === "podman" && name === "--storage-opt" && (value === undefined || /mount_program/i.test(value))) return unknown({ id: "namesProgram", data: { option: `${name} ${value ?? ""}`.trim() } });
    if (program === "podman" && name === "--ssh" && value !== "golang") return unknown({ id: "namesProgram", data: { option: `${name} ${value ?? ""}`.trim() } });
    const short = v.slice(0, 2);
    if (program === "docker" && (name === "-H" || name === "--host" || short === "-H") && (value === undefined || !/^(?:unix|tcp|npipe|fd):/i.test(value)))
      return unknown({ id: "namesProgram", data: { option: `${name.startsWith("--") ? name : "-H"} ${value ?? ""}`.trim() } });
  }
  return undefined;
}

/**
 * Where the subcommand of a container engine stands among its words, past the options it reads before
 * it, or undefined after an option plangate does not know (a value or the subcommand may follow).
 */
function engineSubAt(program: string, words: readonly (string | undefined)[]): number | undefined {
  const spec = ENGINE_OPTIONS[program]!;
  for (let i = 0; i < words.length; i++) {
    const v = words[i];
    if (v === undefined || !v.startsWith("-") || v === "-") return i;
    if (v === "--") return i + 1;
    const name = v.startsWith("--") ? v.replace(/=.*$/s, "") : v;
    if (spec.flags.has(name)) continue;
    if (spec.valued.has(name)) {
      if (name === v) i++;
      continue;
    }
    // A short option with its value joined to it (`-Hunix:///run/x.sock`).
    if (/^-[A-Za-z]./s.test(v) && spec.valued.has(v.slice(0, 2))) continue;
    return undefined;
  }
  return words.length;
}

/**
 * Compose's subcommands that start no container: they list, show or render what the Compose file says,
 * pull its images, or stop and remove its containers. Every other one (`up`, `run`, `exec`, `create`,
 * `start`, `restart`, `unpause`, `build`, `watch`, `cp`...) runs one or a program in one, or may.
 */
const COMPOSE_READS = new Set(["ps", "logs", "top", "images", "ls", "version", "config", "port", "events", "stats", "help", "pull", "down", "stop", "kill", "rm", "pause"]);
/** Compose's options before its subcommand that take a value, in docker-compose, `docker compose` and podman-compose. */
const COMPOSE_VALUED = new Set(["-f", "--file", "-p", "--project-name", "--project-directory", "--env-file", "--profile", "--ansi", "--progress", "--parallel", "-c", "--context", "--log-level", "-H", "--host", "--tlscacert", "--tlscert", "--tlskey"]);
/** Compose's options before its subcommand that take none (podman-compose's `--podman-*` name a program or its arguments: not among them). */
const COMPOSE_FLAGS = new Set(["--compatibility", "--dry-run", "--all-resources", "--verbose", "--no-ansi", "--no-cleanup", "--tls", "--tlsverify", "--skip-hostname-check", "-h", "--help", "-v", "--version"]);

/**
 * `docker-compose [options] SUB ...`, `podman-compose`, and `docker|podman|nerdctl compose`: nothing
 * for a subcommand that starts no container (`ps`, `logs`, `config`...) or for no subcommand (help),
 * else the refusal, as `docker run`'s. An option plangate does not know is refused, as it may take the
 * next word.
 */
function composeInner(prefix: string, args: readonly ShellWord[]): Inner {
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!.value;
    if (v === undefined) return unknown({ id: "container", data: { command: `${prefix}${args[i]!.source}` } });
    if (!v.startsWith("-") || v === "-") return COMPOSE_READS.has(v) ? { kind: "none" } : unknown({ id: "container", data: { command: `${prefix}${v}` } });
    const name = v.startsWith("--") ? v.replace(/=.*$/s, "") : v;
    if (COMPOSE_FLAGS.has(name)) continue;
    if (COMPOSE_VALUED.has(name)) {
      if (name === v) i++;
      continue;
    }
    if (/^-[A-Za-z]./s.test(v) && COMPOSE_VALUED.has(v.slice(0, 2))) continue;
    return unknownOption(name);
  }
  return { kind: "none" };
}

/**
 * What such a program runs: nothing for a call that runs no command (`docker ps`, `crontab -l`, asking
 * for help or a version), else the refusal.
 */
export function elsewhereInner(program: string, args: ShellWord[]): Inner {
  const spec = ELSEWHERE[program]!;
  const words = args.map((w) => w.value);
  if (words.length === 0 || words.every((v) => v !== undefined && /^(?:-h|--help|-V|-v|--version|-l|--list)$/.test(v))) return { kind: "none" };
  if (program === "docker-compose" || program === "podman-compose") return composeInner("", args);
  if (Object.hasOwn(ENGINE_OPTIONS, program)) {
    const launches = (v: string | undefined) => v === undefined || spec.subs!.includes(v) || Object.values(spec.groups ?? {}).some((l) => l.includes(v));
    const at = engineSubAt(program, words);
    const rewired = engineProgramOption(program, words, at ?? words.length);
    if (rewired !== undefined) return rewired;
    if (at === undefined) {
      // After an option plangate does not know: any later word may be the subcommand.
      const j = words.findIndex((v, k) => k > 0 && launches(v));
      return j < 0 ? { kind: "none" } : unknown({ id: spec.id, data: { command: args[j]!.source } });
    }
    const sub = words[at];
    if (at >= words.length) return { kind: "none" };
    if (sub === "compose") return composeInner("compose ", args.slice(at + 1));
    const group = sub !== undefined && spec.groups !== undefined && Object.hasOwn(spec.groups, sub) ? spec.groups[sub]! : undefined;
    if (group !== undefined) {
      const next = args.slice(at + 1).find((w) => w.value === undefined || !w.value.startsWith("-"));
      return next !== undefined && (next.value === undefined || group.includes(next.value)) ? unknown({ id: spec.id, data: { command: `${sub} ${next.source}` } }) : { kind: "none" };
    }
    // A subcommand that starts no container; any other (`start`, a plugin's, one plangate does not know) may.
    return sub !== undefined && ENGINE_OPTIONS[program]!.reads.has(sub) ? { kind: "none" } : unknown({ id: spec.id, data: { command: sub ?? args[at]!.source } });
  }
  if (spec.subs !== undefined) {
    const sub = words.find((v) => v === undefined || !v.startsWith("-"));
    if (sub !== undefined && !spec.subs.includes(sub)) return { kind: "none" };
    return unknown({ id: spec.id, data: { command: sub ?? program } });
  }
  if (program === "crontab" && words.every((v) => v !== undefined && /^-[lriu]$|^-[^-]/.test(v) === true && v !== "-")) return { kind: "none" };
  return unknown({ id: spec.id, data: { command: program } });
}
