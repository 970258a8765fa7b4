import type { ShellWord } from "../syntax/shell/types.js";
import { dotShellCode, duckdbCodeOf, mysqlCodeOf, psqlCodeOf } from "./database-clients.js";

/**
 * Code given to an interpreter on its command line or on its standard input (`python -c CODE`, `node -e
 * CODE`, `perl -e CODE`, `python3 - <<EOF`, `echo CODE | ruby`): code plangate does not read, which may
 * write any file or run any program. The program is compared by the name plangate reads it as (see
 * programReadAs); a version suffix counts (`python3.12`, `perl5.36`, `lua5.4`, `php8.2`).
 */
export interface InlineCode {
  /** The interpreter as the policy's `commands.inlineCode` names it (`python`, `node`, `perl`...). */
  interpreter: string;
  /** How the code is given: the option (`-c`, `--eval`), or `standard input`. */
  how: string;
  /** The word that holds the code, when it is one. */
  word?: ShellWord;
}

interface Spec {
  /** The name `commands.inlineCode` uses. */
  interpreter: string;
  /** Short options whose value is code (`c` of python, `e` and `p` of node). */
  code: string;
  /** Long options whose value is code (`--eval`, `--print`). */
  long?: readonly string[];
  /** Short options that take the next word (or the rest of their word) as a value that is not code. */
  valued: string;
  /** Long options that take the next word as a value when it is not joined with `=`. */
  longValued?: readonly string[];
  /** Short options whose value is only ever joined to them (`-i.bak`, `-F,`): they end a cluster, never take the next word. */
  glued?: string;
  /** Short options whose joined value is digits only (perl's `-l`, `-0`): the cluster goes on after them (`-lne`). */
  digits?: string;
  /** Short options whose value is the script file (`php -f x.php`, `guile -s x.scm`): an operand. */
  script?: string;
  /** Long options whose value is the script file (`R --file=x.R`). */
  longScript?: readonly string[];
  /** Options after which the interpreter reads code from standard input once its script has run (`python -i`, `node -i`). */
  interactive?: readonly string[];
  /** Short options after which the interpreter runs no code of its own (`-m mod`: a module, found by name). */
  module?: string;
  /** Options that print and exit, or check syntax only: no code runs (`--version`, `-V`). */
  quiet: readonly string[];
  /** A subcommand that takes code as its operand (`deno eval CODE`). */
  evalSubcommand?: string;
  /** A subcommand that reads code from standard input (`deno repl`, `bun repl`). */
  replSubcommand?: string;
  /** The interpreter runs a subcommand first, not a script (`deno run x.ts`, `bun run x`): only the eval forms are read. */
  subcommands?: true;
  /** Its operands are files it edits, its commands always come from standard input (`ed file`). */
  alwaysInput?: true;
  /** It reads no code from standard input when it is given none (a program with a window, or a compiler): only its code options are read. */
  noInput?: true;
  /** Modules (`-m`) that run code given on their line or standard input (`python -m timeit CODE`, `python -m code`). */
  codeModules?: readonly string[];
  /** Option values that are code in a data: URL (`node --import data:text/javascript,...`). */
  dataUrls?: true;
  /** It reads any unambiguous prefix of a long option as the option (getopt_long; Emacs's startup): `octave --eva CODE`. */
  abbreviates?: true;
  /**
   * Options may stand anywhere, not only before an operand: `values`, it takes no operand, so a word that
   * is no option is an option's value (`matlab -sd . -batch CODE`, `erl +A 4 -eval CODE`); `operands`, the
   * first such word is its operand (a script or a subcommand, `scala run -e CODE`).
   */
  anywhere?: "values" | "operands";
  /** Options after which no option is its own (`erl -extra`: the rest are the program's arguments). */
  stop?: readonly string[];
  /** Options after which it reads nothing from standard input (`erl -noshell`). */
  batch?: readonly string[];
}

