import type { ShellWord } from "../syntax/shell/types.js";

/**
 * awk's programs, read for what they run and the files they write and read, as POSIX awk and gawk parse
 * them: `system(CMD)`, `print | CMD`, `CMD | getline` and gawk's `|&` run a command line (a string
 * literal is that line, read as any other; anything else is decided at run time); `print > FILE`,
 * `print >> FILE` write a file and `getline < FILE` reads one (a string literal is a path; anything else is
 * decided at run time). What this reader cannot follow is reported as unreadable, so that nothing it may
 * hide passes: a `/` whose reading as a regular expression or a division depends on the parser's state
 * (after `++` or `--`), an escape the awks read differently, gawk's indirect calls (`@f()`) and `@load`.
 */
export interface AwkProgram {
  /** Command lines the program runs, as written in its string literals. */
  runs: string[];
  /** How the program runs a command line decided at run time (`system(cmd)`), if it does. */
  runsAtRunTime?: string;
  /** Files the program writes (`print > "f"`, `print >> "f"`). */
  writes: string[];
  /** Files the program reads (`getline < "f"`, gawk's `@include "f"`). */
  reads: string[];
  /** Source files it includes (gawk's `@include "f"`): awk code it runs. */
  includes?: string[];
  /** A file the program writes or reads that is decided at run time (`print > $1`), if any. */
  fileAtRunTime?: string;
  /** Why the program cannot be read, if it cannot. */
  unreadable?: string;
}

type Kind = "name" | "number" | "string" | "regex" | "op" | "newline" | "at";
interface Token {
  kind: Kind;
  text: string;
  /** A string literal's value, escapes decoded. */
  value?: string;
}

class Stop extends Error {}

