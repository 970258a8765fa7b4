import { isDollarObject, readArgument, unwrapLiterals } from "../core/constraints.js";
import { compiledFor } from "../core/compiled.js";
import { TOOL_CALL_DIALECTS } from "../core/dialect-groups.js";
import type { PlanFacts } from "../core/facts.js";
import type { Plan, Step } from "../core/plan.js";
import { childPointer, type Pointer } from "../core/pointer.js";
import type { Policy } from "../core/policy.js";
import type { ShellReader } from "../syntax/shell/parse.js";
import { shellJoin, shellQuote } from "../syntax/shell/quote.js";
import type { CommandFinding, CommandMode, CommandReport } from "./analyse.js";

/** Arguments that hold a shell command line, by name without case or separators (keyName): `shell_command`, `shellCommand`, `cmd-line`. */
export const COMMAND_KEYS = new Set([
  "command", "cmd", "script", "shellcommand", "commandline", "bashcommand", "cmdline",
  // What runners, CI files and agent tools call the line they run: `{run: "make"}`, `{exec: ...}`, `{shell: ...}`.
  "run", "exec", "execute", "shell", "sh", "bash", "zsh", "shellscript", "bashscript", "commandstring", "commandtorun",
  // A container's entry point, a Makefile-like recipe, keys typed into a terminal, a systemd unit's lines.
  "entrypoint", "recipe", "keystrokes", "execstart", "execstartpre", "execstartpost", "execstop", "execstoppost", "execreload", "execcondition",
]);

/** Command keys that may instead name the shell that runs a command beside them (`shell: "/bin/bash"`). */
const SHELL_KEYS = new Set(["shell", "sh", "bash", "zsh"]);
/**
 * A POSIX shell named by its name or path, alone: what runs a command line, not a line (`bash`,
 * `/bin/zsh`). Another shell (`fish`, `pwsh`, `cmd.exe`) would read the line in a language plangate does
 * not read, so its name is read as a line and refused.
 */
const SHELL_PROGRAM = /^\s*(?:\/[^\s]*\/)?(?:ba|da|z|k|a)?sh\s*$/;

/** Arguments that hold a list of command lines, each run by itself: `{commands: ["npm ci", "npm test"]}`. */
const LINES_KEYS = new Set(["commands", "cmds", "scripts", "shellcommands", "bashcommands", "runcommands", "commandlines", "cmdlines", "recipes", "entrypoints"]);

/** Names ending in `script` that name a language or a kind of text, not a script to run. */
const NOT_SCRIPT = /(?:java|type|coffee|action|apple|post|tran|manu|sub|super|de)scripts?$/;
/** Names ending in `hook` or `hooks` that hold no command line (a URL to call). */
const NOT_HOOK = /webhooks?$/;
/** Events after `on` (`on_success`, `onFailure`, `on-exit`) whose argument is a command line to run then. */
const ON_EVENT = /^on(?:success|failure|fail|failed|error|exit|complete|completion|finish|finished|done|start|stop|cancel|timeout|save|change|changes)$/;

/**
 * Is a key (as keyName gives it) one that holds a command line: one of COMMAND_KEYS, or a name that ends in
 * `command` or `cmd` (`test_command`, `buildCmd`, `preCommand`), but for a git-like `subcommand`; or one that
 * ends in `script` (`before_script`, `after_script`, `setup_script`), but for a language (`javascript`) or
 * `postscript`; or an event handler (`on_success`, `onFailure`).
 */
export function holdsCommandLine(k: string): boolean {
  return (
    COMMAND_KEYS.has(k) ||
    ((k.endsWith("command") || k.endsWith("cmd") || k.endsWith("commandline")) && !k.endsWith("subcommand") && !k.endsWith("subcmd")) ||
    (k.endsWith("script") && !NOT_SCRIPT.test(k)) ||
    ON_EVENT.test(k) ||
    COMMAND_WORDS.has(k) ||
    COMMAND_PHRASE.test(k) ||
    (SCRIPT_TEXT.test(k) && !NOT_SCRIPT.test(k.replace(SCRIPT_TEXT, "script")))
  );
}

/** Single words for a line a program runs as a child process (`{subprocess: "make"}`, `{popen: ...}`). */
const COMMAND_WORDS = new Set(["subprocess", "popen", "spawn", "oneliner", "shellexec", "systemcall"]);
/**
 * Names that say a line runs by a phrase: a line to run (`cmd_to_run`, `script_to_run`), a shell's line or
 * snippet (`shell_line`, `bash_snippet`, `sh_code`), and the lifecycle hooks of package managers, CI
 * files and git, which hold command lines run before or after an event (`post_install`, `pre_build`, `pre_commit`).
 */
const COMMAND_PHRASE = /^(?:(?:cmd|command|script|shell|line)torun|(?:shell|bash|sh|zsh)(?:line|lines|snippet|code|text|string|str|input)|(?:pre|post)(?:install|build|test|start|stop|deploy|commit|push|run|exec|uninstall|publish|pack|version|prepare|checkout|merge|rewrite|receive|update|create|destroy|apply))$/;
/** The text of a script (`script_body`, `scriptText`, `script_source`): the script itself. */
const SCRIPT_TEXT = /script(?:body|text|content|contents|source|code)$/;

