import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellReader, type ShellReader } from "../syntax/shell/parse.js";
import { analyseCommand } from "./analyse.js";
import { readAwkProgram } from "./awk.js";
import { inlineCodeOf } from "./inline-code.js";

let reader: ShellReader;
beforeAll(async () => {
  reader = await loadShellReader();
});

describe("awk's programs", () => {
  it.each<[string, Partial<ReturnType<typeof readAwkProgram>>]>([
    ['BEGIN { system("rm -rf ..") }', { runs: ["rm -rf .."] }],
    ['{ print | "sort -u" }', { runs: ["sort -u"] }],
    ['{ printf "%s\\n", $1 | "cat 1>&2" }', { runs: ["cat 1>&2"] }],
    ['BEGIN { while (("git log" | getline l) > 0) n++ }', { runs: ["git log"] }],
    ['BEGIN { "date" |& getline d }', { runs: ["date"] }],
    ['{ print > "out.txt" }', { writes: ["out.txt"] }],
    ['{ print > "/dev/stderr" }', { writes: ["/dev/stderr"] }],
    ['{ printf("%s", $0) >> ".env" }', { writes: [".env"] }],
    ['BEGIN { getline line < "in.txt" }', { reads: ["in.txt"] }],
    ['BEGIN { getline a[1] < "in.txt" }', { reads: ["in.txt"] }],
    ['@include "lib.awk"\nBEGIN { }', { reads: ["lib.awk"] }],
    // What is decided at run time.
    ["BEGIN { system(cmd) }", { runsAtRunTime: "system()" }],
    ['BEGIN { system("rm " f) }', { runsAtRunTime: "system()" }],
    ["{ print | $2 }", { runsAtRunTime: "print | ..." }],
    ['BEGIN { "rm" x | getline }', { runsAtRunTime: "... | getline" }],
    ["{ print > $1 }", { fileAtRunTime: "print > ..." }],
    ['{ print > "a" "b" }', { fileAtRunTime: "print > ..." }],
    ["BEGIN { getline l < f }", { fileAtRunTime: "getline < ..." }],
    ['BEGIN { ARGV[1] = ".env" }', { fileAtRunTime: "ARGV" }],
    ["BEGIN { ARGC++ }", { fileAtRunTime: "ARGC" }],
    ['BEGIN { sub(/x/, "y", ARGV[1]) }', { fileAtRunTime: "ARGV" }],
    // What this reader does not follow.
    ['BEGIN { x = 1; y = x++ / 2; system("rm -rf ..") ; z = 1 / 3 }', { unreadable: 'a "/" after "++", which the awks read as a regular expression or a division' }],
    ['@load "ext"', { unreadable: "gawk's @load, which loads compiled code" }],
    ['BEGIN { f = "system"; @f("rm x") }', { unreadable: "gawk's @ before a name, an indirect call of any function, system() too" }],
    ['BEGIN { print "x" > "\\.env" }', { unreadable: 'the escape "\\.", which the awks read differently' }],
    ['BEGIN { print "x', { unreadable: "a string left open" }],
  ])("reads %j", (text, expected) => {
    expect(readAwkProgram(text)).toMatchObject(expected);
  });

  it.each([
    "{ print $1 }",
    "$1 > 5 { print }",
    "{ print ($1 > 5) }",
    "{ if ($3 > max) max = $3 } END { print max }",
    "/^#/ { next } { print }",
    '{ gsub(/a\\/b/, "c"); print }',
    "BEGIN { a = 4 / 2 / 1; print a }",
    'BEGIN { for (i = 1; i < ARGC; i++) print ARGV[i]; for (k in ARGV) n++; print "first:", ARGV[1] }',
    "NR == 1, /end/ { print NR }",
    "{ s = s $0 } END { print length(s) }",
  ])("finds nothing in %j", (text) => {
    expect(readAwkProgram(text)).toEqual({ runs: [], writes: [], reads: [] });
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(..."abs(){}[]<>|&;/\\\"'$@+-=!~#\n gtlinepr0123".split("")), maxLength: 60 }), (text) => {
        readAwkProgram(text);
      }),
      { numRuns: 2000 },
    );
  });

  it("reads the program wherever the awks take it from, and its command lines as any other line", () => {
    const findings = (text: string) => analyseCommand(reader, text, "chain", { allow: [], deny: ["rm"], allowCompound: false }).findings.map((f) => `${f.rule}:${f.messageId}`);
    const denied = ["disallowed-tool:commandDenied"];
    for (const text of [
      "awk 'BEGIN { system(\"rm -rf build\") }'",
      "gawk -e 'BEGIN { system(\"rm x\") }'",
      "gawk --source='BEGIN { system(\"rm x\") }'",
      "gawk --sou 'BEGIN { system(\"rm x\") }'",
      "awk -W source='BEGIN { system(\"rm x\") }'",
      "awk -F, -v x=1 -- 'BEGIN { system(\"rm x\") }'",
      "awk -vx=1 '{ print | \"rm x\" }' f",
      "busybox awk 'BEGIN { system(\"rm x\") }'",
      "find . -name '*.log' -exec awk 'BEGIN { system(\"rm x\") }' {} +",
      "awk 'BEGIN { system(\"sh -c \\\"rm x\\\"\") }'",
    ])
      expect(findings(text), text).toEqual(denied);
    // A program file is the project's, and the first operand after it is data; but for standard input, the plan's text.
    expect(findings("awk -f prog.awk 'BEGIN { system(\"rm x\") }'")).toEqual([]);
    expect(findings("gawk --file=lib.awk -E main.awk data")).toEqual([]);
    for (const text of ["echo 'BEGIN { system(1) }' | awk -f -", "awk -f /dev/stdin <<< 'BEGIN { }'", "gawk --file=- data", "awk -F, -f- data", "gawk -E /dev/fd/0"])
      expect(findings(text), text).toContain("disallowed-tool:hiddenCommands");
    expect(findings("awk -f")).toEqual([]);
    // A program decided at run time.
    expect(findings("awk \"$PROG\" f")).toContain("disallowed-tool:unreadableAwk");
    // The program is code, not a path: a regular expression is no absolute path.
    expect(analyseCommand(reader, "awk '/^#/ { next } { print }' src/a.txt", "chain", { allow: [], deny: [], allowCompound: false }).paths.map((p) => p.text)).toEqual(["src/a.txt"]);
    // In an intake command, a command line handed to awk is more than one tool, as sh -c's is.
    expect(analyseCommand(reader, "awk 'BEGIN { system(\"make\") }'", "single", { allow: [], deny: [], allowCompound: false }).findings.map((f) => f.messageId)).toEqual(["handsCommandLine"]);
  });
});