const PYTHON: Spec = { interpreter: "python", code: "c", valued: "WXQ", interactive: ["-i"], codeModules: ["timeit", "code", "pdb", "cProfile", "profile", "trace"], longValued: ["--check-hash-based-pycs"], module: "m", quiet: ["-V", "--version", "-VV", "-h", "--help", "-?", "--help-env", "--help-xoptions", "--help-all"] };
const NODE: Spec = {
  interpreter: "node",
  code: "ep",
  long: ["--eval", "--print"],
  valued: "rC",
  interactive: ["-i", "--interactive"],
  dataUrls: true,
  longValued: ["--require", "--import", "--loader", "--experimental-loader", "--input-type", "--conditions", "--env-file", "--env-file-if-exists", "--title", "--inspect-port", "--test-reporter", "--test-reporter-destination", "--watch-path", "--disable-warning", "--experimental-config-file", "--run"],
  quiet: ["-v", "--version", "-h", "--help", "--v8-options", "-c", "--check"],
};
const PERL: Spec = { interpreter: "perl", code: "eE", valued: "I", glued: "MmxiFCdD", digits: "l0", quiet: ["-v", "-V", "-h", "--help", "--version"] };
const RUBY: Spec = { interpreter: "ruby", code: "e", valued: "IrCE", glued: "xiFWKT", digits: "0", longValued: ["--encoding", "--external-encoding", "--internal-encoding", "--enable", "--disable", "--dump", "--backtrace-limit", "--crash-report", "--parser"], quiet: ["-v", "--version", "-h", "--help"] };
const PHP: Spec = { interpreter: "php", code: "rRBE", valued: "cdzFtS", script: "f", interactive: ["-a", "--interactive"], quiet: ["-v", "--version", "-h", "--help", "-i", "--info", "-m", "--modules", "-l", "--syntax-check"] };
const LUA: Spec = { interpreter: "lua", code: "e", valued: "l", interactive: ["-i"], quiet: ["-v"] };
const RSCRIPT: Spec = { interpreter: "Rscript", code: "e", valued: "", quiet: ["--version", "--help"] };
const R: Spec = { interpreter: "R", code: "e", valued: "", script: "f", longScript: ["--file"], quiet: ["--version", "--help", "-h"] };
const JULIA: Spec = { interpreter: "julia", abbreviates: true, code: "eE", long: ["--eval", "--print"], valued: "CJLOpt", longValued: ["--project", "--sysimage", "--load", "--threads", "--procs"], quiet: ["-v", "--version", "-h", "--help"] };
const BUN: Spec = { interpreter: "bun", code: "ep", long: ["--eval", "--print"], valued: "r", longValued: ["--preload", "--cwd", "--env-file", "--config"], quiet: ["-v", "--version", "-h", "--help", "--revision"], replSubcommand: "repl", subcommands: true };
const DENO: Spec = { interpreter: "deno", code: "", valued: "", quiet: [], evalSubcommand: "eval", replSubcommand: "repl", subcommands: true };
const OSASCRIPT: Spec = { interpreter: "osascript", code: "e", valued: "lsi", quiet: [] };
const TCLSH: Spec = { interpreter: "tclsh", code: "", valued: "", quiet: [] };
const GUILE: Spec = { interpreter: "guile", code: "c", valued: "LleCx", script: "s", quiet: ["-v", "--version", "-h", "--help"] };
const ELIXIR: Spec = { interpreter: "elixir", code: "e", long: ["--eval", "--erl"], valued: "r", longValued: [ "--sname", "--name", "--cookie", "--pa", "--pz", "--logger-otp-reports", "--logger-sasl-reports"], quiet: ["-v", "--version", "-h", "--help"] };
const GROOVY: Spec = { interpreter: "groovy", code: "e", valued: "cDa", quiet: ["-v", "--version", "-h", "--help"] };
const RACKET: Spec = { interpreter: "racket", code: "e", long: ["--eval"], valued: "flpkSACJ", script: "tr", interactive: ["-i", "--repl"], quiet: ["-v", "--version", "-h", "--help"] };
const DC: Spec = { interpreter: "dc", code: "e", long: ["--expression"], valued: "", script: "f", longScript: ["--file"], quiet: ["-V", "--version", "-h", "--help"] };
const ED: Spec = { interpreter: "ed", code: "", valued: "p", quiet: ["-V", "--version", "-h", "--help"], alwaysInput: true };
const EMACS: Spec = { interpreter: "emacs", abbreviates: true, code: "", long: ["--eval", "-eval", "--execute", "-execute"], valued: "lLf", longValued: ["--load", "-load", "--funcall", "-funcall", "--directory", "-directory"], quiet: ["--version", "--help"], noInput: true };
const SBCL: Spec = { interpreter: "sbcl", code: "", long: ["--eval", "--load"], valued: "", quiet: ["--version", "--help"], noInput: true };
const GHC: Spec = { interpreter: "ghc", code: "e", valued: "o", quiet: ["--version", "--help"], noInput: true };
const CLOJURE: Spec = { interpreter: "clojure", code: "e", long: ["--eval"], valued: "", quiet: ["--version", "--help", "-h"], noInput: true };
// Numeric and symbolic systems whose languages run programs (system(), shell escapes): code on the line,
// or on standard input when no script is named.
const GNUPLOT: Spec = { interpreter: "gnuplot", code: "e", valued: "", script: "c", quiet: ["-V", "--version", "-h", "--help"] };
const OCTAVE: Spec = { interpreter: "octave", abbreviates: true, code: "", long: ["--eval"], valued: "p", interactive: ["-i", "--interactive", "--persist"], longValued: ["--path", "--exec-path", "--image-path", "--info-file", "--info-program", "--doc-cache-file", "--texi-macros-file"], quiet: ["-v", "--version", "-h", "--help"] };
// MATLAB's options are words after one dash; without -batch or -r it reads its commands from standard input.
const MATLAB: Spec = { interpreter: "matlab", code: "", long: ["-batch", "-r", "--batch"], valued: "", quiet: ["-help", "-h", "-n"], anywhere: "values" };
const MAXIMA: Spec = { interpreter: "maxima", code: "r", long: ["--batch-string", "--run-string"], valued: "lusX", longValued: ["--lisp", "--use-version", "--server", "--userdir", "--init", "--init-mac", "--init-lisp"], script: "bp", longScript: ["--batch", "--batch-lisp", "--preload"], quiet: ["-v", "--version", "-h", "--help", "-d", "--directories"] };
const GP: Spec = { interpreter: "gp", code: "", valued: "spD", longValued: ["--stacksize", "--primelimit"], quiet: ["--version", "--version-short", "-h", "--help"] };
const SAGE: Spec = { interpreter: "sage", code: "c", valued: "", quiet: ["-v", "--version", "-h", "--help"] };
// scala-cli (the `scala` command since Scala 3.5) reads options anywhere, after its subcommand too (`scala run -e CODE`); `repl` reads standard input.
const SCALA: Spec = { interpreter: "scala", code: "e", long: ["--execute-script", "--execute-scala", "--execute-java", "--script-snippet", "--scala-snippet", "--java-snippet"], valued: "", longValued: ["--classpath", "--cp", "--server", "-cp", "-classpath"], quiet: ["-version", "--version", "-help", "--help", "-h"], anywhere: "operands", replSubcommand: "repl" };
// Erlang's shell reads standard input unless told otherwise; -eval is code, -s and -run call a module's function by name.
// It takes no operand: its options and their values (`-pa ebin`, `+A 4`) stand anywhere up to -extra.
const ERL: Spec = { interpreter: "erl", code: "", long: ["-eval"], valued: "", quiet: ["-version"], anywhere: "values", stop: ["-extra"], batch: ["-noshell", "-noinput", "-detached"] };
const SWIPL: Spec = { interpreter: "swipl", code: "gt", valued: "xFp", script: "slf", quiet: ["--version", "-v", "--help", "-h", "--dump-runtime-variables", "--abi-version", "--arch"] };
const CSI: Spec = { interpreter: "csi", code: "", long: ["-e", "-eval", "-p", "-print", "-P", "-pretty-print"], valued: "IRk", script: "s", quiet: ["-version", "-release", "-help", "--help", "-h"] };
const CRYSTAL: Spec = { interpreter: "crystal", code: "", valued: "", quiet: ["--version", "-v", "--help", "-h"], evalSubcommand: "eval", replSubcommand: "i", subcommands: true };
// File transfer clients whose commands (from -c, -e or standard input) run local shell commands (`!cmd`) and write local files (`get`).
const LFTP: Spec = { interpreter: "lftp", code: "ce", valued: "pu", script: "f", quiet: ["-v", "--version", "-h", "--help"], alwaysInput: true };
const FTP: Spec = { interpreter: "ftp", code: "", valued: "PsT", quiet: ["-h", "--help", "-V", "--version"], alwaysInput: true };
const SFTP: Spec = { interpreter: "sftp", code: "", valued: "BcDFiJloPRsS", script: "b", quiet: [], alwaysInput: true };
const REPL: (interpreter: string) => Spec = (interpreter) => ({ interpreter, code: "", valued: "", quiet: ["-v", "--version", "-h", "--help"] });
const NODE_NAMES = new Set(["node", "nodejs", "iojs"]);

