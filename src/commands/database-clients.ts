import type { ShellWord } from "../syntax/shell/types.js";
import type { InlineCode } from "./inline-code.js";

/*
 * Database clients run more than queries: psql's `\!`, mysql's `system` and duckdb's `.shell` run a
 * command line, `\o`, `tee` and `.output` write a file, `\copy`, `COPY ... TO PROGRAM` and `INTO OUTFILE`
 * write files or run programs, and a client given no query reads its commands from standard input. The
 * text a client is given is read here as sqlite3's is (inline-code.ts): what only queries or shows passes,
 * anything that may write a file, read one, run a program or load code is inline code, which the policy's
 * `commands.inlineCode` may allow by the client's name. Words are matched in strings and comments too,
 * which refuses at worst.
 */

/** One option of a command line read as getopt reads it: `-Atc TEXT`, `-cTEXT`, `--command=TEXT`, `--command TEXT`. */
interface Option {
  /** The short letter (`c`) or the long name (`command`). */
  name: string;
  /** Its value, when it takes one: the word that holds it (the option's own word when glued). */
  value?: ShellWord | undefined;
  /** The word the option is in. */
  word: ShellWord;
}

/**
 * The options of a command line, as getopt_long reads them: short ones clustered (`-Atc`), the first
 * that takes a value ending the cluster with the rest of the word or the next word (one of `gluedOnly`
 * with the rest of the word only); long ones with `=` or the next word. Operands are given with name "" (their word as value). Stops at `--`.
 * `undefined` for a word decided at run time among the options: it may be any option.
 */