/**
 * Is a key (as keyName gives it) one whose value is command lines each run by itself: LINES_KEYS, a name
 * ending in `scripts` (`setup_scripts`), or `hook`/`hooks` (`hooks: {pre: "make"}`, `post_hooks`), but for
 * a `webhook`. A map there names its lines (`scripts: {build: "tsc"}`).
 */
export function holdsCommandLines(k: string): boolean {
  return LINES_KEYS.has(k) ||
    // `command_list`, `commands_to_run`, `cmds_to_run`, `cmd_list`: lines by their first or last word.
    k.startsWith("commands") || k.startsWith("cmds") || k.endsWith("commandlist") || k.endsWith("cmdlist") || (k.startsWith("command") && k.endsWith("list")) || (k.endsWith("scripts") && !NOT_SCRIPT.test(k)) || ((k.endsWith("hook") || k.endsWith("hooks")) && !NOT_HOOK.test(k));
}

/**
 * Languages of a code argument (`{language: "bash", code: "..."}`) that are shell command lines: the
 * bash-like ones are read as such; the others are read as the shell run with the code (`pwsh -c CODE`),
 * which the command rules judge as a shell plangate does not read.
 */
const SHELL_LANGUAGES = new Set(["bash", "sh", "shell", "zsh", "ksh", "dash", "ash", "posix", "shellscript", "shellsession", "console", "terminal"]);
const OTHER_SHELLS = new Set(["powershell", "pwsh", "ps1", "cmd", "bat", "batch", "fish", "nu", "nushell", "csh", "tcsh", "elvish", "xonsh"]);
/**
 * Languages of a code argument that an interpreter runs (`{language: "python", code: "..."}`): read as
 * the interpreter given the code on its line (`python -c CODE`), which the command rules refuse unless
 * the policy's `commands.inlineCode` names it (and commands.deny may deny the interpreter).
 */
const INTERPRETED_LANGUAGES: ReadonlyMap<string, readonly string[]> = new Map(
  (
    [
      [["python", "python3", "python2", "py", "ipython", "ipython3"], ["python", "-c"]],
      [["javascript", "js", "node", "nodejs", "ecmascript", "mjs", "cjs", "typescript", "ts"], ["node", "-e"]],
      [["perl", "pl"], ["perl", "-e"]],
      [["ruby", "rb"], ["ruby", "-e"]],
      [["php"], ["php", "-r"]],
      [["lua"], ["lua", "-e"]],
      [["r", "ir"], ["Rscript", "-e"]],
      [["julia"], ["julia", "-e"]],
      [["applescript", "osascript"], ["osascript", "-e"]],
      [["elixir"], ["elixir", "-e"]],
      [["groovy"], ["groovy", "-e"]],
    ] as const
  ).flatMap(([names, line]) => names.map((n) => [n, line] as const)),
);
/** Names of an argument that says which language a code argument beside it is in. */
const LANGUAGE_KEYS = new Set(["language", "lang", "kernel", "interpreter", "runtime", "shelltype"]);
/** Names of the code argument beside a language (`execute_code {language: "shell", code: "..."}`). */
const CODE_KEYS = new Set(["code", "source", "sourcecode", "snippet", "cell", "input"]);

/** Names of the code argument beside an interpreted language (INTERPRETED_LANGUAGES). */
const INTERPRETED_CODE_KEYS = new Set(["code", "sourcecode", "snippet", "cell"]);

/** A key as COMMAND_KEYS, PROGRAM_KEYS and ARGV_KEYS name it: lower case, without `_`, `-`, `.` or spaces. */
export function keyName(key: string): string {
  return /[A-Z_.\- ]/.test(key) ? key.toLowerCase().replace(/[_.\- ]/g, "") : key;
}
/** Arguments that name one program to run (an argument vector's first word). */
const PROGRAM_KEYS = new Set(["program", "executable"]);
/** Arguments that may name the program of an argument vector beside them (ARGV_KEYS): `file` as execFile names it, `prog`, `binary`. */
const MAYBE_PROGRAM_KEYS = new Set(["file", "prog", "progname", "programname", "programpath", "binary", "binarypath", "bin", "binpath", "exe", "exepath", "executablepath", "executablename"]);
/** Arguments that hold the rest of the argument vector of the command or program beside them. */
const ARGV_KEYS = new Set(["args", "argv", "arguments", "execargs", "execargv", "runargs", "runargv", "spawnargs", "spawnargv", "commandargs", "commandargv", "cmdargs", "cmdargv"]);


/** Does an argument name hold a command line, a program, an argument vector or lines of commands (read by the command rules, not as text)? */
export function isCommandArgument(key: string): boolean {
  const kind = keyKind(key);
  return kind !== KeyKind.None && kind !== KeyKind.Language;
}

