import type { ShellWord } from "../syntax/shell/types.js";

/**
 * sed's scripts, read as GNU sed compiles them (compile.c): what a script reads, writes and runs.
 * `r FILE` and `R FILE` read a file; `w FILE`, `W FILE` and the `w FILE` flag of `s` write one (the file
 * name is the rest of the line: a `;` or `}` after it is part of it); the `e` command and the `e` flag of
 * `s` run a command line (the one given, or the pattern space). A script sed would refuse to compile runs
 * nothing; one this reader cannot follow is reported as unreadable, so that nothing it may hide passes.
 */
export interface SedScript {
  /** Files the script reads (`r`, `R`). */
  reads: string[];
  /** Files the script writes (`w`, `W`, `s///w`). */
  writes: string[];
  /** How the script runs a command line (`e command`, `e`, the `e` flag of `s`), or undefined. */
  runs?: string;
  /** Why the script cannot be read (what sed would refuse, or this reader does not follow). */
  unreadable?: string;
}

const BLANK = /[ \t]/;
const SPACE = /[ \t\n\v\f\r]/;
const DIGIT = /[0-9]/;
/** Commands that take no argument (read_end_of_cmd follows them). */
const PLAIN = new Set(["=", "d", "D", "F", "g", "G", "h", "H", "n", "N", "p", "P", "z", "x"]);

class Stop extends Error {}