describe("inline code of interpreters", () => {
  const words = (line: string) => line.split(" ").map((value, i) => ({ source: value, value, glob: false, start: i, end: i }));
  it.each([
    ["python", "-c print(1)", "-c"],
    ["python3", "-Sc print(1)", "-c"],
    ["python", "", "standard input"],
    ["python", "-", "standard input"],
    ["python", "-i x.py", "standard input"],
    ["python", "-u /dev/stdin", "standard input"],
    ["node", "-pe 1", "-p"],
    ["node", "--eval=1", "--eval"],
    ["node", "--interactive", "standard input"],
    ["perl", "-lne print", "-e"],
    ["perl", "-Mstrict;system(1) x.pl", "-M"],
    ["ruby", "-e 1", "-e"],
    ["php", "-r 1", "-r"],
    ["php", "-a", "standard input"],
    ["deno", "eval 1", "eval"],
    ["deno", "", "standard input"],
    ["bun", "--print 1", "--print"],
    ["bun", "repl", "standard input"],
    ["Rscript", "-", "standard input"],
    ["julia", "-E 1", "-E"],
    ["lua5.4", "-e 1", "-e"],
    ["python3", "-m timeit -s import_os pass", "-m timeit"],
    ["python3", "-mcode", "-m code"],
    ["node", "--import=data:text/javascript,1 app.js", "a data: URL"],
    ["node", "--import data:text/javascript,1 app.js", "a data: URL"],
    ["dc", "-e !rm", "-e"],
    ["dc", "", "standard input"],
    ["ed", "-s src/a.txt", "standard input"],
    ["emacs", "--batch -eval (shell-command)", "-eval"],
    ["emacs", "--batch --eval=(x)", "--eval"],
    ["sbcl", "--non-interactive --eval (x)", "--eval"],
    ["ghc", "-e main", "-e"],
    ["bb", "-e 1", "-e"],
    ["irb", "", "standard input"],
    ["jshell", "", "standard input"],
    ["gnuplot", "-e system('rm')", "-e"],
    ["gnuplot", "", "standard input"],
    ["gnuplot", "-c /dev/stdin", "standard input"],
    ["octave", "--eval system('rm')", "--eval"],
    ["octave", "--persist x.m", "standard input"],
    ["matlab", "-batch x", "-batch"],
    ["matlab", "-nodisplay -r x", "-r"],
    ["matlab", "-nodesktop", "standard input"],
    ["maxima", "--batch-string=x", "--batch-string"],
    ["maxima", "-r x", "-r"],
    ["gp", "-q", "standard input"],
    ["sage", "-c x", "-c"],
    ["scala", "-e x", "-e"],
    ["erl", "-noshell -eval x", "-eval"],
    ["erl", "", "standard input"],
    ["swipl", "-g shell(rm)", "-g"],
    ["csi", "-eval x", "-eval"],
    ["crystal", "eval x", "eval"],
    ["crystal", "i", "standard input"],
    ["lftp", "-c !rm", "-c"],
    ["lftp", "-u a,b -e mirror host", "-e"],
    ["lftp", "host", "standard input"],
    ["ftp", "-n host", "standard input"],
    ["sftp", "host", "standard input"],
    ["sftp", "-b - host", "standard input"],
    ["ocaml", "", "standard input"],
    ["scala", "-cp lib", "standard input"],
    // Abbreviated long options, names by terminal or launcher, options after a value or a subcommand.
    ["octave", "--eva system('rm')", "--eval"],
    ["octave", "--ev=x x.m", "--eval"],
    ["julia", "--ev 1", "--eval"],
    ["emacs", "--batch --ev (x)", "--eval"],
    ["gnuplot-qt", "-e x", "-e"],
    ["gnuplot-nox", "", "standard input"],
    ["wgnuplot", "-e x", "-e"],
    ["matlab", "-sd . -batch x", "-batch"],
    ["matlab", "-logfile l.txt", "standard input"],
    ["erl", "+A 4 -eval x", "-eval"],
    ["erl", "-pa ebin", "standard input"],
    ["scala", "run -e x", "-e"],
    ["scala-cli", "x.sc --scala-snippet x", "--scala-snippet"],
    ["scala", "repl", "standard input"],
  ])("%s %s gives code by %s", (program, line, how) => {
    expect(inlineCodeOf(program, line === "" ? [] : words(line), false)?.how).toBe(how);
  });

  it.each([
    ["python", "x.py"],
    ["python", "-m pytest -x"],
    ["python", "-W error -X dev -m mypy src"],
    ["python", "-V"],
    ["python", "--help"],
    ["node", "app.js"],
    ["node", "-r ./setup.js app.js"],
    ["node", "--version"],
    ["perl", "-Mstrict -I lib x.pl"],
    ["perl", "-MFoo=a,b x.pl"],
    ["perl", "-pi.bak x.pl"],
    ["ruby", "-I lib -r json x.rb"],
    ["php", "-f x.php"],
    ["R", "--file=x.R"],
    ["R", "CMD build ."],
    ["deno", "run -A x.ts"],
    ["bun", "run build"],
    ["bun", "x.ts"],
    ["tclsh", "x.tcl"],
    ["python3", "-m http.server 8000"],
    ["node", "--import ./register.js app.js"],
    ["dc", "-f calc.dc"],
    ["emacs", "--batch -l build.el"],
    ["ghc", "-o app Main.hs"],
    ["sbcl", "--script build.lisp"],
    ["irb", "x.rb"],
    ["gcc", "-c x.c"],
    ["make", ""],
    ["gnuplot", "plot.gp"],
    ["gnuplot", "-p -c plot.gp a b"],
    ["octave", "--no-gui -q script.m"],
    ["maxima", "-b calc.mac"],
    ["gp", "-q prog.gp"],
    ["sage", "script.sage"],
    ["scala", "Main.scala"],
    ["erl", "-noshell -s init stop"],
    ["swipl", "main.pl"],
    ["csi", "-script x.scm"],
    ["crystal", "build x.cr"],
    ["lftp", "-f mirror.lftp"],
    ["sftp", "-b batch.txt host"],
    ["ocaml", "x.ml"],
    ["octave", "--exec-path bin x.m"],
    ["julia", "--proj=. x.jl"],
    ["gnuplot-nox", "plot.gp"],
    ["erl", "-noshell -pa ebin -run app main"],
    ["erl", "-noshell -extra -eval x"],
    ["scala-cli", "run x.sc"],
    ["scala", "compile ."],
  ])("%s %s gives no inline code", (program, line) => {
    expect(inlineCodeOf(program, line === "" ? [] : words(line), false)).toBeUndefined();
  });

  it("takes a file on standard input as the script, as an operand", () => {
    expect(inlineCodeOf("python3", [], true)).toBeUndefined();
    expect(inlineCodeOf("python3", words("-c 1"), true)?.how).toBe("-c");
  });
});

