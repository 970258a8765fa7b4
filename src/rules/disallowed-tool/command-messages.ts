import type { CommandFinding, CommandMessageIds } from "../../commands/analyse.js";
import type { WrapperReasonId } from "../../commands/wrappers.js";
import type { CommandPatternProblem } from "../../commands/command-pattern.js";
import { formatMessage, type MessageData } from "../../core/rule.js";

/**
 * What disallowed-tool finds in a command line, as clauses of "the command … {clause}." (a plan step's
 * command, a host's shell call), with their hints.
 */
export const commandClauses = {
  rewiringVariable: { message: "sets {{name}}, which changes which program or code runs", hint: "remove the {{name}} setting; programs are checked by name, so the command must not choose what a name runs" },
  programAtRunTime: { message: "runs a program decided at run time ({{source}})", hint: "write the program's name literally, so that the policy can check it" },
  nonAsciiProgram: { message: 'runs "{{program}}", a program name with characters outside printable ASCII, which can look like another program (ｒｍ, rм)', hint: "write the program's name in plain ASCII" },
  commandDenied: { message: 'runs "{{command}}", which commands.deny forbids ("{{entry}}")', hint: "remove the command, or change commands.deny in plangate.yaml if it is safe" },
  notAllowed: { message: 'runs "{{program}}", which commands.allow does not list', hint: 'use a program commands.allow lists, or add "{{program}}" to it in plangate.yaml' },
  fetchedNotAllowed: { message: 'runs the package "{{program}}" that {{runner}} fetches, whose program is the package\'s, not the "{{program}}" commands.allow lists', hint: 'run the program itself, or add "{{runner}} {{program}}" to commands.allow in plangate.yaml if that package is meant' },
  // {{why}}: one of the wrapper reasons below, worded first.
  wrapperUnknown: { message: "runs a program plangate cannot make out: {{wrapper}}'s {{why}}", hint: "write the program without the wrapper, or with options plangate knows" },
  hiddenCommands: { message: "{{why}}", hint: "write the commands themselves into the plan" },
  commandLineAtRunTime: { message: 'hands "{{wrapper}}" a command line decided at run time', hint: "write the command line literally" },
  definesAlias: { message: "defines an alias, which changes what a later command name runs", hint: "run the program directly, by its own name" },
  bindsName: { message: "binds a command name to another file (hash -p), which changes what a later command name runs", hint: "run the program directly, by its own name" },
  loadsBuiltins: { message: "loads or switches shell builtins, which changes what a later command name runs", hint: "run the program directly, by its own name" },
  subscriptExpansion: { message: "gives {{program}} {{source}}, an array subscript holding an expansion, which bash evaluates and so runs any command in it", hint: "write a plain variable name or number; run a command as its own command" },
  givenAsText: { message: "runs a command that {{program}} is given as text (or takes from the history), which plangate does not read", hint: "write the command itself into the plan" },
  gitRunsCode: { message: "sets git's {{setting}}, which names a program or code git runs, or more settings to read", hint: "remove the setting; run the program it names as its own command" },
  gitRunsCommandLine: { message: "gives git {{subcommand}} a command line to run, which plangate does not read", hint: "run the command itself as its own step" },
  optionRunsCommand: { message: "gives {{program}} a program or command line to run ({{option}}), which plangate does not read", hint: "run the program itself as its own command, or drop the option" },
  scriptRunsCommand: { message: "gives {{program}} a script that runs a command line ({{how}}), which plangate does not read", hint: "run the command as its own command, and keep the {{program}} script to editing text" },
  unreadableScript: { message: "gives {{program}} a script plangate cannot read ({{why}}), which may run a command or write a file plangate does not see", hint: "write the script as GNU sed reads it: one command per line or after a ;" },
  unreadableAwk: {
    message: "gives {{program}} a program plangate cannot read ({{why}}), which may run a command or write a file plangate does not see",
    hint: "write the program plainly: a command for system(), a pipe or getline as one string literal, files to print to as string literals",
  },
  inlineCode: {
    message: "gives {{program}} code to run ({{how}}), which plangate does not read: it may write any file or run any program",
    hint: 'do the work with commands plangate reads, or, if the policy trusts {{interpreter}} code it cannot read, list "{{interpreter}}" in the policy\'s commands.inlineCode',
  },
  writtenCode: {
    message: "gives {{program}} code to run ({{how}}), which plangate does not read: it may write any file or run any program",
    hint: 'do the work with commands plangate reads, or, if the policy trusts {{interpreter}} code the plan writes, list "{{interpreter}}" in the policy\'s commands.writtenCode',
  },
  writtenUnknown: {
    message: "has {{program}} run {{file}}, which step {{writer}} writes without its text in the plan ({{how}}): what it runs cannot be checked",
    hint: "write the whole file with a write step (or a CREATE) whose content is in the plan, then run it; or write its commands into the plan",
  },
  writtenManifest: {
    message: "has {{program}} run what {{file}} says, which step {{writer}} writes: plangate does not read what a {{kind}} runs",
    hint: "run the commands themselves in the plan, or change the {{kind}} in a plan of its own and run it in a later one",
  },
  writtenUnreadable: {
    message: "has {{program}} run {{file}}, which step {{writer}} writes, and plangate cannot read its text ({{why}})",
    hint: "write the file as a sh or bash script (or valid JSON, for package.json), or write its commands into the plan",
  },
  trustsCode: { message: "has {{program}} trust {{files}}: code plangate does not read, which {{program}} then runs by itself (when a shell enters the folder, or as it loads its configuration)", hint: "leave trusting the file to the user, who can read it first" },
  storedCode: { message: "stores a command substitution as text in {{name}}, which arithmetic, $" + "{{{name}}@P} or eval would run", hint: "store plain data, or run the command as its own command" },
} as const satisfies Record<CommandMessageIds["disallowed-tool"], { message: string; hint: string }>;

