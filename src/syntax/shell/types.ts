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

/** Something the reader cannot show to mean one thing only; a command that has one is refused. */
export interface ShellProblem {
  message: string;
  start: number;
  end: number;
}

/** A command line, decomposed. */
export interface ShellScript {
  text: string;
  /** Every simple command, in source order, those inside substitutions and compound commands included. */
  commands: SimpleCommand[];
  constructs: ShellConstruct[];
  problems: ShellProblem[];
}