/** Keywords after which a `/` starts a regular expression, not a division. */
const NOT_OPERAND = new Set(["print", "printf", "return", "getline", "do", "else", "in", "case", "delete", "exit", "next", "nextfile", "BEGIN", "END", "BEGINFILE", "ENDFILE", "if", "while", "for", "function", "func"]);
/** Escapes every awk reads alike in a string literal. */
const ESCAPES: Readonly<Record<string, string>> = { '"': '"', "\\": "\\", "/": "/", n: "\n", t: "\t", r: "\r", a: "\x07", b: "\b", f: "\f", v: "\v" };
const OPERATORS = ["|&", "||", "&&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "**"];

function tokenize(text: string, fail: (why: string) => never): Token[] {
  const out: Token[] = [];
  let i = 0;
  const operand = (): boolean => {
    const t = out[out.length - 1];
    if (t === undefined) return false;
    if (t.kind === "name") return !NOT_OPERAND.has(t.text);
    if (t.kind === "number" || t.kind === "string" || t.kind === "regex") return true;
    if (t.kind === "op") {
      if (t.text === "++" || t.text === "--") fail(`a "/" after "${t.text}", which the awks read as a regular expression or a division`);
      return t.text === ")" || t.text === "]" || t.text === "$";
    }
    return false;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t") {
      i++;
      continue;
    }
    if (c === "\\" && (text[i + 1] === "\n" || (text[i + 1] === "\r" && text[i + 2] === "\n"))) {
      i += text[i + 1] === "\n" ? 2 : 3;
      continue;
    }
    if (c === "\n" || c === "\r") {
      out.push({ kind: "newline", text: "\n" });
      i++;
      continue;
    }
    if (c === "#") {
      while (i < text.length && text[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      let value = "";
      i++;
      for (;;) {
        const d = text[i];
        if (d === undefined || d === "\n") fail("a string left open");
        if (d === '"') break;
        if (d === "\\") {
          const e = text[i + 1];
          if (e === undefined) fail("a string left open");
          if (Object.hasOwn(ESCAPES, e)) value += ESCAPES[e];
          else if (e === "\n") value += "";
          else fail(`the escape "\\${e}", which the awks read differently`);
          i += 2;
          continue;
        }
        value += d;
        i++;
      }
      i++;
      out.push({ kind: "string", text: "string", value });
      continue;
    }
    if (c === "/" && !operand()) {
      // A regular expression: up to the next unescaped / outside a bracket expression, on one line.
      let k = i + 1;
      let bracket = false;
      for (;;) {
        const d = text[k];
        if (d === undefined || d === "\n") fail("a regular expression left open");
        if (d === "\\") k += 2;
        else if (bracket) {
          if (d === "]") bracket = false;
          k++;
        } else if (d === "[") {
          bracket = true;
          k++;
          if (text[k] === "^") k++;
          if (text[k] === "]") k++;
        } else if (d === "/") break;
        else k++;
      }
      out.push({ kind: "regex", text: text.slice(i, k + 1) });
      i = k + 1;
      continue;
    }
    if (/[A-Za-z_]/.test(c)) {
      let k = i + 1;
      while (k < text.length && /[A-Za-z0-9_]/.test(text[k]!)) k++;
      // gawk's namespaces: `ns::name`.
      if (text[k] === ":" && text[k + 1] === ":") {
        k += 2;
        while (k < text.length && /[A-Za-z0-9_]/.test(text[k]!)) k++;
      }
      out.push({ kind: "name", text: text.slice(i, k) });
      i = k;
      continue;
    }
    if (/[0-9.]/.test(c) && (c !== "." || /[0-9]/.test(text[i + 1] ?? ""))) {
      let k = i + 1;
      while (k < text.length && /[0-9A-Za-z.]/.test(text[k]!)) k++;
      if ((text[k - 1] === "e" || text[k - 1] === "E") && (text[k] === "+" || text[k] === "-")) {
        k++;
        while (k < text.length && /[0-9]/.test(text[k]!)) k++;
      }
      out.push({ kind: "number", text: text.slice(i, k) });
      i = k;
      continue;
    }
    if (c === "@") {
      out.push({ kind: "at", text: "@" });
      i++;
      continue;
    }
    const op = OPERATORS.find((o) => text.startsWith(o, i));
    if (op !== undefined) {
      out.push({ kind: "op", text: op });
      i += op.length;
      continue;
    }
    if ("{}()[];,<>|!~?:=+-*/%^$".includes(c)) {
      out.push({ kind: "op", text: c });
      i++;
      continue;
    }
    fail(`the character "${c}"`);
  }
  return out;
}

/** Built-in functions that change a variable or array given as an argument after the first. */
const CHANGES_ARGUMENT = new Set(["sub", "gsub", "split", "patsplit", "match", "asort", "asorti"]);
/** Operators that assign to what is before them. */
const ASSIGNS = new Set(["=", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "++", "--"]);
/** Tokens that end a statement or an expression list: what may follow a redirection's file or a pipe's command. */
const ENDS = new Set([";", "}", "\n"]);
/** Tokens after which a string stands alone, not concatenated to what is before it (a pipe's command into getline). */
const STARTS = new Set([";", "{", "}", "\n", "(", ",", "=", "&&", "||", "!", "?", ":", "+=", "-=", "*=", "/=", "%=", "^=", "**="]);

/** Reads an awk program (the program operand, or each `-e`/`--source` text). */
export function readAwkProgram(text: string): AwkProgram {
  const out: AwkProgram = { runs: [], writes: [], reads: [] };
  const fail = (why: string): never => {
    out.unreadable = why;
    throw new Stop(why);
  };
  try {
    const tokens = tokenize(text, fail);
    const at = (k: number): Token | undefined => tokens[k];
    const ends = (t: Token | undefined) => t === undefined || (t.kind === "op" || t.kind === "newline" ? ENDS.has(t.text) : false);
    const starts = (t: Token | undefined) => t === undefined || ((t.kind === "op" || t.kind === "newline") && STARTS.has(t.text));
    // The function whose argument list the token at k is in, if any.
    const callOf = (k: number): string => {
      for (let d = 0, j = k - 1; j >= 0; j--) {
        const x = tokens[j]!.text;
        if (x === ")" || x === "]") d++;
        else if (x === "(" || x === "[") {
          if (d === 0) return x === "(" && tokens[j - 1]?.kind === "name" ? tokens[j - 1]!.text : "";
          d--;
        }
      }
      return "";
    };
    // The paren depth of each print or printf statement still open, innermost last.
    const prints: number[] = [];
    let depth = 0;
    for (let k = 0; k < tokens.length; k++) {
      const t = tokens[k]!;
      if (t.kind === "at") {
        const next = at(k + 1);
        if (next?.kind === "name" && (next.text === "include" || next.text === "namespace") && at(k + 2)?.kind === "string") {
          if (next.text === "include") {
            out.reads.push(at(k + 2)!.value!);
            (out.includes ??= []).push(at(k + 2)!.value!);
          }
          k += 2;
          continue;
        }
        fail(next?.kind === "name" && next.text === "load" ? "gawk's @load, which loads compiled code" : "gawk's @ before a name, an indirect call of any function, system() too");
      }
      if (t.kind === "newline" || (t.kind === "op" && (t.text === ";" || t.text === "}" || t.text === "{"))) {
        while (prints.length > 0 && prints[prints.length - 1]! >= depth) prints.pop();
        if (t.kind === "op" && t.text === "}") depth = Math.max(0, depth - 1);
        if (t.kind === "op" && t.text === "{") depth++;
        continue;
      }
      if (t.kind === "op" && (t.text === "(" || t.text === "[")) depth++;
      else if (t.kind === "op" && (t.text === ")" || t.text === "]")) depth = Math.max(0, depth - 1);
      if (t.kind === "name" && (t.text === "print" || t.text === "printf")) {
        prints.push(depth);
        continue;
      }
      if (t.kind === "name" && (t.text === "ARGV" || t.text === "ARGC")) {
        // The operands awk reads (and `-i inplace` rewrites) are ARGV's: a program that changes them names files decided at run time.
        let j = k + 1;
        if (t.text === "ARGV" && at(j)?.text === "[") {
          for (let d = 0; j < tokens.length; j++) {
            if (tokens[j]!.text === "[") d++;
            else if (tokens[j]!.text === "]" && --d === 0) break;
          }
          j++;
        } else if (t.text === "ARGV" && at(k - 1)?.text !== "in") out.fileAtRunTime ??= "ARGV";
        const prev = at(k - 1);
        if (ASSIGNS.has(at(j)?.text ?? "") || (prev !== undefined && (prev.text === "++" || prev.text === "--" || prev.text === "delete" || prev.text === "getline" || (prev.text === "," && CHANGES_ARGUMENT.has(callOf(k)))))) out.fileAtRunTime ??= t.text;
      }
      if (t.kind === "name" && t.text === "system") {
        const [open, arg, close] = [at(k + 1), at(k + 2), at(k + 3)];
        if (open?.text === "(" && arg?.kind === "string" && close?.text === ")") out.runs.push(arg.value!);
        else out.runsAtRunTime ??= "system()";
        continue;
      }
      const inPrint = prints.length > 0 && prints[prints.length - 1] === depth;
      if (t.kind === "op" && (t.text === "|" || t.text === "|&")) {
        const next = at(k + 1);
        if (next?.kind === "name" && next.text === "getline") {
          // CMD | getline [var]: the command is the string just before, standing alone.
          const before = at(k - 1);
          if (before?.kind === "string" && starts(at(k - 2))) out.runs.push(before.value!);
          else out.runsAtRunTime ??= `... ${t.text} getline`;
        } else if (inPrint) {
          // print ... | CMD: the command is the string just after, up to the end of the statement.
          if (next?.kind === "string" && ends(at(k + 2))) {
            out.runs.push(next.value!);
            k++;
          } else out.runsAtRunTime ??= `print ${t.text} ...`;
        } else out.runsAtRunTime ??= t.text;
        continue;
      }
      if (t.kind === "op" && (t.text === ">" || t.text === ">>") && inPrint) {
        const next = at(k + 1);
        if (next?.kind === "string" && ends(at(k + 2))) {
          out.writes.push(next.value!);
          k++;
        } else out.fileAtRunTime ??= `print ${t.text} ...`;
        continue;
      }
      if (t.kind === "name" && t.text === "getline") {
        // getline [var] < FILE: the file is the primary just after the <.
        let j = k + 1;
        const v = at(j);
        if (v?.kind === "name" && !NOT_OPERAND.has(v.text)) {
          j++;
          if (at(j)?.text === "[") {
            let d = 0;
            for (; j < tokens.length; j++) {
              if (tokens[j]!.text === "[") d++;
              else if (tokens[j]!.text === "]" && --d === 0) break;
            }
            j++;
          }
        } else if (v?.text === "$") j += 2;
        if (at(j)?.text === "<") {
          const file = at(j + 1);
          if (file?.kind === "string") out.reads.push(file.value!);
          else out.fileAtRunTime ??= "getline < ...";
        }
      }
    }
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return out;
}

/** Options of the awks that take a value (POSIX, gawk, mawk, BusyBox): the value is the next word, or joined. */
const VALUED = "FvfEilWe";
const PROGRAM_LONG = ["--source"];
const VALUED_LONG = ["--file", "--exec", "--include", "--load", "--assign", "--field-separator", "--source"];

/** A long option as gawk's getopt reads it: the option it is an unambiguous prefix of, among those read here. */
function longOption(word: string): string | undefined {
  const typed = word.split("=")[0]!;
  if (typed.length < 3) return undefined;
  const hits = VALUED_LONG.filter((o) => o.startsWith(typed));
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * The program texts of an awk command line: the texts of `-e`/`--source` (gawk, BusyBox), and, when no
 * `-f`/`-E`/`-e`/`--source` gives the program, the first operand. A word decided at run time where a
 * program may be is reported as undefined. A program file (`-f`, `-E`) is given as `file`, its text empty:
 * the project's, read as a script file is, but for standard input (`-f -`, `-f /dev/stdin`).
 */
export function awkPrograms(args: readonly ShellWord[]): { word: ShellWord; text: string | undefined; file?: string; include?: true }[] {
  const out: { word: ShellWord; text: string | undefined; file?: string; include?: true }[] = [];
  let fromFile = false;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) {
      out.push({ word: w, text: undefined });
      return out;
    }
    if (v === "--") {
      i++;
      break;
    }
    if (!v.startsWith("-") || v === "-") break;
    if (v.startsWith("--")) {
      const o = longOption(v);
      const eq = v.indexOf("=");
      const value = eq >= 0 ? v.slice(eq + 1) : o !== undefined ? args[++i]?.value : undefined;
      if (o !== undefined && PROGRAM_LONG.includes(o)) out.push({ word: eq >= 0 ? w : args[i]!, text: value });
      if (o === "--file" || o === "--exec") {
        fromFile = true;
        if (value !== undefined) out.push({ word: eq >= 0 ? w : args[i]!, text: "", file: value });
      }
      // gawk's --include: a source file read before the program (AWKPATH, the folder first; `.awk` added when the name is not found).
      if (o === "--include" && value !== undefined) out.push({ word: eq >= 0 ? w : args[i]!, text: "", file: value, include: true });
      continue;
    }
    // A cluster of flags up to the first option that takes a value: its value the rest, or the next word.
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (!VALUED.includes(c)) continue;
      const glued = v.slice(k + 1);
      const word = glued !== "" ? w : args[++i];
      const value = glued !== "" ? glued : word?.value;
      if (c === "e" && word) out.push({ word, text: value });
      if (c === "f" || c === "E") {
        fromFile = true;
        if (word && value !== undefined) out.push({ word, text: "", file: value });
      }
      if (c === "i" && word && value !== undefined) out.push({ word, text: "", file: value, include: true });
      // -W source=TEXT, -W exec FILE (gawk and mawk read -W's value as a long option).
      if (c === "W" && value !== undefined && word) {
        const o = longOption(`--${value}`);
        const eq = value.indexOf("=");
        if (o !== undefined && PROGRAM_LONG.includes(o)) out.push({ word, text: eq >= 0 ? value.slice(eq + 1) : args[++i]?.value });
        else if (o === "--file" || o === "--exec") {
          fromFile = true;
          if (eq < 0) i++;
        }
      }
      break;
    }
  }
  if (!out.some((p) => p.file === undefined) && !fromFile && i < args.length) out.push({ word: args[i]!, text: args[i]!.value });
  return out;
}
