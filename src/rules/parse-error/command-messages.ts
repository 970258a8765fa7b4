import type { CommandFinding, CommandMessageIds } from "../../commands/analyse.js";
import { formatMessage, type MessageData } from "../../core/rule.js";
import type { ShellProblemId } from "../../syntax/shell/types.js";

const ARGUMENT_VECTOR = "give the command as one string, or as a list of strings (program first)";
const PLAIN_SHELL = "write the command in plain shell syntax (simple commands and quoted arguments), or split it into steps";

/**
 * What parse-error finds in a command line, as clauses of "the command … {clause}.", with their hints.
 * `{{problem}}` is the first problem the shell reader finds, worded first (below).
 */
export const commandClauses = {
  unreadableCommand: { message: "cannot be read as a shell command: {{problem}}", hint: PLAIN_SHELL },
  unreadableCommandAndOne: { message: "cannot be read as a shell command: {{problem}} (and {{more}} more problem)", hint: PLAIN_SHELL },
  unreadableCommandAndMore: { message: "cannot be read as a shell command: {{problem}} (and {{more}} more problems)", hint: PLAIN_SHELL },
  nestedTooDeep: { message: "nests programs that run programs more than {{depth}} deep", hint: "write the innermost command as its own step" },
  listNotStrings: { message: "is a list with items that are not strings, so it is no argument vector", hint: ARGUMENT_VECTOR },
  notCommandLine: { message: "is not a command line (a string or a list of strings)", hint: ARGUMENT_VECTOR },
  argvBesideNotStrings: { message: 'has "{{key}}" beside it that is a list with items that are not strings, so it is no argument vector', hint: ARGUMENT_VECTOR },
  parserNotLoaded: { message: "cannot be checked: the shell parser could not be loaded ({{reason}})", hint: "reinstall plangate; until then, plans with commands are rejected" },
  notChecked: { message: "was not checked (the command analysis did not run)", hint: "report this as a bug in plangate" },
  mixedScriptWord: { message: 'holds the word "{{word}}", which mixes {{scripts}} letters: it reads as "{{reads}}" but names another program or file', hint: "write each word in one script (the plain Latin letters it looks like, if those are meant)" },
  planCommandsTooLong: {
    message: "was not read: with it the plan's command lines would total more than {{max}} characters, the most that are read in one plan",
    hint: "split the plan into smaller plans, or write a long script to a file in one step and run the file in another",
  },
  planCommandsTooMany: {
    message: "was not read: the plan's command lines before it already run more than {{max}} programs, the most that are read in one plan",
    hint: "split the plan into smaller plans, or write a long script to a file in one step and run the file in another",
  },
  planCommandsUnreadable: {
    message: "was not read: the plan's command lines that cannot be read already total more than {{max}} characters (the shell parser's recovery from errors takes up to some 50 microseconds a character)",
    hint: "fix the command lines reported before it, then validate again",
  },
} as const satisfies Record<CommandMessageIds["parse-error"], { message: string; hint: string }>;

/** What the shell reader cannot show to mean one thing only: the parts that fill `{{problem}}`. */
export const shellProblems: Readonly<Record<ShellProblemId, string>> = {
  noResult: "the shell parser gave no result",
  missingToken: '"{{type}}" is missing',
  unreadableSyntax: '"{{text}}" cannot be read as shell syntax',
  tooLong: "the command is {{length}} characters long, over the {{max}} that are read",
  tooIntricate: "the shell parser gave up, having gone back over the text more than {{reads}} times (as it does on runs of unbalanced patterns or stray parentheses)",
  tooManyPipes: "the command holds {{count}} pipes ('|'), more than the {{max}} that are read in one line (the shell parser takes seconds and a GB on a pipeline that long)",
  controlCharacter: "the command holds the control character U+{{code}}, which shells read in different ways",
  invisibleSpace: "the command holds the invisible or look-alike space character U+{{code}}, which makes it read as something other than it shows",
  backslashNewline: "a backslash-newline inside a word joins two lines into one word",
  escapedSpace: "an escaped space next to a quoted part is read differently by shells and by the parser",
  tooDeep: "the command nests more than {{depth}} levels deep",
  unknownOperator: 'the operator "{{operator}}" is not understood',
  functionDefinition: "the command defines a function, whose name would shadow a program: plangate does not follow function calls",
  unknownNode: '"{{text}}" ({{kind}}) is not understood',
  unknownHere: '"{{type}}" is not understood here',
  unknownInCommand: '"{{text}}" is not understood in a command',
  reservedWord: 'the reserved word "{{word}}" is read as a plain word here, which bash would not do',
  splitWord: '"{{text}}" is one word to a shell but not to the parser',
  arithmeticSubstitution: "arithmetic with substitutions or array subscripts can run commands hidden in values",
  unknownInRedirect: '"{{type}}" is not understood in a redirection',
  redirectTargets: 'the redirection "{{text}}" names more than one target',
  unknownRedirect: 'the redirection "{{text}}" is not understood',
  wordWithSpace: 'the word "{{text}}" holds unquoted white space or a line break, which ends a word (or a command) in a shell',
  unknownWord: '"{{text}}" ({{kind}}) is not understood as a word',
};

/** A shell problem's words, from its id and data. */
export function shellProblemText(problem: ShellProblemId, data: MessageData): string {
  const part = Object.hasOwn(shellProblems, problem) ? shellProblems[problem] : undefined;
  if (part === undefined) throw new Error(`parse-error has no shell problem "${String(problem)}"`);
  return formatMessage(part, data);
}

/** The data of a finding's message: the shell reader's problem (its id in `problem`) worded first. */
export function commandData(finding: CommandFinding<"parse-error">): MessageData {
  const { messageId, data } = finding;
  if (messageId !== "unreadableCommand" && messageId !== "unreadableCommandAndOne" && messageId !== "unreadableCommandAndMore") return data;
  return { ...data, problem: shellProblemText(data.problem as ShellProblemId, data) };
}