/** One command-bearing argument of a step, as the shell would read it. */
export interface StepCommand {
  step: Step;
  /** Pointer to the argument (for `args` beside `command`, the `command`). */
  at: Pointer;
  /** The argument's name, for messages. */
  name: string;
  /** The command line: the text, or an argument vector quoted into one. */
  text?: string;
  /** Why the argument cannot be a command line (a list of non-strings): parse-error's finding. */
  invalid?: CommandFinding<"parse-error">;
  mode: CommandMode;
  /**
   * For a line joined from a command and the argument vector beside it, where each piece is in `text`
   * (the command first): a finding is reported at the piece its command starts in.
   */
  parts?: CommandPart[];
}

/** A piece of a joined command line: the argument (or list member) it came from and its offsets in the line. */
export interface CommandPart {
  at: Pointer;
  start: number;
  end: number;
}

export interface AnalysedCommand {
  command: StepCommand;
  report: CommandReport;
}

const FOUND = Symbol("command lines");
const ANALYSED = Symbol("analysed command lines");

/** The command-bearing arguments of a plan's steps (cheap: no parser is loaded), found once per validation. */
export function commandsOf(plan: Plan, facts: PlanFacts): StepCommand[] {
  return facts.derive(FOUND, plan, () => {
    const out: StepCommand[] = [];
    const schemas = facts.tools?.schemas;
    for (const step of plan.steps) collect(plan, step, out, schemas);
    return out;
  });
}

const LIST_NOT_STRINGS: CommandFinding<"parse-error"> = { rule: "parse-error", messageId: "listNotStrings", data: {} };
const NOT_COMMAND_LINE: CommandFinding<"parse-error"> = { rule: "parse-error", messageId: "notCommandLine", data: {} };

function argvText(value: unknown): { text?: string; invalid?: CommandFinding<"parse-error"> } {
  if (typeof value === "string") return { text: value };
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === "string")) return { text: shellJoin(value as string[]) };
    return { invalid: LIST_NOT_STRINGS };
  }
  return {};
}

function collect(plan: Plan, step: Step, out: StepCommand[], schemas: ReadonlyMap<string, unknown> | undefined): void {
  if (plan.dialect === "teddy") {
    if (step.tool === "EXECUTE" && typeof step.args.command === "string")
      out.push({ step, at: childPointer(step.argsAt, "command"), name: "command", text: step.args.command, mode: "chain" });
    return;
  }
  if (!TOOL_CALL_DIALECTS.includes(plan.dialect)) return;
  const schema = step.tool === undefined ? undefined : schemas?.get(step.tool);
  readObject(step, step.args, step.argsAt, out, 0, schema !== null && typeof schema === "object" ? schemaCommandNames(schema) : NO_NAMES);
}

const NO_NAMES: ReadonlySet<string> = new Set();
/**
 * What a tool's inputSchema says is a shell command line in a property's description or title
 * (`"build": {"type": "string", "description": "Shell command that builds the project"}`): the registry
 * is the operator's, so a tool that names its line `build` or `task` is read as it says. A shell's line by
 * any noun (`bash one-liner`, `shell cmd`), a command or script said to run in any voice (`Command to be
 * executed`, `Commands executed by the runner`, `cmd to run`), something run by a shell (`Executed in a
 * shell`, `passed to sh -c`), a command line, or a build's, a test's or an install's command.
 */
const DESCRIBED_COMMAND = new RegExp(
  [
    String.raw`\b(?:shell|bash|sh|zsh|terminal|posix|console)[\s-]+(?:commands?|cmds?|scripts?|lines?|snippets?|one-?liners?|code|strings?|invocations?|expressions?)\b`,
    String.raw`\bone-?liners?\b`,
    String.raw`\bcommands?\s+(?:the|a|an)\s+[\w-]+\s+(?:(?:will|would|should|must|can|may)\s+)?(?:runs?|executes?|evaluates?|invokes?|spawns?)\b`,
    String.raw`\b(?:commands?|cmds?|scripts?|command[- ]?lines?|invocations?)(?:\s+(?:for|by)\s+(?:the\s+|an?\s+)?[\w-]+)?\s+(?:(?:to|that|which)\s+)?(?:(?:will|gets?|is|are|shall|should|must|can|may)\s+)?(?:be\s+)?(?:runs?|ran|running|executed?|executes|executing|evaluated|invoked|spawned|launched)\b`,
    String.raw`\b(?:runs?|executed?|executes|evaluated|invoked|interpreted|passed)\s+(?:in|with|through|by|via|using|under|to)\s+(?:an?\s+|the\s+)?(?:\/[\w/]*\/)?(?:shell|bash|sh|zsh)\b`,
    String.raw`\b(?:sh|bash|zsh)\s+-c\b`,
    String.raw`\b(?:build|test|install|setup|start|startup|deploy|lint|compile|launch|init|cleanup|teardown|executable|exec|(?:pre|post)[- ]?(?:install|build|test|start|deploy|commit|push|run|exec))\s+commands?\b`,
    String.raw`\bcommand[- ]?lines?\b(?![- ](?:arguments?|args|flags?|options?|parameters?|params|switch|switches|tools?|interfaces?|utilit|programs?|clients?|apps?|applications?))`,
  ].join("|"),
  "gi",
);
/** Words before a match that make the command the object of another noun (`Timeout for the command to run`, `Output of the shell command`): the property is not the command. */
const ABOUT_A_COMMAND = /\b(?:for|of|in|into|to|by|with|from|before|after|while|when|during|about|on|under|whether|if|than)\s+(?:(?:the|a|an|this|that|each|every|its|their|any|which)\s+)?$/i;