/** The names of standard input as a file. */
const STDIN_FILE = /^\/dev\/(?:stdin|fd\/0)$|^\/proc\/self\/fd\/0$/;

/** Each interpreter's spec by the names it is run under (a version suffix dropped: see specOf). */
const SPECS: ReadonlyMap<string, Spec> = new Map<string, Spec>([
  ...(["python", "pypy", "py", "ipython", "jython", "graalpy"] as const).map((n): [string, Spec] => [n, PYTHON]),
  ...[...NODE_NAMES].map((n): [string, Spec] => [n, NODE]),
  ["perl", PERL],
  ...(["ruby", "jruby", "truffleruby"] as const).map((n): [string, Spec] => [n, RUBY]),
  ["php", PHP],
  ["php-cli", PHP],
  ["lua", LUA],
  ["luajit", LUA],
  ["julia", JULIA],
  ["bun", BUN],
  ["deno", DENO],
  ["osascript", OSASCRIPT],
  ["tclsh", TCLSH],
  ["wish", TCLSH],
  ["guile", GUILE],
  ["elixir", ELIXIR],
  ["groovy", GROOVY],
  ["racket", RACKET],
  ["dc", DC],
  ["ed", ED],
  ["red", ED],
  ["emacs", EMACS],
  ["sbcl", SBCL],
  ...(["ghc", "runghc", "runhaskell"] as const).map((n): [string, Spec] => [n, { ...GHC, interpreter: n }]),
  ...(["clojure", "clj", "bb"] as const).map((n): [string, Spec] => [n, { ...CLOJURE, interpreter: n }]),
  // Distributions ship gnuplot by its terminal (`gnuplot-qt`, `gnuplot-nox`, `gnuplot-x11`), Windows as `wgnuplot`.
  ...(["gnuplot", "wgnuplot", "gnuplot-qt", "gnuplot-nox", "gnuplot-x11", "gnuplot-wx", "gnuplot-base"] as const).map((n): [string, Spec] => [n, GNUPLOT]),
  ...(["octave", "octave-cli", "octave-gui"] as const).map((n): [string, Spec] => [n, OCTAVE]),
  ["matlab", MATLAB],
  ["maxima", MAXIMA],
  ["gp", GP],
  ["sage", SAGE],
  ...(["scala", "scala-cli", "scala3"] as const).map((n): [string, Spec] => [n, SCALA]),
  ["erl", ERL],
  ["swipl", SWIPL],
  ["csi", CSI],
  ["chicken-csi", CSI],
  ["crystal", CRYSTAL],
  ["lftp", LFTP],
  ...(["ftp", "pftp", "tnftp"] as const).map((n): [string, Spec] => [n, FTP]),
  ["sftp", SFTP],
  ...(["irb", "pry", "jshell", "ocaml", "utop", "gforth", "scheme", "chez", "petite", "mit-scheme"] as const).map((n): [string, Spec] => [n, REPL(n)]),
]);