/**
 * Why a wrapper's program cannot be made out (after "{{wrapper}}'s") or its commands are not seen: the
 * parts that fill `{{why}}` in wrapperUnknown and hiddenCommands.
 */
export const wrapperReasons: Readonly<Record<WrapperReasonId, string>> = {
  argumentAtRunTime: "its argument {{source}} is decided at run time",
  optionWithoutValue: "{{option}} has no value",
  unknownOption: "option {{option}}, which plangate does not know",
  noCommand: "-c has no command",
  execNotClosed: '{{option}} is not closed with ";" or "+"',
  execAtRunTime: "an -exec option is decided at run time",
  optionsNotFollowed: "plangate does not follow its options ({{source}})",
  remapsPaths: "option {{option}}, which shows the program other files under the paths it names",
  argumentsElsewhere: "option {{option}}, which reads more arguments from a file descriptor plangate cannot see",
  patternInCommandLine: "command line holds a pattern ({{source}}), which it expands to file names and then evaluates as code",
  environmentFile: "option {{option}}, which loads environment settings from a file plangate does not read (a PATH or LD_PRELOAD there changes what runs)",
  loadsEnvironment: "environment, which it loads from {{files}}: code or settings plangate does not read, which may set PATH or run programs before the one named",
  splitString: "option {{option}}'s string {{source}}, which it splits into arguments in a way plangate does not follow (an escape or a $NAME env refuses, an open quote, or -C, which moves the program to another folder)",
  unitProperty: "property {{option}}, which may run another program, or set its environment or the files its paths name",
  projectElsewhere: "option {{option}}, which runs the program in the root of a project its configuration names, a folder plangate does not know",
  unknownFolder: "option {{option}} without a folder, which runs the program in the target process's folder, which plangate does not know",
  argumentFile: "argument {{source}}, which reads more arguments from a file plangate does not read (put -- before the command, or write the arguments out)",
  configurationFile: "option {{option}}, which loads a configuration file plangate does not read, whose settings may name commands it runs",
  namesProgram: "option {{option}}, which names a program it runs (a container runtime, a monitor, a network helper, ssh), which plangate does not check (drop the option, or leave the command to the user)",
  codeAsText: "option {{option}}, whose text is code in a language plangate does not read, which may run any program",
  commandText: "command {{command}}, which runs commands it is given as text, in a language plangate does not follow",
  typesKeys: "command {{command}}, which types keys into the program running in a window (a shell there runs them as commands), which plangate cannot follow",
  laterSettings: "command {{command}}, which sets an option that may name a command it runs later (a hook, a default command, a format), which plangate does not follow",
  formatCommand: "argument {{source}}, a format that may run a command (#(...)) or build one (#{...} with more than a name), which plangate does not follow",
  folderUnknown: "command {{command}} without a folder, which runs the command in a folder plangate does not know (a pane's, a session's or the server's; give one with -c)",
  placeholder: "argument {{source}}, which holds {{placeholder}}, filled in at run time in a way plangate does not follow",
  unknownSubcommand: "command {{command}}, which plangate does not know",
  container: "command {{command}}, which runs a program in a container or another root, where its paths name other files, by a grammar plangate does not follow (run the command there as a step of its own, or drop it)",
  later: "command {{command}}, which hands a program or command line to a daemon, a queue or a crontab that runs it later, in a folder and environment plangate does not see (run the program directly)",
  commandList: "command {{command}}, which runs the command lines it is given (with placeholders it fills in) by a grammar plangate does not follow (run each command as a step of its own)",
  loadsEnvFile: "environment, which {{program}} loads from .env (or the files its options name) before the program: a PATH or LD_PRELOAD there changes what runs (run the program directly, with its settings written on the line)",
  shellLanguage: "command line or script, which {{program}} reads in a shell language plangate does not read (it reads sh and bash)",
  sourcedScript: "{{program}} runs the script {{script}} in the shell itself, whose commands plangate does not read",
  sourcedNothing: "{{program}} runs the script (none) in the shell itself, whose commands plangate does not read",
  scriptFile: "{{program}} runs the script file {{script}}, whose commands plangate does not read",
  standardInput: "{{program}} reads its commands from standard input, which plangate cannot check",
  standardInputOption: "{{program}} -s reads its commands from standard input, which plangate cannot check",
  inputLines: "{{program}} runs command lines read from its input, which plangate cannot check",
};