describe("sqlite3's code", () => {
  const words = (...values: string[]) => values.map((value, i) => ({ source: value, value, glob: false, start: i, end: i }));
  it.each([
    [["db", ".shell rm -rf .."], ".shell"],
    [["db", ".system rm x"], ".system"],
    [["db", ".output .env"], ".output"],
    [["db", " .once x"], ".once"],
    [["db", ".load ./x.so"], ".load"],
    [["db", ".read |rm x"], ".read"],
    [["db", "select writefile('.git/hooks/pre-commit', 'x')"], "writefile"],
    [["db", "SELECT EDIT('x', 'vim')"], "EDIT"],
    [["db", "attach database '.env' as e"], "attach"],
    [["db", "VACUUM INTO '/tmp/x.db'"], "VACUUM"],
    [["-cmd", ".shell make", "db", "select 1"], ".shell"],
    [["-Axf", "a.db"], "-A"],
    [["db"], "standard input"],
    [[], "standard input"],
  ])("%j gives code by %s", (args, how) => {
    expect(inlineCodeOf("sqlite3", words(...args), false)?.how).toBe(how);
  });

  it.each([
    [["db", "select count(*) from t"]],
    [["db", ".tables"]],
    [["-header", "-csv", "db", "select name from users where note like '%file%'"]],
    [["db", ".mode json", "select 1"]],
    [["-safe", "db", ".shell rm x"]],
    [["db", "select writefile('x', 1)", "-safe"]],
    [["--version"]],
  ])("%j gives none", (args) => {
    expect(inlineCodeOf("sqlite3", words(...args), false)).toBeUndefined();
  });

  it("takes a file on standard input as its SQL, as an operand", () => {
    expect(inlineCodeOf("sqlite3", words("db"), true)).toBeUndefined();
  });
});