/** The interpreter a program name is (a version suffix dropped: `python3.12`, `lua5.4`, `php8.2`), or undefined. */
function specOf(name: string): Spec | undefined {
  // R and Rscript by their exact names: `R3` is no R.
  if (name === "Rscript" || name === "rscript") return RSCRIPT;
  if (name === "R") return R;
  const spec = SPECS.get(name);
  if (spec !== undefined || !/[0-9.]$/.test(name)) return spec;
  return SPECS.get(name.replace(/(?:[0-9][0-9.]*)?(?:-[0-9][0-9.]*)?$/, "").replace(/\.$/, ""));
}

/**
 * The interpreter a program is, as commands.inlineCode names it (`python` for `python3.12`), or
 * undefined; also undefined when its first word only asks for its version or help (`python3 --version`).
 */
export function interpreterOf(name: string, args: readonly ShellWord[] = []): string | undefined {
  const spec = specOf(name);
  if (spec === undefined) return undefined;
  const first = args[0]?.value;
  return first !== undefined && args.length === 1 && spec.quiet.includes(first) ? undefined : spec.interpreter;
}

/** Is the program an interpreter whose inline code is read here (for tests and the policy's messages)? */
export function isInterpreter(name: string): boolean {
  return specOf(name) !== undefined || name === "sqlite3" || name === "sqlite" || DATABASE_CLIENTS.has(name);
}

/** Database clients whose commands are read as sqlite3's are (database-clients.ts). */
const DATABASE_CLIENTS = new Set(["psql", "mysql", "mariadb", "duckdb"]);