/** Does a description or title say its property is a shell command line (not one it is about)? */
function describesCommand(text: unknown): boolean {
  if (typeof text !== "string" || text.length > 4096) return false;
  DESCRIBED_COMMAND.lastIndex = 0;
  for (let m = DESCRIBED_COMMAND.exec(text); m !== null; m = DESCRIBED_COMMAND.exec(text)) {
    if (!ABOUT_A_COMMAND.test(text.slice(Math.max(0, m.index - 40), m.index))) return true;
    if (m[0].length === 0) DESCRIBED_COMMAND.lastIndex++;
  }
  return false;
}

/** Schemas inside a schema (`items`, `anyOf`, `additionalProperties`...), whose properties are read too. */
const SUBSCHEMA_KEYS = ["items", "additionalProperties", "anyOf", "oneOf", "allOf", "prefixItems", "not", "if", "then", "else", "contains"];
const DEFINITION_KEYS = ["$defs", "definitions", "patternProperties", "properties"];

/**
 * The properties of an inputSchema that it describes as shell command lines, once per schema object: at
 * any depth (`options.properties.build`, `items.properties.cmd`, `$defs`), by the property's own
 * description or title, its items' (a list of command lines), its alternatives' (`anyOf`) or those of
 * a definition its `$ref` names in the schema. The names are read at every depth of a step's arguments.
 */
export function schemaCommandNames(schema: object): ReadonlySet<string> {
  return compiledFor("command-names", schema, () => {
    const names = new Set<string>();
    const root = schema as Record<string, unknown>;
    let budget = 4096;
    const resolve = (node: unknown): unknown => {
      const ref = (node as { $ref?: unknown } | null)?.$ref;
      if (typeof ref !== "string" || !ref.startsWith("#/")) return undefined;
      let at: unknown = root;
      for (const part of ref.slice(2).split("/")) at = at !== null && typeof at === "object" ? (at as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined;
      return at;
    };
    const says = (node: unknown, depth: number): boolean => {
      if (node === null || typeof node !== "object" || depth > 4 || --budget < 0) return false;
      const n = node as Record<string, unknown>;
      if (describesCommand(n.description) || describesCommand(n.title)) return true;
      if (says(resolve(n), depth + 1) || says(n.items, depth + 1)) return true;
      for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(n[k]) && (n[k] as unknown[]).some((m) => says(m, depth + 1))) return true;
      return false;
    };
    const walk = (node: unknown, depth: number): void => {
      if (node === null || typeof node !== "object" || depth > 16 || --budget < 0) return;
      if (Array.isArray(node)) {
        for (const m of node) walk(m, depth + 1);
        return;
      }
      const n = node as Record<string, unknown>;
      for (const key of DEFINITION_KEYS) {
        const props = n[key];
        if (props === null || typeof props !== "object" || Array.isArray(props)) continue;
        for (const [k, v] of Object.entries(props)) {
          if (key === "properties" && says(v, 0)) names.add(k);
          walk(v, depth + 1);
        }
      }
      for (const key of SUBSCHEMA_KEYS) walk(n[key], depth + 1);
    };
    walk(schema, 0);
    return names.size === 0 ? NO_NAMES : names;
  });
}

/**
 * The command-bearing arguments of one object of a step's arguments: the step's own, or one deeper in
 * them (`{options: {program: "rm", args: ["x"]}}`), read alike: a command or program with the argument
 * vector beside it, or an argument vector alone; then the objects inside it.
 */
/** What an argument key holds: nothing of a command, a command line, a program, an argument vector, a list of lines. */
const enum KeyKind {
  None,
  Command,
  Program,
  Argv,
  Lines,
  /** The language of a code argument beside it (`{language: "bash", code: "..."}`). */
  Language,
}
const kindMemo = new Map<string, KeyKind>();
/** The kind of an argument key (see holdsCommandLine, PROGRAM_KEYS, ARGV_KEYS, holdsCommandLines, LANGUAGE_KEYS), decided once per key. */
function keyKind(key: string): KeyKind {
  let kind = kindMemo.get(key);
  if (kind === undefined) {
    const k = keyName(key);
    kind = holdsCommandLine(k) ? KeyKind.Command : PROGRAM_KEYS.has(k) ? KeyKind.Program : ARGV_KEYS.has(k) ? KeyKind.Argv : holdsCommandLines(k) ? KeyKind.Lines : LANGUAGE_KEYS.has(k) ? KeyKind.Language : KeyKind.None;
    if (kindMemo.size < 4096) kindMemo.set(key, kind);
  }
  return kind;
}