/** Reads a sed script (the `-e` pieces joined with newlines, or the script operand). */
export function readSedScript(text: string): SedScript {
  const out: SedScript = { reads: [], writes: [] };
  let i = 0;
  const next = (): string | undefined => (i < text.length ? text[i++] : (i++, undefined));
  const back = () => i--;
  const fail = (why: string): never => {
    out.unreadable = why;
    throw new Stop(why);
  };
  const nonblank = (): string | undefined => {
    let c: string | undefined;
    do c = next();
    while (c !== undefined && BLANK.test(c));
    return c;
  };
  const endOfCommand = (): void => {
    const c = nonblank();
    if (c === "}" || c === "#") back();
    else if (c !== undefined && c !== "\n" && c !== ";") fail(`"${c}" after a command`);
  };
  const integer = (): void => {
    let c = next();
    while (c !== undefined && DIGIT.test(c)) c = next();
    back();
  };
  // A bracket expression in a regex ([/], [[:alpha:]]): the delimiter does not end it (snarf_char_class).
  const charClass = (): string | undefined => {
    let c = next();
    if (c === "^") c = next();
    if (c === "]") c = next();
    let state = 0;
    let delim = "";
    for (; ; c = next()) {
      if (c === undefined || c === "\n") return c;
      if (c === "." || c === ":" || c === "=") {
        if (state === 1) {
          delim = c;
          state = 2;
          continue;
        }
        if (state === 2 && c === delim) {
          state = 3;
          continue;
        }
      } else if (c === "[") {
        if (state === 0) state = 1;
        continue;
      } else if (c === "]") {
        if (state === 0 || state === 1) return c;
        if (state === 3) state = 0;
      }
      state &= ~1;
    }
  };
  // One part of `s/re/new/` or `y/a/b/`, up to the delimiter (match_slash).
  const delimited = (slash: string | undefined, regex: boolean): void => {
    // GNU sed takes a one-byte delimiter only; any other is refused here.
    if (slash === undefined || slash === "\n" || slash === "\\" || slash > "\x7f") fail("a missing or unusable delimiter");
    for (;;) {
      let c = next();
      if (c === undefined || c === "\n") fail("an unterminated regex or replacement");
      if (c === slash) return;
      if (c === "\\") {
        c = next();
        if (c === undefined) fail("an unterminated regex or replacement");
      } else if (c === "[" && regex && charClass() !== "]") fail("an unterminated bracket expression");
    }
  };
  // The rest of the line: a file name (read_filename) or the text of a/i/c/e (read_text, where `\` escapes a newline).
  const restOfLine = (escapes: boolean): string => {
    let s = "";
    for (let c = next(); c !== undefined && c !== "\n"; c = next()) {
      if (escapes && c === "\\") {
        c = next();
        if (c === undefined) break;
      }
      s += c;
    }
    return s;
  };
  const fileName = (): string => {
    const c = nonblank();
    if (c !== undefined) back();
    const name = restOfLine(false);
    if (name === "") fail("a command without its file name");
    return name;
  };
  const address = (c: string | undefined): boolean => {
    if (c === "/" || c === "\\") {
      delimited(c === "\\" ? next() : c, true);
      for (;;) {
        const f = nonblank();
        if (f !== "I" && f !== "M") {
          if (f !== undefined) back();
          return true;
        }
      }
    }
    if (c !== undefined && DIGIT.test(c)) {
      integer();
      const t = nonblank();
      if (t === "~") {
        nonblank();
        back();
        integer();
      } else if (t !== undefined) back();
      return true;
    }
    if (c === "+" || c === "~") {
      nonblank();
      back();
      integer();
      return true;
    }
    return c === "$";
  };
  try {
    for (;;) {
      let c = next();
      while (c !== undefined && (c === ";" || SPACE.test(c))) c = next();
      if (c === undefined) break;
      if (address(c)) {
        c = nonblank();
        if (c === ",") {
          if (!address(nonblank())) fail("a comma without a second address");
          c = nonblank();
        }
      }
      if (c === "!") c = nonblank();
      if (c === undefined) fail("an address without a command");
      const command = c!;
      if (command === "#") {
        restOfLine(false);
        continue;
      }
      if (command === "{") continue;
      if (PLAIN.has(command) || command === "}") endOfCommand();
      else if (command === "v" || command === ":" || command === "b" || command === "t" || command === "T") {
        // A label (read_label): up to a blank, `;`, `}`, `#` or the end of the line.
        let l = nonblank();
        while (l !== undefined && l !== "\n" && !BLANK.test(l) && l !== ";" && l !== "}" && l !== "#") l = next();
        back();
      } else if (command === "q" || command === "Q" || command === "l" || command === "L") {
        const d = nonblank();
        back();
        if (d !== undefined && DIGIT.test(d)) integer();
        endOfCommand();
      } else if (command === "a" || command === "i" || command === "c" || command === "e") {
        let t = nonblank();
        if (command === "e") {
          const line = t === undefined || t === "\n" ? "" : (back(), restOfLine(true));
          out.runs ??= line.trim() === "" ? "e without a command (the pattern space)" : `e ${line.trim()}`;
          continue;
        }
        if (t === undefined) fail(`${command} without its text`);
        if (t === "\\") {
          t = next();
          if (t !== "\n" && t !== undefined) back();
        } else back();
        restOfLine(true);
      } else if (command === "r" || command === "R") out.reads.push(fileName());
      else if (command === "w" || command === "W") out.writes.push(fileName());
      else if (command === "s") {
        const slash = next();
        delimited(slash, true);
        delimited(slash, false);
        // The flags (mark_subst_opts): `w FILE` ends them with the rest of the line.
        for (;;) {
          const f = nonblank();
          if (f === undefined || f === "\n" || f === ";") break;
          if (f === "}" || f === "#") {
            back();
            break;
          }
          if (f === "e") out.runs ??= "the e flag of s";
          else if (f === "w") {
            out.writes.push(fileName());
            break;
          } else if (DIGIT.test(f)) {
            back();
            integer();
          } else if (!"gpiImM".includes(f)) fail(`the flag "${f}" of s`);
        }
      } else if (command === "y") {
        const slash = next();
        delimited(slash, false);
        delimited(slash, false);
        endOfCommand();
      } else fail(`the command "${command}"`);
    }
  } catch (err) {
    if (!(err instanceof Stop)) throw err;
  }
  return out;
}

/** GNU sed's long options (getopt_long reads any prefix that names one alone), and whether each takes a value. */
const LONG: readonly (readonly [string, "none" | "required" | "optional"])[] = [
  ["binary", "none"],
  ["regexp-extended", "none"],
  ["debug", "none"],
  ["expression", "required"],
  ["file", "required"],
  ["in-place", "optional"],
  ["line-length", "required"],
  ["null-data", "none"],
  ["zero-terminated", "none"],
  ["quiet", "none"],
  ["posix", "none"],
  ["silent", "none"],
  ["sandbox", "none"],
  ["separate", "none"],
  ["unbuffered", "none"],
  ["version", "none"],
  ["help", "none"],
  ["follow-symlinks", "none"],
];