/**
 * The code an interpreter is given on its line or its standard input, if any. `stdinFile`: the command's
 * standard input is a file of the workspace (`python < x.py`), which is then its script, as an operand is.
 * A word decided at run time where the script would be may be `-`: it is read as standard input.
 */
export function inlineCodeOf(name: string, args: readonly ShellWord[], stdinFile: boolean): InlineCode | undefined {
  if (name === "sqlite3" || name === "sqlite") return sqliteCodeOf(args, stdinFile);
  if (name === "psql") return psqlCodeOf(args, stdinFile);
  if (name === "mysql" || name === "mariadb") return mysqlCodeOf(name, args, stdinFile);
  if (name === "duckdb") return duckdbCodeOf(args, stdinFile);
  const spec = specOf(name);
  if (spec === undefined) return undefined;
  const interpreter = spec.interpreter;
  const fromInput = (word?: ShellWord): InlineCode | undefined => (stdinFile ? undefined : { interpreter, how: "standard input", ...(word ? { word } : {}) });
  let i = 0;
  if (spec.subcommands) {
    // Global options up to the subcommand; only `deno eval CODE`, `bun -e CODE`, a REPL and `run -` are code.
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined) return { interpreter, how: "a word decided at run time", word: args[i]! };
      if (spec.quiet.includes(v)) return undefined;
      const code = codeOption(spec, args, i);
      if (code !== undefined) return code;
      if (!v.startsWith("-")) break;
      if (spec.longValued?.includes(v)) i++;
    }
    if (i >= args.length) return spec.replSubcommand !== undefined && spec.interpreter === "deno" ? fromInput() : undefined;
    const sub = args[i]!.value!;
    if (spec.evalSubcommand !== undefined && sub === spec.evalSubcommand) return { interpreter, how: sub, ...(args[i + 1] ? { word: args[i + 1]! } : {}) };
    if (sub === spec.replSubcommand) return fromInput(args[i]!);
    if (sub !== "run") return undefined;
    // `bun run -`, `deno run -`: the script from standard input.
    for (let k = i + 1; k < args.length; k++) {
      const v = args[k]!.value;
      if (v === "-") return fromInput(args[k]!);
      if (v === undefined) return { interpreter, how: "a word decided at run time", word: args[k]! };
      if (!v.startsWith("-")) return undefined;
    }
    return undefined;
  }
  let operand: ShellWord | undefined;
  let script = false;
  let interactive = false;
  let batch = false;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { interpreter, how: "a word decided at run time", word: w };
    if (v === "--") {
      operand ??= args[i + 1];
      break;
    }
    if (spec.stop?.includes(v)) break;
    if (v === "-" || !v.startsWith("-")) {
      if (spec.anywhere === "values") continue;
      if (spec.anywhere === "operands" && v !== "-") {
        operand ??= w;
        continue;
      }
      operand = w;
      break;
    }
    if (spec.quiet.includes(v)) return undefined;
    if (spec.batch?.includes(v)) batch = true;
    if (spec.interactive?.includes(v)) interactive = true;
    const code = codeOption(spec, args, i);
    if (code !== undefined) return code;
    if (v.startsWith("--")) {
      const o = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
      if (spec.longScript?.includes(o)) script = true;
      if (!v.includes("=") && (spec.longValued?.includes(v) || spec.longScript?.includes(v))) i++;
      continue;
    }
    // A long option spelt with one dash that takes the next word (`scala -cp lib`, `-classpath`): not a cluster.
    if (spec.longValued?.includes(v)) {
      i++;
      continue;
    }
    // A cluster of letters: the first one that takes a value ends it, its value the rest or the next word.
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (spec.digits?.includes(c)) {
        while (k + 1 < v.length && /[0-9]/.test(v[k + 1]!)) k++;
        continue;
      }
      if (spec.module?.includes(c)) {
        const mod = k < v.length - 1 ? v.slice(k + 1) : args[i + 1]?.value;
        if (mod === undefined) return { interpreter, how: "a word decided at run time" };
        if (spec.codeModules?.includes(mod)) return { interpreter, how: `-m ${mod}`, word: w };
        return interactive ? fromInput() : undefined;
      }
      if (spec.interactive?.includes(`-${c}`)) interactive = true;
      if (spec.glued?.includes(c)) {
        // perl's -M and -m put their value into a `use` statement: anything but a module's name and plain arguments is code.
        if (interpreter === "perl" && (c === "M" || c === "m") && !/^-?[\w:]+(?:=[\w.,:/+-]*)?$/.test(v.slice(k + 1))) return { interpreter, how: `-${c}`, word: w };
        break;
      }
      const isScript = spec.script?.includes(c) === true;
      if (spec.valued.includes(c) || isScript) {
        // A script read from standard input (`sftp -b - host`, `gnuplot -c /dev/stdin`) is code given there.
        const value = k < v.length - 1 ? v.slice(k + 1) : args[i + 1]?.value;
        if (isScript && (value === "-" || (value !== undefined && STDIN_FILE.test(value)))) return fromInput(w);
        if (isScript) script = true;
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  if (interactive) return fromInput();
  if (script || batch) return undefined;
  if (spec.alwaysInput) return fromInput();
  if (spec.noInput) return operand?.value === undefined && operand !== undefined ? { interpreter, how: "a word decided at run time", word: operand } : undefined;
  if (operand === undefined) return fromInput();
  if (operand.value === undefined) return { interpreter, how: "a word decided at run time", word: operand };
  if (operand.value === "-" || STDIN_FILE.test(operand.value) || operand.value === spec.replSubcommand) return fromInput(operand);
  return undefined;
}