function readObject(step: Step, args: Record<string, unknown>, argsAt: Pointer, out: StepCommand[], depth: number, described: ReadonlySet<string> = NO_NAMES): void {
  let argv: { key: string; value: unknown } | undefined;
  const heads: { key: string; program: boolean }[] = [];
  let shell: string | undefined;
  const keys = Object.keys(args);
  for (const key of keys) {
    const kind = described.has(key) ? (Array.isArray(args[key]) ? KeyKind.Lines : KeyKind.Command) : keyKind(key);
    const value = args[key];
    if (kind === KeyKind.None) {
      if (Array.isArray(value) && (value[0] === "CMD-SHELL" || value[0] === "CMD") && value.length > 1 && value.every((v) => typeof v === "string")) {
        // A container's health check: `["CMD-SHELL", "line"]` is run by a shell, `["CMD", "prog", ...]` as an argument vector.
        const rest = value.slice(1) as string[];
        out.push({ step, at: childPointer(argsAt, key), name: key, text: value[0] === "CMD" ? shellJoin(rest) : rest.join(" "), mode: "single" });
      }
    } else if (kind === KeyKind.Command) {
      // `{command: "ls", shell: "/bin/bash"}`: a shell's name under a shell's key names the program that
      // runs the line, not a line (a one-word line under `run` or `cmd` is still read).
      if (SHELL_KEYS.has(keyName(key)) && typeof value === "string" && SHELL_PROGRAM.test(value)) continue;
      // A script's list is lines run one by one (`before_script: ["npm ci", "npm test"]`), and an argument
      // vector too when its first member is a program's name.
      if (keyName(key).endsWith("script") && Array.isArray(value) && value.every((v) => typeof v === "string")) {
        lines(step, key, childPointer(argsAt, key), value, out);
        if (value.length > 1 && !/\s/.test(value[0] as string)) out.push({ step, at: childPointer(argsAt, key), name: key, text: shellJoin(value as string[]), mode: "single" });
      } else heads.push({ key, program: false });
    } else if (kind === KeyKind.Program) heads.push({ key, program: true });
    else if (kind === KeyKind.Argv) argv ??= { key, value };
    else if (kind === KeyKind.Lines) lines(step, key, childPointer(argsAt, key), value, out);
    else if (typeof value === "string") {
      const lang = value.trim().toLowerCase();
      if (SHELL_LANGUAGES.has(lang) || OTHER_SHELLS.has(lang) || INTERPRETED_LANGUAGES.has(lang)) shell = lang;
    }
  }
  if (shell !== undefined)
    for (const key of keys) {
      const value = args[key];
      // An interpreter's code is taken from the keys that hold nothing else: `source` and `input` beside a language may be a filter's or a formatter's.
      if (typeof value === "string" && (INTERPRETED_LANGUAGES.has(shell) ? INTERPRETED_CODE_KEYS.has(keyName(key)) : CODE_KEYS.has(keyName(key))))
        out.push({ step, at: childPointer(argsAt, key), name: key, text: SHELL_LANGUAGES.has(shell) ? value : shellJoin([...(INTERPRETED_LANGUAGES.get(shell) ?? [shell, "-c"]), value]), mode: "single" });
    }
  // An argument vector beside a key that may name its program (`{file: "sh", args: ["-c", "..."]}`, as
  // execFile and execa take them; `prog`, `binary`, `exe`): read both as that program's and alone.
  let alsoAlone = false;
  if (heads.length === 0 && argv) {
    const named = keys.find((k) => MAYBE_PROGRAM_KEYS.has(keyName(k)) && typeof args[k] === "string");
    if (named !== undefined) {
      heads.push({ key: named, program: true });
      alsoAlone = true;
    }
  }
  for (const [i, h] of heads.entries()) {
    let value = args[h.key];
    if (isDollarObject(value)) {
      // An argument constraint: a `$literal` is the line itself; each `$enum` member is a line of its
      // own, checked as a command; `$glob` and `$regex` are judged by constrainedCommands().
      const r = readArgument(value);
      if ("literal" in r) value = unwrapLiterals(r.literal);
      else {
        if ("constraint" in r && r.constraint.kind === "$enum") {
          const at = childPointer(childPointer(argsAt, h.key), "$enum");
          r.constraint.values.forEach((member, j) => {
            const m = unwrapLiterals(member);
            const t = h.program && typeof m === "string" ? { text: shellQuote(m) } : argvText(m);
            const sc: StepCommand = { step, at: childPointer(at, j), name: h.key, mode: "single" };
            if (t.text !== undefined) sc.text = t.text;
            else sc.invalid = t.invalid ?? NOT_COMMAND_LINE;
            out.push(sc);
          });
        }
        continue;
      }
    }
    const head = h.program && typeof value === "string" ? { text: shellQuote(value) } : argvText(value);
    if (head.text === undefined && head.invalid === undefined) {
      if (value !== null && typeof value === "object") nested(step, childPointer(argsAt, h.key), value, out, depth, described);
      continue;
    }
    const sc: StepCommand = { step, at: childPointer(argsAt, h.key), name: h.key, mode: "single" };
    if (head.invalid !== undefined) sc.invalid = head.invalid;
    else if (head.text !== undefined) {
      sc.text = head.text;
      // The argument vector beside the first command belongs to it: `{cmd: git, args: [push, --force]}`.
      if (i === 0 && argv) {
        const rest = argvText(argv.value);
        if (rest.invalid !== undefined) sc.invalid = { rule: "parse-error", messageId: "argvBesideNotStrings", data: { key: argv.key } };
        else if (rest.text !== undefined && rest.text !== "") {
          sc.parts = joinedParts(sc.at, head.text.length, childPointer(argsAt, argv.key), argv.value);
          sc.text = head.text + " " + rest.text;
        }
      }
    }
    out.push(sc);
  }
  if (argv && (heads.length === 0 || alsoAlone)) alone(step, argv.key, childPointer(argsAt, argv.key), argv.value, out);
  for (const key of keys) {
    const value = args[key];
    if (value !== null && typeof value === "object" && (keyKind(key) === KeyKind.None || keyKind(key) === KeyKind.Argv || keyKind(key) === KeyKind.Language))
      nested(step, childPointer(argsAt, key), value, out, depth, described);
  }
}