/** The long option a word names (exactly, or as the one option it begins), or undefined (unknown or ambiguous). */
function longOption(typed: string): (typeof LONG)[number] | undefined {
  const exact = LONG.find(([n]) => n === typed);
  if (exact) return exact;
  const hits = LONG.filter(([n]) => n.startsWith(typed));
  return typed !== "" && hits.length === 1 ? hits[0] : undefined;
}

/** sed's command line as GNU sed reads it: its scripts and their words, and its script files. */
export interface SedLine {
  /** The script (the `-e` pieces joined, or the first operand), with the words it comes from. */
  script?: { text: string; words: ShellWord[] };
  /**
   * Operands that are the script as sed may read the line otherwise: BSD sed's `-i SUFFIX` takes the
   * next word, so the script is the operand after it; with POSIXLY_CORRECT, GNU sed's options end at the
   * first operand, which is then the script.
   */
  others: { text: string; word: ShellWord }[];
  /** The values of `-f` (`--file`): script files. */
  files: string[];
  /** A word decided at run time stands where an option or the script may be: the line cannot be read. */
  atRunTime?: true;
}

/** Reads sed's options (GNU getopt: options anywhere before `--`, clusters, long options by prefix). */
export function readSedLine(args: ShellWord[]): SedLine {
  const short = "bsnrzuE";
  const valued = "efliV";
  const pieces: string[] = [];
  const words: ShellWord[] = [];
  const operands: ShellWord[] = [];
  const out: SedLine = { files: [], others: [] };
  let inPlaceAlone = false;
  let optionAfterOperand = false;
  let ended = false;
  for (let k = 0; k < args.length; k++) {
    const w = args[k]!;
    const v = w.value;
    if (v === undefined) {
      if (!ended) out.atRunTime = true;
      operands.push(w);
      continue;
    }
    if (ended || !v.startsWith("-") || v === "-") {
      operands.push(w);
      continue;
    }
    if (v === "--") {
      ended = true;
      continue;
    }
    if (operands.length > 0) optionAfterOperand = true;
    const take = (option: string, glued: string | undefined, optional: boolean): void => {
      let value = glued;
      let from = w;
      if (value === undefined && !optional) {
        const n = args[++k];
        if (n === undefined) return;
        if (n.value === undefined) out.atRunTime = true;
        value = n.value;
        from = n;
      }
      if (option === "e") {
        if (value !== undefined) pieces.push(value);
        words.push(from);
      } else if (option === "f" && value !== undefined) out.files.push(value);
      else if (option === "i" && value === undefined) inPlaceAlone = true;
    };
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const spec = longOption(eq < 0 ? v.slice(2) : v.slice(2, eq));
      if (spec === undefined || spec[1] === "none") continue;
      const letter = spec[0] === "expression" ? "e" : spec[0] === "file" ? "f" : spec[0] === "in-place" ? "i" : "l";
      take(letter, eq < 0 ? undefined : v.slice(eq + 1), spec[1] === "optional");
      continue;
    }
    for (let c = 1; c < v.length; c++) {
      const letter = v[c]!;
      if (short.includes(letter) || !valued.includes(letter)) continue;
      const glued = c < v.length - 1 ? v.slice(c + 1) : undefined;
      take(letter, glued, letter === "i");
      break;
    }
  }
  const [first, second] = operands;
  if (words.length > 0 || out.files.length > 0) {
    if (words.length > 0) out.script = { text: pieces.join("\n"), words };
    if (optionAfterOperand && first?.value !== undefined) out.others.push({ text: first.value, word: first });
  } else if (first?.value !== undefined) out.script = { text: first.value, words: [first] };
  // BSD sed's -i takes the next word as its suffix (`sed -i '' 's/a/b/w x' f`): the script is the operand after it.
  if (inPlaceAlone && words.length === 0 && out.files.length === 0 && second?.value !== undefined) out.others.push({ text: second.value, word: second });
  return out;
}