/**
 * Is `o` (`--eva`) a prefix of a long code option of an interpreter that reads abbreviations, and no
 * option of its own spelt out (octave's `--exec-path`, maxima's `--batch`)? An ambiguous prefix is an
 * error there, so reading it as code refuses at worst.
 */
function abbreviatesCode(spec: Spec, o: string): boolean {
  if (spec.abbreviates !== true || !o.startsWith("--") || o.length < 4) return false;
  if (spec.longValued?.includes(o) || spec.longScript?.includes(o) || spec.quiet.includes(o) || spec.interactive?.includes(o)) return false;
  return spec.long?.some((l) => l.startsWith("--") && l.startsWith(o)) === true;
}

/** The code option at `args[i]`, alone, closing a cluster (`-pe`), with its value joined (`-cCODE`, `--eval=CODE`). */
function codeOption(spec: Spec, args: readonly ShellWord[], i: number): InlineCode | undefined {
  const w = args[i]!;
  const v = w.value!;
  const interpreter = spec.interpreter;
  if (spec.dataUrls) {
    // A module given by a data: URL is code written into the line (`--import=data:text/javascript,...`).
    const value = v.includes("=") ? v.slice(v.indexOf("=") + 1) : v.startsWith("-") ? args[i + 1]?.value : undefined;
    if (value !== undefined && /^data:/i.test(value) && v.startsWith("-")) return { interpreter, how: "a data: URL", ...(v.includes("=") ? { word: w } : args[i + 1] ? { word: args[i + 1]! } : {}) };
  }
  const o = v.includes("=") ? v.slice(0, v.indexOf("=")) : v;
  if (v.startsWith("--") || spec.long?.includes(o)) {
    const eq = v.indexOf("=");
    const full = spec.long?.includes(o) ? o : abbreviatesCode(spec, o) ? spec.long!.find((l) => l.startsWith(o))! : undefined;
    if (full === undefined) return undefined;
    return { interpreter, how: full, ...(eq < 0 ? (args[i + 1] ? { word: args[i + 1]! } : {}) : { word: w }) };
  }
  if (!/^-[^-]/.test(v)) return undefined;
  for (let k = 1; k < v.length; k++) {
    const c = v[k]!;
    if (spec.digits?.includes(c)) {
      while (k + 1 < v.length && /[0-9]/.test(v[k + 1]!)) k++;
      continue;
    }
    if (spec.code.includes(c)) return { interpreter, how: `-${c}`, ...(k < v.length - 1 ? { word: w } : args[i + 1] ? { word: args[i + 1]! } : {}) };
    if (spec.valued.includes(c) || spec.glued?.includes(c) || spec.script?.includes(c) || spec.module?.includes(c)) return undefined;
  }
  return undefined;
}