/**
 * A list of command lines (LINES_KEYS): each string is a line of its own, each object read as the step's
 * own arguments (`{commands: [{run: "make"}]}`); a single string is one line; a map's values are lines
 * as a list's members are (`{scripts: {test: "vitest"}}`). An argument constraint
 * there is judged as a command's: a `$literal` is the line or the list, each `$enum` member a line.
 */
function lines(step: Step, key: string, at: Pointer, raw: unknown, out: StepCommand[], depth = 0): void {
  if (depth > 32) return;
  const read = admitted(
    raw,
    at,
    (member, where) => lines(step, key, where, member, out),
    () => out.push({ step, at, name: key, mode: "single", invalid: NOT_COMMAND_LINE }),
  );
  if (read === undefined) return;
  const value = read.value;
  if (typeof value === "string") {
    out.push({ step, at, name: key, text: value, mode: "single" });
    return;
  }
  if (value === null || typeof value !== "object") return;
  // An object that names its command (`{commands: {run: "make", cwd: "src"}}`) is read as a step's arguments.
  if (!Array.isArray(value) && Object.keys(value).some((k) => keyKind(k) !== KeyKind.None && keyKind(k) !== KeyKind.Lines)) {
    nested(step, at, value, out, 0);
    return;
  }
  // A list, or a map of named lines (`{scripts: {build: "make", test: "rm -rf .git"}}`, as package.json's).
  const members: [string | number, unknown][] = Array.isArray(value) ? value.map((v, i) => [i, v]) : Object.entries(value);
  const map = !Array.isArray(value);
  for (const [i, v] of members) {
    if (typeof v === "string") out.push({ step, at: childPointer(at, i), name: key, text: v, mode: "single" });
    else if (map && Array.isArray(v)) {
      // A map's list is lines (`hooks: {post: ["make", "make test"]}`, `{PreToolUse: [{command: ...}]}`), and
      // an argument vector too when its members are strings and the first is a program's name.
      lines(step, key, childPointer(at, i), v, out, depth + 1);
      if (v.length > 1 && v.every((x) => typeof x === "string") && !/\s/.test(v[0] as string)) out.push({ step, at: childPointer(at, i), name: key, text: shellJoin(v as string[]), mode: "single" });
    } else if (Array.isArray(v)) {
      const t = argvText(v);
      out.push(t.text !== undefined ? { step, at: childPointer(at, i), name: key, text: t.text, mode: "single" } : { step, at: childPointer(at, i), name: key, mode: "single", invalid: t.invalid ?? NOT_COMMAND_LINE });
    } else if (isDollarObject(v)) lines(step, key, childPointer(at, i), v, out, depth + 1);
    // A map's map names more lines (`hooks: {git: {pre_commit: "make"}}`), or a command (`{run: "make"}`).
    else if (v !== null && typeof v === "object") {
      if (map) lines(step, key, childPointer(at, i), v, out, depth + 1);
      else nested(step, childPointer(at, i), v, out, 0);
    }
  }
}

/** Characters a shell reads as themselves: a line of them alone splits into the same words at blanks. */
const PLAIN_LINE = /^[A-Za-z0-9_\-.,/:=+@%^ \t\n]*$/;

/**
 * An argument vector with no command or program beside it (`{argv: ["rm", "-rf", "x"]}`, `{args: "sed
 * -i s/a/b/ f"}`) is the command itself: a list is an exec argument vector whose first word is the
 * program (a list of other values, or not starting with a string, is no argument vector and is left
 * alone); a string may be a shell line or words an executor splits at blanks (`shlex`, `execa`), so it is
 * read both ways, the second only where the two differ.
 */
function alone(step: Step, key: string, at: Pointer, raw: unknown, out: StepCommand[]): void {
  const read = admitted(raw, at, (member, where) => readAlone(step, key, where, member, out));
  if (read !== undefined) readAlone(step, key, at, read.value, out);
}