/** The data of a finding's message: a wrapper's reason (its id in `why`) worded first. */
export function commandData(finding: CommandFinding<"disallowed-tool">): MessageData {
  const { messageId, data } = finding;
  if (messageId !== "wrapperUnknown" && messageId !== "hiddenCommands") return data;
  const why = data.why;
  const part = typeof why === "string" && Object.hasOwn(wrapperReasons, why) ? wrapperReasons[why as WrapperReasonId] : undefined;
  if (part === undefined) throw new Error(`disallowed-tool has no wrapper reason "${String(why)}"`);
  return { ...data, why: formatMessage(part, data) };
}

/**
 * Why a `$glob` or `$regex` on a command cannot be shown to run allowed programs only
 * (`commandPatternProblem`, src/commands/command-pattern.ts): the parts that fill `{{why}}` in
 * unprovableCommand.
 */
export const patternReasons: Readonly<Record<CommandPatternProblem["reason"], string>> = {
  programKey: '"{{key}}" names one program: a {{kind}} there leaves the program open',
  alternation: "the {{kind}} has an alternation (|), so it does not fix one program",
  noProgram: "the {{kind}} does not start with a literal program name followed by a space (the program word cannot be a wildcard)",
  nonAsciiProgram: 'the {{kind}} names the program "{{program}}" with characters outside printable ASCII, which can look like another program',
  programPath: 'the {{kind}} names the program by a path ("{{program}}"); name it by its name',
  wrapper: 'the {{kind}} runs "{{program}}", which runs other commands (a shell, a wrapper or a package runner), so a pattern cannot bound what runs',
  denied: 'the {{kind}} may run "{{program}}" with arguments commands.deny forbids ("{{entry}}")',
  notAllowed: 'the {{kind}} runs "{{program}}" with arguments that commands.allow does not list',
};

/** A command pattern's problem in words. */
export function patternReasonText(problem: CommandPatternProblem): string {
  const part = Object.hasOwn(patternReasons, problem.reason) ? patternReasons[problem.reason] : undefined;
  if (part === undefined) throw new Error(`disallowed-tool has no pattern reason "${String(problem.reason)}"`);
  return formatMessage(part, problem.data);
}
