import type { ShellWord } from "../syntax/shell/types.js";

/*
 * Environment files: the `NAME=value` lines a program loads into its environment by itself before it runs
 * what it runs (bun, a framework's server, foreman, `flask run`, `pipenv run`) or when an option names them
 * (`node --env-file=app.env`), and that a project's script may source. A setting there is the same setting
 * on a command line (`NODE_OPTIONS=--require ./x.js cmd`, `LD_PRELOAD=x.so cmd`, `PATH=./evil:$PATH cmd`):
 * src/commands/written.ts judges the lines of each one the plan writes as that command line's settings.
 * The programs read these files by grammars of their own (dotenv's, python-dotenv's, Compose's, the
 * shell's when sourced): a line is read only when all of them read the same setting from it, and the file
 * is refused otherwise.
 */

/** A line every reader skips: blank, or a comment. */
const SKIPPED = /^[ \t]*(?:#.*)?$/;
/**
 * A setting every reader reads alike: an optional `export`, a shell variable's name at the start of the
 * line (an indented line may be a recipe's when make includes the file), `=` with no space around it, and
 * a value that is plain (no space, quote, backslash, backquote, `#` or shell syntax), in single quotes, or
 * in double quotes without a backslash, a quote or a backquote inside; then at most a comment after a space.
 */
const SETTING = /^(?:export[ \t]+)?([A-Za-z_][A-Za-z0-9_]*)=('[^'\n]*'|"[^"\\`\n]*"|[^\s'"\\`;&|<>()#]*)(?:[ \t]+#.*|[ \t]*)$/;
/** The expansions every reader that expands reads as a variable's value: `$NAME`, `${NAME}`, `${NAME:-word}` (`-`, `=`, `?`, `+`, with or without `:`). */
const PLAIN_EXPANSION = /\$(?:[A-Za-z_][A-Za-z0-9_]*|\{[A-Za-z_][A-Za-z0-9_]*(?::?[-=?+][^}\s$()]*)?\})/g;
/** Characters some readers take for the end of a line and others do not, or that no setting holds. */
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x85\u2028\u2029]/;

/**
 * An environment file's settings as a command line of assignments (one a line), as the shell would set
 * them: a value holding `$` in double quotes (`${HOME}` is expanded by some readers, so the value is
 * decided at run time), any other in single quotes. Or why the text is not read (`problem`): a line that
 * is neither a setting nor a comment, that readers read differently, or that holds a command some run.
 */
export function dotenvLine(text: string): { line: string } | { problem: string } {
  if (CONTROL.test(text)) return { problem: "it holds control characters, which programs that load environment files read differently" };
  const out: string[] = [];
  const lines = text.split(/\r\n|\r|\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (SKIPPED.test(line)) continue;
    const m = SETTING.exec(line);
    if (m === null)
      return {
        problem: `line ${i + 1} is not a NAME=value setting that the shell and the programs that load environment files read alike: a variable's name, =, and a plain value or one in quotes, without spaces, backslashes or backquotes outside quotes`,
      };
    const raw = m[2]!;
    const value = raw.startsWith("'") || raw.startsWith('"') ? raw.slice(1, -1) : raw;
    // `$(cmd)` (dotenvx, a shell that sources the file), `$(shell cmd)` and `${shell cmd}` (make, which may include it) run a command.
    if (/\$[({]/.test(value.replace(PLAIN_EXPANSION, "")))
      return { problem: `line ${i + 1} holds $( or \${ other than a variable's value: a command that dotenvx, make or a shell sourcing the file runs` };
    out.push(`${m[1]}=${value.includes("$") ? `"${value.replace(/["\\`]/g, "\\$&")}"` : `'${value.replace(/'/g, "'\\''")}'`}`);
  }
  return { line: out.join("\n") };
}

/**
 * The options through which a program loads environment files it is given: `bare`, the file an option
 * without a value loads (deno's `--env-file`, whose value only follows an `=`); `list`, a value naming
 * several files, split by commas (foreman's `-e a.env,b.env`).
 */
const ENV_FILE_OPTIONS: Readonly<Record<string, { options: readonly string[]; bare?: string; list?: true }>> = {
  node: { options: ["--env-file", "--env-file-if-exists"] },
  tsx: { options: ["--env-file", "--env-file-if-exists"] },
  bun: { options: ["--env-file"] },
  deno: { options: ["--env-file", "--env"], bare: ".env" },
  uvicorn: { options: ["--env-file"] },
  flask: { options: ["-e", "--env-file"] },
  foreman: { options: ["-e", "--env"], list: true },
  honcho: { options: ["-e", "--env"], list: true },
  forego: { options: ["-e"], list: true },
  "docker-compose": { options: ["--env-file"] },
  "podman-compose": { options: ["--env-file"] },
};

/**
 * The environment files a program's options name (`node --env-file=app.env`), wherever the options stand;
 * `text` undefined for a name decided at run time, or read from standard input.
 */
export function envFilesOf(name: string, args: readonly ShellWord[]): { text: string | undefined; word: ShellWord; option: string }[] {
  const spec = ENV_FILE_OPTIONS[name] ?? ENV_FILE_OPTIONS[name.replace(/[0-9][0-9.]*$/, "")];
  if (spec === undefined) return [];
  const out: { text: string | undefined; word: ShellWord; option: string }[] = [];
  const add = (value: string | undefined, word: ShellWord, option: string) => {
    for (const v of value === undefined ? [undefined] : spec.list ? value.split(",") : [value]) out.push({ text: v === undefined || v === "-" || v === "/dev/stdin" ? undefined : v, word, option });
  };
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === "--") break;
    if (v === undefined) continue;
    for (const o of spec.options) {
      if (v === o) {
        if (spec.bare !== undefined) add(spec.bare, w, o);
        else if (args[i + 1] !== undefined) add(args[++i]!.value, args[i]!, o);
      } else if (v.startsWith(`${o}=`)) add(v.slice(o.length + 1), w, o);
      // A short option's value joined to it (`-eapp.env`).
      else if (o.length === 2 && v.startsWith(o) && v.length > 2) add(v.slice(2), w, o);
      else continue;
      break;
    }
  }
  return out;
}