/**
 * A value, or the values an argument constraint admits: a `$literal`'s value is returned; each `$enum`
 * member is given to `member` at its pointer, and any other constraint (`$glob`, `$regex`, a malformed
 * one) to `other`, and nothing is returned.
 */
function admitted(value: unknown, at: Pointer, member: (value: unknown, at: Pointer) => void, other?: () => void): { value: unknown } | undefined {
  if (!isDollarObject(value)) return { value };
  const r = readArgument(value);
  if ("literal" in r) return { value: unwrapLiterals(r.literal) };
  if ("constraint" in r && r.constraint.kind === "$enum") r.constraint.values.forEach((m, j) => member(unwrapLiterals(m), childPointer(childPointer(at, "$enum"), j)));
  else other?.();
  return undefined;
}

function readAlone(step: Step, key: string, at: Pointer, value: unknown, out: StepCommand[]): void {
  if (Array.isArray(value)) {
    if (typeof value[0] !== "string" || !value.every((v) => typeof v === "string" || typeof v === "number" || typeof v === "boolean")) return;
    out.push({ step, at, name: key, text: shellJoin(value.map(String)), mode: "single" });
    return;
  }
  if (typeof value !== "string" || value.trim() === "") return;
  out.push({ step, at, name: key, text: value, mode: "single" });
  if (PLAIN_LINE.test(value)) return;
  const words = shellJoin(value.split(/[ \t\n]+/).filter((w) => w !== ""));
  if (words !== value) out.push({ step, at, name: key, text: words, mode: "single" });
}

/** Where the command and each piece of the argument vector joined after it (`argvText`) are in the line. */
function joinedParts(headAt: Pointer, headLength: number, argvAt: Pointer, argv: unknown): CommandPart[] {
  const parts: CommandPart[] = [{ at: headAt, start: 0, end: headLength }];
  let at = headLength + 1;
  if (typeof argv === "string") parts.push({ at: argvAt, start: at, end: at + argv.length });
  else if (Array.isArray(argv))
    argv.forEach((word: string, i) => {
      const length = shellQuote(word).length;
      parts.push({ at: childPointer(argvAt, i), start: at, end: at + length });
      at += length + 1;
    });
  return parts;
}

/** The pointer of the piece of a joined line that offset `start` is in (the whole argument for a line of one piece). */
export function partAt(command: StepCommand, start: number | undefined): Pointer {
  if (command.parts === undefined || start === undefined) return command.at;
  let found = command.parts[0]!;
  for (const p of command.parts) if (p.start <= start) found = p;
  return found.at;
}

/** Command lines deeper in the arguments (`{options: {command: …}}`, `{input: {argv: […]}}`): each object read as the step's own. */
function nested(step: Step, at: Pointer, value: unknown, out: StepCommand[], depth: number, described: ReadonlySet<string> = NO_NAMES): void {
  if (depth > 32 || value === null || typeof value !== "object") return;
  if (Array.isArray(value)) {
    // Only objects can hold a command key: long lists of numbers or strings are passed over cheaply.
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      if (v !== null && typeof v === "object") nested(step, childPointer(at, i), v, out, depth + 1, described);
    }
    return;
  }
  readObject(step, value as Record<string, unknown>, at, out, depth + 1, described);
}

/**
 * Characters of distinct command lines read in one plan (each line is at most 16 KiB): 8 lines of 16
 * KiB, or some 3,200 lines of 40 characters. Reading and analysing a line costs up to 10 microseconds a
 * character (16 KiB of `a;`, 8,000 commands; of `$(a)`, 4,000 substitutions), so 64 MiB of distinct lines
 * took minutes, and 256 KiB of them 2.8 to 3 s; past this total each further line is refused unread
 * (`planCommandsTooLong`), failing closed.
 */
export const MAX_PLAN_COMMAND_TEXT = 128 * 1024;

/**
 * Characters of the plan's distinct command lines (and the scripts inside them, `sh -c '...'`) that the
 * shell parser had to recover from errors in, past which further lines are refused unread
 * (`planCommandsUnreadable`). Recovering from errors costs the parser
 * far more than reading: a line of 16 KiB of `a);` takes 0.4 to 0.8 s, 16 of them took 7 s, where 16
 * KiB of `a;` takes 0.05 s. The plan is rejected for the lines that cannot be read already.
 */
export const MAX_UNREADABLE_COMMAND_TEXT = 16 * 1024;

/**
 * Programs the plan's distinct command lines run (as the analysis counts them), past which further lines
 * are refused unread (`planCommandsTooMany`). Reading and judging each costs some 35 microseconds, and
 * 128 KiB of `a;` runs 64,000 of them (2.5 s); real plans run tens to a few thousand.
 */
export const MAX_PLAN_PROGRAMS = 16_384;

/**
 * Reads every command of the plan with the shell parser, loading it on first use. Called from the
 * command rules' `prepare`; the plan's analysis is then shared by all of them.
 */
