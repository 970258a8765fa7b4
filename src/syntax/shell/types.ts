/** One shell word: its source text and, when the text alone fixes it, the value the shell gives it. */
export interface ShellWord {
  /** The word as written. */
  source: string;
  /**
   * The word after quote removal, when it is the same on every run; undefined when it depends on the
   * run (a `$VAR`, a command substitution, an arithmetic or brace expansion).
   */
  value?: string;
  /** Holds an unquoted `*`, `?` or `[` (a pattern the shell expands against the file system). */
  glob: boolean;
  /** UTF-16 offsets into the parsed text. */
  start: number;
  end: number;
}

/** A redirection: `> out`, `2>&1`, `<<EOF` … */
export interface ShellRedirect {
  /** The operator: `>`, `>>`, `>|`, `&>`, `&>>`, `<`, `<>`, `>&`, `<&`, `<<`, `<<-`, `<<<`. */
  op: string;
  /** The file descriptor written before the operator, if any (`2` in `2>&1`). */
  fd?: string;
  /** The file (or descriptor) it names; a here-document's delimiter is not a target. */
  target?: ShellWord;
  start: number;
  end: number;
}

/** `NAME=value` before a command or on its own. */
export interface ShellAssignment {
  name: string;
  value?: ShellWord;
  start: number;
  end: number;
}

/** A simple command: its words (the first is the program), assignments before it, its redirections. */
export interface SimpleCommand {
  words: ShellWord[];
  assignments: ShellAssignment[];
  redirects: ShellRedirect[];
  start: number;
  end: number;
  /**
   * The subshells it runs in, outermost first (ids): `( ... )`, `$(...)`, `<(...)`, a part of a pipeline, a
   * command run in the background with `&`. A folder change there does not outlive the subshell.
   */
  scopes?: number[];
  /**
   * Commands that must have succeeded for this one to run: `cd x && make` runs make only if cd
   * succeeded; so do `cd x || exit; make` and `if cd x; then make; fi`.
   */
  guards?: SimpleCommand[];
  /** It is in a loop (its condition or body), in the same shell: it may run any number of times. */
  repeats?: true;
  /**
   * Under `set -e` its failure ends the shell: it is no condition (of `if`, `while`, `until`), no part
   * of an `&&` or `||` list but the last, and not negated with `!`.
   */
  fatal?: true;
}

/** Syntax that joins or nests commands: each one means more than one command runs, or runs differently. */
export type ConstructKind =
  | "&&"
  | "||"
  | ";"
  | "a newline"
  | "|"
  | "|&"
  | "&"
  | "$(…)"
  | "`…`"
  | "<(…)"
  | ">(…)"
  | "( … )"
  | "{ … }"
  | "!"
  | "if"
  | "for"
  | "while"
  | "until"
  | "case"
  | "select"
  | "[[ … ]]"
  | "(( … ))";

export interface ShellConstruct {
  kind: ConstructKind;
  start: number;
  end: number;
}

/**
 * What the reader cannot show to mean one thing only, by id, with the data of its placeholders (excerpts
 * of the command, node types, code points); the parse-error rule words each one.
 */
export interface ShellProblemData {
  noResult: Record<string, never>;
  missingToken: { type: string };
  unreadableSyntax: { text: string };
  tooLong: { length: number; max: number };
  tooIntricate: { reads: number };
  tooManyPipes: { count: number; max: number };
  controlCharacter: { code: string };
  invisibleSpace: { code: string };
  backslashNewline: Record<string, never>;
  escapedSpace: Record<string, never>;
  tooDeep: { depth: number };
  unknownOperator: { operator: string };
  functionDefinition: Record<string, never>;
  unknownNode: { text: string; kind: string };
  unknownHere: { type: string };
  unknownInCommand: { text: string };
  reservedWord: { word: string };
  splitWord: { text: string };
  arithmeticSubstitution: Record<string, never>;
  unknownInRedirect: { type: string };
  redirectTargets: { text: string };
  unknownRedirect: { text: string };
  wordWithSpace: { text: string };
  unknownWord: { text: string; kind: string };
}

/** The id of a shell problem. */
export type ShellProblemId = keyof ShellProblemData;

/** Something the reader cannot show to mean one thing only; a command that has one is refused. */
export type ShellProblem = { [K in ShellProblemId]: { problem: K; data: ShellProblemData[K]; start: number; end: number } }[ShellProblemId];

/** A command line, decomposed. */
export interface ShellScript {
  text: string;
  /** Every simple command, in source order, those inside substitutions and compound commands included. */
  commands: SimpleCommand[];
  constructs: ShellConstruct[];
  problems: ShellProblem[];
  /**
   * Variables the syntax itself sets, to values decided at run time: a `for` or `select` loop's
   * variable, the variable a `{NAME}>file` redirection stores its descriptor number in.
   */
  assigned?: { name: string; start: number; end: number }[];
  /** The subshells (see SimpleCommand.scopes) of command and process substitutions, where bash clears `set -e`. */
  substitutions?: number[];
}