function getopt(args: readonly ShellWord[], valued: string, longValued: readonly string[], gluedOnly = ""): Option[] | { unknown: ShellWord } {
  const out: Option[] = [];
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { unknown: w };
    if (v === "--") {
      for (let j = i + 1; j < args.length; j++) out.push({ name: "", value: args[j], word: args[j]! });
      break;
    }
    if (v.startsWith("--")) {
      const eq = v.indexOf("=");
      const name = v.slice(2, eq < 0 ? undefined : eq);
      if (eq >= 0) out.push({ name, value: { ...w, value: v.slice(eq + 1) }, word: w });
      else if (longValued.includes(name)) out.push({ name, value: args[++i], word: w });
      else out.push({ name, word: w });
      continue;
    }
    if (!v.startsWith("-") || v === "-") {
      out.push({ name: "", value: w, word: w });
      continue;
    }
    for (let k = 1; k < v.length; k++) {
      const c = v[k]!;
      if (gluedOnly.includes(c)) {
        // A value only when glued (mysql's -pPASSWORD): the rest of the word, whatever it holds.
        out.push({ name: c, ...(k + 1 < v.length ? { value: { ...w, value: v.slice(k + 1) } } : {}), word: w });
        break;
      }
      if (!valued.includes(c)) {
        out.push({ name: c, word: w });
        continue;
      }
      out.push({ name: c, value: k + 1 < v.length ? { ...w, value: v.slice(k + 1) } : args[++i], word: w });
      break;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// psql

/** psql's short options that take a value, and its long ones. */
const PSQL_VALUED = "cdfhpUvFRPToL";
const PSQL_LONG_VALUED = ["command", "dbname", "file", "host", "port", "username", "set", "variable", "field-separator", "record-separator", "pset", "table-attr", "output", "log-file"];

/**
 * psql's meta-commands that only show, format or end: none writes a file, reads one, runs a program or
 * sends the results of a query back as commands (`\gexec`). Any `\d...` lists objects.
 */
const PSQL_QUIET = new Set(["\\l", "\\l+", "\\list", "\\list+", "\\x", "\\timing", "\\conninfo", "\\echo", "\\q", "\\quit", "\\encoding", "\\errverbose", "\\copyright", "\\h", "\\help", "\\?", "\\sf", "\\sf+", "\\sv", "\\sv+", "\\z", "\\a", "\\t", "\\C", "\\H"]);

/**
 * What in SQL sent to a PostgreSQL server reads or writes its files, runs a program or loads code: the
 * server may be this machine (`COPY ... TO PROGRAM`, `COPY ... TO '/path'`, `pg_read_file`, large objects,
 * untrusted languages, extensions).
 */
const PSQL_FILE_WORDS = /(?<![A-Za-z0-9_$])(?:copy|program|pg_read_file|pg_read_binary_file|pg_ls_dir|pg_stat_file|pg_file_write|lo_import|lo_export|lo_from_bytea|load|extension|language|dblink|dblink_exec)(?![A-Za-z0-9_$])/i;

/** The code psql is given that may write a file, read one, run a program or load code (see above). */
export function psqlCodeOf(args: readonly ShellWord[], stdinFile: boolean): InlineCode | undefined {
  const interpreter = "psql";
  const options = getopt(args, PSQL_VALUED, PSQL_LONG_VALUED);
  if ("unknown" in options) return { interpreter, how: "a word decided at run time", word: options.unknown };
  const texts: ShellWord[] = [];
  // Something to do besides reading commands: a script file or the list of databases.
  let busy = false;
  for (const o of options) {
    if (o.name === "V" || o.name === "version" || o.name === "?" || o.name === "help") return undefined;
    if (o.name === "l" || o.name === "list") busy = true;
    if (o.name === "c" || o.name === "command") {
      if (o.value === undefined) return { interpreter, how: "-c", word: o.word };
      texts.push(o.value);
    } else if (o.name === "f" || o.name === "file") {
      // A script file of the workspace, as `sqlite3 db < schema.sql`; `-f -` is standard input.
      if (o.value?.value === undefined) return { interpreter, how: "a word decided at run time", word: o.value ?? o.word };
      if (o.value.value === "-" && !stdinFile) return { interpreter, how: "standard input", word: o.value };
      busy = true;
    }
  }
  for (const w of texts) {
    if (w.value === undefined) return { interpreter, how: "a word decided at run time", word: w };
    const t = w.value.trim();
    // psql reads a -c text as one meta-command or as SQL for the server; every backslash word is judged as
    // a meta-command all the same (the older psql, and a text piped in, read them anywhere).
    for (const m of t.matchAll(/\\[^\s\\'"]*/g)) {
      const name = m[0];
      if (name === "\\" || name.startsWith("\\d") || PSQL_QUIET.has(name)) continue;
      return { interpreter, how: name, word: w };
    }
    const hit = PSQL_FILE_WORDS.exec(t);
    if (hit) return { interpreter, how: hit[0], word: w };
  }
  if (texts.length === 0 && !busy && !stdinFile) return { interpreter, how: "standard input" };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// mysql and mariadb

/** Options of the mysql client that run a program, or write or read a file of commands: refused by their name. */
const MYSQL_CODE_OPTIONS = new Set(["pager", "tee", "defaults-file", "defaults-extra-file", "plugin-dir", "init-file", "load-data-local-dir"]);
/** Its short options that take a value, and its long ones (`-p` takes one only glued: alone it asks for the password). */
const MYSQL_VALUED = "ehPDSu";
const MYSQL_LONG_VALUED = ["execute", "init-command", "user", "host", "port", "database", "socket", "pager", "tee", "defaults-file", "defaults-extra-file", "plugin-dir", "init-file", "load-data-local-dir"];

/**
 * The client commands (`system`, `\!`, `tee`, `\T`, `source`, `\.`, `pager`, `\P`, `edit`, `\e`) and SQL
 * (`INTO OUTFILE`, `INTO DUMPFILE`, `LOAD DATA INFILE`, `LOAD_FILE()`, plugins and components) that run a
 * program, write a file or read one, as words.
 */
const MYSQL_CODE_WORDS = /(?<![A-Za-z0-9_$])(?:system|tee|source|pager|edit|outfile|dumpfile|infile|load_file|plugin|component)(?![A-Za-z0-9_$])|\\[!TP.e]/i;

/** The code the mysql (or mariadb) client is given that may write a file, read one, run a program or load code. */
export function mysqlCodeOf(interpreter: string, args: readonly ShellWord[], stdinFile: boolean): InlineCode | undefined {
  const options = getopt(args, MYSQL_VALUED, MYSQL_LONG_VALUED, "p");
  if ("unknown" in options) return { interpreter, how: "a word decided at run time", word: options.unknown };
  const texts: ShellWord[] = [];
  for (const o of options) {
    if (o.name === "V" || o.name === "version" || o.name === "?" || o.name === "I" || o.name === "help") return undefined;
    if (MYSQL_CODE_OPTIONS.has(o.name)) return { interpreter, how: `--${o.name}`, word: o.word };
    if (o.name === "e" || o.name === "execute" || o.name === "init-command") {
      if (o.value === undefined) return { interpreter, how: o.name.length === 1 ? `-${o.name}` : `--${o.name}`, word: o.word };
      texts.push(o.value);
    }
  }
  for (const w of texts) {
    if (w.value === undefined) return { interpreter, how: "a word decided at run time", word: w };
    const hit = MYSQL_CODE_WORDS.exec(w.value);
    if (hit) return { interpreter, how: hit[0], word: w };
  }
  if (texts.length === 0 && !stdinFile) return { interpreter, how: "standard input" };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------
// duckdb

/** duckdb's options that take the next word as their value, besides those that give it commands. */
const DUCKDB_VALUED = new Set(["-init", "-nullvalue", "-separator", "-newline"]);
/** Options whose value is a command or SQL (`-c` and `-s` run it and exit, `-cmd` runs it first). */
const DUCKDB_COMMANDS = new Set(["-c", "-s", "-cmd"]);
/** Dot-commands of the duckdb shell that only show or format. */
const DUCKDB_QUIET_DOTS = new Set([".tables", ".table", ".schema", ".indexes", ".indices", ".headers", ".header", ".mode", ".databases", ".help", ".show", ".nullvalue", ".separator", ".width", ".timer", ".print", ".prompt", ".quit", ".exit", ".bail", ".echo", ".maxrows", ".maxwidth", ".columns", ".rows", ".highlight", ".changes"]);
/**
 * What in duckdb's SQL writes a file, reads one beyond a data file, runs a program or loads code:
 * `COPY ... TO`, `EXPORT DATABASE`, `INSTALL` and `LOAD` of extensions, `ATTACH`, `read_text`, `read_blob`.
 * (`read_csv` and the other readers of data files pass.)
 */
const DUCKDB_FILE_WORDS = /(?<![A-Za-z0-9_$])(?:copy|export|install|load|attach|read_text|read_blob|shell)(?![A-Za-z0-9_$])/i;

/** The code duckdb is given that may write a file, read one, run a program or load code. */
export function duckdbCodeOf(args: readonly ShellWord[], stdinFile: boolean): InlineCode | undefined {
  const interpreter = "duckdb";
  const texts: ShellWord[] = [];
  let database = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const v = w.value;
    if (v === undefined) return { interpreter, how: "a word decided at run time", word: w };
    const o = v.startsWith("--") ? v.slice(1) : v;
    if (o === "-version" || o === "-help") return undefined;
    if (DUCKDB_COMMANDS.has(o)) {
      if (args[i + 1]) texts.push(args[++i]!);
      else return { interpreter, how: o, word: w };
      continue;
    }
    if (DUCKDB_VALUED.has(o)) {
      i++;
      continue;
    }
    if (o.startsWith("-")) continue;
    // The database file first (a path, checked as one), then commands.
    if (!database) database = true;
    else texts.push(w);
  }
  return dotShellCode(interpreter, texts, stdinFile, DUCKDB_QUIET_DOTS, DUCKDB_FILE_WORDS);
}

/**
 * The code among the texts a shell of sqlite3's kind (sqlite3, duckdb) is given: a dot-command other than
 * the quiet ones, SQL holding one of the file words, a text decided at run time; with no text at all,
 * the commands on standard input (unless that is a file of the workspace, a script as an operand is).
 */
export function dotShellCode(interpreter: string, texts: readonly ShellWord[], stdinFile: boolean, quietDots: ReadonlySet<string>, fileWords: RegExp): InlineCode | undefined {
  for (const w of texts) {
    const v = w.value;
    if (v === undefined) return { interpreter, how: "a word decided at run time", word: w };
    const t = v.trimStart();
    if (t.startsWith(".")) {
      const dot = /^\.[A-Za-z0-9_]*/.exec(t)![0].toLowerCase();
      if (!quietDots.has(dot)) return { interpreter, how: dot, word: w };
      continue;
    }
    const hit = fileWords.exec(v);
    if (hit) return { interpreter, how: hit[0], word: w };
  }
  if (texts.length === 0 && !stdinFile) return { interpreter, how: "standard input" };
  return undefined;
}