export async function prepareCommands(plan: Plan, policy: Policy, facts: PlanFacts): Promise<void> {
  const slot = facts.derive(ANALYSED, plan, () => ({ result: undefined as AnalysedCommand[] | undefined }));
  if (slot.result) return;
  const commands = commandsOf(plan, facts);
  if (commands.length === 0) {
    slot.result = [];
    return;
  }
  // The shell reader and the analysis (with its wrapper tables) load only for a plan with a command.
  const [{ loadShellReader, MAX_COMMAND_LENGTH }, { analyseCommand }, { followWritten }, { withMatchMeter }] = await Promise.all([
    import("../syntax/shell/parse.js"),
    import("./analyse.js"),
    import("./written.js"),
    import("./match.js"),
  ]);
  let reader: ShellReader | undefined;
  let failure: string | undefined;
  try {
    reader = await loadShellReader();
  } catch (err) {
    failure = (err as Error).message;
  }
  // The comparisons with commands.allow and commands.deny are bounded for the whole plan (core/work.ts).
  const matches = facts.work.meter("commandMatches");
  const analyseOne = (c: StepCommand): CommandReport => {
    const only = (f: CommandFinding): CommandReport => ({ findings: [f], paths: [], programs: [], markers: [] });
    if (c.invalid !== undefined) return only(c.invalid);
    if (!reader) return only({ rule: "parse-error", messageId: "parserNotLoaded", data: { reason: String(failure) } });
    const r = withMatchMeter(matches, () => analyseCommand(reader, c.text ?? "", c.mode, policy.commands));
    facts.work.overrun("commandMatches", { step: c.step.position, at: c.at });
    return r;
  };
  // A command line written several times (the same test run after each edit) is analysed once: reports are only read.
  const seen = new Map<string, CommandReport>();
  let read = 0;
  // The characters the parser recovered from errors in, in this plan's lines (nested scripts included).
  const recoveredBefore = reader?.recovered() ?? 0;
  const failed = () => (reader?.recovered() ?? 0) - recoveredBefore;
  const refused: CommandReport = { findings: [{ rule: "parse-error", messageId: "planCommandsTooLong", data: { max: MAX_PLAN_COMMAND_TEXT } }], paths: [], programs: [], markers: [] };
  const refusedUnread: CommandReport = { findings: [{ rule: "parse-error", messageId: "planCommandsUnreadable", data: { max: MAX_UNREADABLE_COMMAND_TEXT } }], paths: [], programs: [], markers: [] };
  const refusedMany: CommandReport = { findings: [{ rule: "parse-error", messageId: "planCommandsTooMany", data: { max: MAX_PLAN_PROGRAMS } }], paths: [], programs: [], markers: [] };
  let programs = 0;
  const counted = (report: CommandReport): CommandReport => {
    programs += report.programs.length;
    return report;
  };
  const analysed = commands.map((command) => {
    if (command.text === undefined || command.invalid !== undefined) return { command, report: analyseOne(command) };
    const key = `${command.mode}\u0000${command.text}`;
    let report = seen.get(key);
    if (!report) {
      // A line over the length limit is refused before it is parsed, so it counts for what is read of it.
      read += Math.min(command.text.length, MAX_COMMAND_LENGTH);
      if (read > MAX_PLAN_COMMAND_TEXT) return { command, report: refused };
      if (failed() > MAX_UNREADABLE_COMMAND_TEXT) return { command, report: refusedUnread };
      if (programs > MAX_PLAN_PROGRAMS) return { command, report: refusedMany };
      report = counted(analyseOne(command));
      seen.set(key, report);
    }
    return { command, report };
  });
  // A file the plan writes and then runs is judged by its text (written.ts): the text is read as a line is, within the same bound.
  const shell = reader;
  slot.result = !shell
    ? analysed
    : followWritten(plan, facts, policy, analysed, (text, mode) => {
        read += Math.min(text.length, MAX_COMMAND_LENGTH);
        if (read > MAX_PLAN_COMMAND_TEXT) return refused;
        if (failed() > MAX_UNREADABLE_COMMAND_TEXT) return refusedUnread;
        if (programs > MAX_PLAN_PROGRAMS) return refusedMany;
        return counted(withMatchMeter(matches, () => analyseCommand(shell, text, mode, policy.commands)));
      });
  // A file's text the plan runs may have passed it: the plan is then refused as a whole.
  facts.work.overrun("commandMatches", { at: "" });
}

/** The analysis `prepareCommands` made for this plan in this validation (empty when it has no commands). */
export function analysedCommands(plan: Plan, facts: PlanFacts): readonly AnalysedCommand[] {
  const hit = facts.derive(ANALYSED, plan, () => ({ result: undefined as AnalysedCommand[] | undefined }));
  if (hit.result) return hit.result;
  // prepare() did not run: every command is refused rather than passed unchecked.
  return commandsOf(plan, facts).map((command) => ({
    command,
    report: { findings: [{ rule: "parse-error", messageId: "notChecked", data: {} }], paths: [], programs: [], markers: [] },
  }));
}

/** "Step 3: the command in \"cmd\"": how findings about one command begin. */
export function describeCommand(c: StepCommand): string {
  return `Step ${c.step.position}: the command in "${c.name}"`;
}