/** sqlite3's options that take the next word as their value (`-cmd` is read as SQL). */
const SQLITE_VALUED = new Set(["-init", "-maxsize", "-mmap", "-newline", "-nonce", "-nullvalue", "-separator", "-sorterref", "-vfs", "-heap", "-memtrace"]);
const SQLITE_VALUED_TWO = new Set(["-lookaside", "-pagecache"]);
/** Dot-commands of the sqlite3 shell that only show or format: none writes a file, runs a program or loads code. */
const SQLITE_QUIET_DOTS = new Set([
  ".tables", ".table", ".schema", ".fullschema", ".indexes", ".indices", ".headers", ".header", ".mode", ".databases", ".dbinfo", ".dump", ".help",
  ".show", ".nullvalue", ".separator", ".width", ".timer", ".stats", ".changes", ".eqp", ".explain", ".lint", ".print", ".prompt", ".quit", ".exit",
  ".bail", ".echo", ".limit", ".parameter", ".sha3sum", ".version", ".timeout", ".scanstats", ".vfsinfo", ".vfslist", ".vfsname", ".dbconfig", ".expert",
]);
/**
 * What in sqlite3's SQL writes a file, reads one, runs a program or loads code (the shell's own functions,
 * ATTACH and VACUUM INTO, which create a database file, the zipfile, fsdir and sqlar tables), as words in
 * any case: found in strings and comments too, which refuses at worst.
 */
const SQLITE_FILE_WORDS = /(?<![A-Za-z0-9_$])(?:writefile|readfile|edit|load_extension|attach|vacuum|zipfile|fsdir|sqlar_compress|sqlar_uncompress|sqlar|shell_add_schema|fts3_tokenizer)(?![A-Za-z0-9_$])/i;

/**
 * The code sqlite3 is given that may write a file, read one, run a program or load code: a dot-command
 * other than those that only show or format (`.shell`, `.system`, `.output f`, `.once`, `.excel`, `.save`,
 * `.backup`, `.import`, `.read`, `.load`, `.open`, `.cd`, `.archive`...), SQL holding the functions and
 * statements that do (`writefile()`, `edit()`, `ATTACH`, `VACUUM INTO`), archive mode (`-A`), or SQL
 * read from standard input (a here-document, a pipe, the terminal). `-safe` turns all of them off.
 */
export function sqliteCodeOf(args: readonly ShellWord[], stdinFile: boolean): InlineCode | undefined {
  const interpreter = "sqlite3";
  const texts: ShellWord[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { interpreter, how: "a word decided at run time", word: w };
    if (!v.startsWith("-") || v === "-") break;
    const o = v.startsWith("--") ? v.slice(1) : v;
    if (o === "-safe") return undefined;
    if (o === "-version" || o === "-help") return undefined;
    if (o === "-A" || o.startsWith("-A") || o === "-archive") return { interpreter, how: "-A", word: w };
    if (o === "-cmd") {
      if (args[i + 1]) texts.push(args[++i]!);
      continue;
    }
    if (SQLITE_VALUED.has(o)) i++;
    else if (SQLITE_VALUED_TWO.has(o)) i += 2;
  }
  // The database file: a path, checked as one.
  if (i < args.length) i++;
  // Options may follow the file name too (sqlite3 reads them anywhere): `-safe` among them still holds.
  for (; i < args.length; i++) {
    const w = args[i]!;
    if (w.value === "-safe" || w.value === "--safe") return undefined;
    if (w.value === "-cmd" || w.value === "--cmd") {
      if (args[i + 1]) texts.push(args[++i]!);
      continue;
    }
    texts.push(w);
  }
  return dotShellCode(interpreter, texts, stdinFile, SQLITE_QUIET_DOTS, SQLITE_FILE_WORDS);
}

/** A file an interpreter runs as its script (`python3 run.py`, `node x.js`, `php -f x.php`, `deno run x.ts`). */
export interface ScriptFile {
  /** The interpreter as commands.inlineCode names it. */
  interpreter: string;
  /** The file, as its word's value. */
  text: string;
  word?: ShellWord;
}

/**
 * The script file an interpreter is given (its operand, or the value of its script option), read as
 * inlineCodeOf reads the line; undefined when it runs none, or when a word decided at run time stands
 * before it (that line is refused as code decided at run time).
 */
export function scriptFileOf(name: string, args: readonly ShellWord[]): ScriptFile | undefined {
  const spec = specOf(name);
  if (spec === undefined || spec.alwaysInput) return undefined;
  const interpreter = spec.interpreter;
  const file = (w: ShellWord | undefined): ScriptFile | undefined => (w?.value === undefined || w.value === "-" ? undefined : { interpreter, text: w.value, word: w });
  let i = 0;
  if (spec.subcommands) {
    // `deno run x.ts`, `bun run x.ts`, `bun x.ts`: the first word after the subcommand that is no option.
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v === undefined || !v.startsWith("-")) break;
      if (spec.longValued?.includes(v)) i++;
    }
    const sub = args[i]?.value;
    if (sub === undefined) return undefined;
    if (sub !== "run") return /\.[cm]?[jt]sx?$/.test(sub) ? file(args[i]) : undefined;
    for (let k = i + 1; k < args.length; k++) {
      const v = args[k]!.value;
      if (v === undefined) return undefined;
      if (!v.startsWith("-")) return file(args[k]);
    }
    return undefined;
  }
  for (; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return undefined;
    if (v === "--") return file(args[i + 1]);
    if (v === "-" || !v.startsWith("-")) return file(w);
    if (spec.quiet.includes(v)) return undefined;
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const o = eq < 0 ? v : v.slice(0, eq);
      if (spec.longScript?.includes(o)) return eq < 0 ? file(args[i + 1]) : { interpreter, text: v.slice(eq + 1) };
      if (spec.long?.includes(o)) return undefined;
      if (eq < 0 && spec.longValued?.includes(v)) i++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (spec.digits?.includes(c)) {
        while (k + 1 < v.length && /[0-9]/.test(v[k + 1]!)) k++;
        continue;
      }
      if (spec.code.includes(c) || spec.module?.includes(c)) return undefined;
      if (spec.glued?.includes(c)) break;
      if (spec.script?.includes(c)) return k < v.length - 1 ? { interpreter, text: v.slice(k + 1) } : file(args[i + 1]);
      if (spec.valued.includes(c)) {
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  return undefined;
}

/** node's options whose value is a module it loads before the script (`-r ./x.js`, `--import ./x.mjs`). */
const NODE_PRELOADS = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader"]);

/**
 * Files of code an interpreter's line loads by their name besides its script: python's `-m mod` (the
 * module's file, or its package's `__main__.py` and `__init__.py`, found in the folder it runs in first)
 * and the modules node preloads from a path (`-r ./x.js`, `--import ./x.mjs`). The plan judges each as
 * the interpreter's code when it writes the file (src/commands/written.ts); a name that is no path (`-r
 * dotenv/config`) is a package's, not followed.
 */
export function loadedFilesOf(name: string, args: readonly ShellWord[]): ScriptFile[] {
  const spec = specOf(name);
  if (spec !== PYTHON && spec !== NODE) return [];
  const out: ScriptFile[] = [];
  const interpreter = spec.interpreter;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined || v === "--" || v === "-" || !v.startsWith("-")) break;
    if (spec === NODE) {
      const eq = v.indexOf("=");
      const o = v.startsWith("--") && eq > 0 ? v.slice(0, eq) : v.startsWith("-r") && !v.startsWith("--") && v.length > 2 ? "-r" : v;
      if (!NODE_PRELOADS.has(o)) {
        if (eq < 0 && spec.longValued?.includes(v)) i++;
        else if (v === "-C") i++;
        continue;
      }
      const word = o === v ? args[++i] : undefined;
      const value = word !== undefined ? word.value : o === "-r" ? v.slice(2) : v.slice(eq + 1);
      if (value !== undefined && /^(?:\.{1,2}\/|\/|file:)/.test(value)) out.push({ interpreter, text: value.replace(/^file:(?:\/\/)?/, ""), ...(word ? { word } : {}) });
      continue;
    }
    if (v.startsWith("--")) {
      if (spec.longValued?.includes(v)) i++;
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (spec.code.includes(c)) return out;
      if (c === "m") {
        const word = k < v.length - 1 ? undefined : args[i + 1];
        const mod = word !== undefined ? word.value : v.slice(k + 1);
        if (mod === undefined || !/^[A-Za-z_][\w.]*$/.test(mod)) return out;
        const parts = mod.split(".");
        const at = word ? { word } : {};
        // Each package on the way is imported first (its __init__.py), then the module or the package's __main__.py.
        for (let p = 1; p <= parts.length; p++) out.push({ interpreter, text: `${parts.slice(0, p).join("/")}/__init__.py`, ...at });
        out.push({ interpreter, text: `${parts.join("/")}.py`, ...at }, { interpreter, text: `${parts.join("/")}/__main__.py`, ...at });
        return out;
      }
      if (spec.valued.includes(c)) {
        if (k === v.length - 1) i++;
        break;
      }
    }
  }
  return out;
}
