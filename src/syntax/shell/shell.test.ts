import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { loadShellReader, MAX_COMMAND_LENGTH, type ShellReader } from "./parse.js";
import { decodeAnsiC, shellJoin, shellQuote } from "./quote.js";
import type { ShellProblem } from "./types.js";
import { cpuBound, cpuTimed } from "../../../test/cpu-time.js";
import { shellProblemText } from "../../rules/parse-error/command-messages.js";

/** A problem in the words the parse-error rule gives it. */
const wording = (p: ShellProblem): string => shellProblemText(p.problem, p.data);

let reader: ShellReader;
beforeAll(async () => {
  reader = await loadShellReader();
});

/** The static words of each simple command ("?" for a word decided at run time). */
function words(text: string): string[][] {
  return reader.parse(text).commands.map((c) => c.words.map((w) => w.value ?? "?"));
}

describe("shell reader: words", () => {
  it.each([
    ["rm x", "rm"],
    ["\\rm x", "rm"],
    ["r''m x", "rm"],
    ['r""m x', "rm"],
    ['"rm" x', "rm"],
    ["'rm' x", "rm"],
    ["$'rm' x", "rm"],
    ["$'\\x72\\x6d' x", "rm"],
    ["$'\\162m' x", "rm"],
    ["$'\\u0072m' x", "rm"],
    ["r\\m x", "rm"],
    ["/bin/rm x", "/bin/rm"],
    ["FOO=1 rm x", "rm"],
    ['"r"m x', "rm"],
  ])("reads %j as the program %j", (text, program) => {
    const s = reader.parse(text);
    expect(s.problems).toEqual([]);
    expect(s.commands).toHaveLength(1);
    expect(s.commands[0]!.words[0]!.value).toBe(program);
    expect(s.commands[0]!.words[1]!.value).toBe("x");
  });

  it.each(["$X a", "${X} a", "$(echo rm) a", "`echo rm` a", "{rm,-rf} a", "r{m,} a", '"$X" a', "$((1)) a"])("finds no fixed program in %j", (text) => {
    const s = reader.parse(text);
    const first = s.commands.find((c) => c.start === 0);
    expect(s.problems.length > 0 || first?.words[0]?.value === undefined).toBe(true);
  });

  it("keeps quoted white space and escaped spaces inside words", () => {
    expect(words('echo " " "\n" "a b" a\\ b')).toEqual([["echo", " ", "\n", "a b", "a b"]]);
  });

  it("marks unquoted globs, not quoted ones", () => {
    const [cmd] = reader.parse("ls *.py '*.txt' \"a?\" b\\* [ab]").commands;
    expect(cmd!.words.map((w) => w.glob)).toEqual([false, true, false, false, false, true]);
  });

  it("keeps assignments, redirections and here-documents apart from the words", () => {
    const s = reader.parse("FOO=1 BAR=$x make -j2 > out.log 2>&1 <<'EOF'\nbody && more\nEOF");
    expect(s.problems).toEqual([]);
    expect(s.constructs).toEqual([]);
    const [cmd] = s.commands;
    expect(cmd!.words.map((w) => w.value)).toEqual(["make", "-j2"]);
    expect(cmd!.assignments.map((a) => [a.name, a.value?.value])).toEqual([
      ["FOO", "1"],
      ["BAR", undefined],
    ]);
    expect(cmd!.redirects.map((r) => [r.fd, r.op, r.target?.value])).toEqual([
      [undefined, ">", "out.log"],
      ["2", ">&", "1"],
      [undefined, "<<", undefined],
    ]);
  });

  it("decodes $'…' strings as bash does, and refuses what it cannot fix", () => {
    expect(decodeAnsiC("a\\tb\\n\\\\\\'")).toBe("a\tb\n\\'");
    expect(decodeAnsiC("\\x41\\101\\u00e9\\U0001F600")).toBe("AAé😀");
    expect(decodeAnsiC("\\q")).toBe("\\q");
    expect(decodeAnsiC("a\\cb")).toBeUndefined();
    expect(decodeAnsiC("a\\0b")).toBeUndefined();
  });
});

describe("shell reader: structure", () => {
  it.each([
    ["a && b", ["&&"]],
    ["a || b", ["||"]],
    ["a; b", [";"]],
    ["a\nb", ["a newline"]],
    ["a | b", ["|"]],
    ["a |& b", ["|&"]],
    ["a &", ["&"]],
    ["a & b", ["&"]],
    ["a # c \\\nb", ["a newline"]],
    ["echo $(a)", ["$(…)"]],
    ["echo `a`", ["`…`"]],
    ["diff <(a) b", ["<(…)"]],
    ["tee >(a)", [">(…)"]],
    ["(a)", ["( … )"]],
    ["{ a; }", ["{ … }"]],
    ["! a", ["!"]],
    ["if a; then b; fi", ["if"]],
    ["while a; do b; done", ["while"]],
    ["until a; do b; done", ["until"]],
    ["for x in a; do b; done", ["for"]],
    ["case x in a) b;; esac", ["case"]],
    ["[[ -f a ]]", ["[[ … ]]"]],
    ["cat <<EOF\n$(a)\nEOF", ["$(…)"]],
  ])("finds the construct in %j", (text, kinds) => {
    const s = reader.parse(text);
    expect(s.problems).toEqual([]);
    expect(s.constructs.map((c) => c.kind)).toEqual(kinds);
  });

  it.each(["a;", "a ;", "a\n", "a # b; c", "echo 'a;b'", 'echo "a && b"', "echo a\\;b", "cat <<'EOF'\n$(a); b\nEOF", "a 2>&1", "a >/dev/null 2>&1", "x=1"])(
    "finds one command and no construct in %j",
    (text) => {
      const s = reader.parse(text);
      expect(s.problems).toEqual([]);
      expect(s.constructs).toEqual([]);
      expect(s.commands.length).toBeLessThanOrEqual(1);
    },
  );

  it("reads the commands inside substitutions, conditions, loops and here-documents", () => {
    expect(words("a $(b $(c)) `d` <(e) >(f)").map((w) => w[0])).toEqual(["a", "b", "c", "d", "e", "f"]);
    expect(words("if a; then b; elif c; then d; else e; fi").map((w) => w[0])).toEqual(["a", "b", "c", "d", "e"]);
    expect(words("while read l; do echo x; done < f").filter((w) => w.length > 0).map((w) => w[0])).toEqual(["read", "echo"]);
    expect(words("cat <<EOF\nx $(id) y\nEOF").map((w) => w[0])).toEqual(["cat", "id"]);
    expect(words("x=$(rm a)").filter((w) => w.length > 0)).toEqual([["rm", "a"]]);
  });

  it.each([
    ["f() { ls; }", "defines a function"],
    ["function f { ls; }", "defines a function"],
    ["r\\\nm -rf /", "backslash-newline inside a word"],
    ["ls\r", "control character"],
    ["ls\u0000x", "control character"],
    ["echo $((a[$(id)]))", "arithmetic"],
    ["(( a[$(id)] ))", "arithmetic"],
    ["ls (", "cannot be read"],
    ["if a; then", "missing"],
    ["echo 'unclosed", ""],
    ['echo "unclosed', ""],
    ["a && ", ""],
    ["for ((i=0; i<3; i++)); do :; done", "not understood"],
    ["'r'\\m -rf /", "one word to a shell"],
    ['"r"\\m -rf /', "one word to a shell"],
    ["A='x'\\y rm", "one word to a shell"],
    ["echo x > '.e'\\nv", "more than one target"],
    ["ls\n\\rm -rf /", "line break"],
    ["echo ''\\ x", "escaped space"],
  ])("refuses %j", (text, why) => {
    const s = reader.parse(text);
    expect(s.problems.length, JSON.stringify(s.problems)).toBeGreaterThan(0);
    expect(s.problems.map(wording).join(" | ")).toContain(why);
  });

  it("refuses a command over the length limit without parsing it", () => {
    const s = reader.parse("a ".repeat(MAX_COMMAND_LENGTH));
    expect(wording(s.problems[0]!)).toContain("characters long");
  });

  it("gives up on text the parser would go back over thousands of times, within a bounded number of reads", () => {
    // Each took seconds at 16 KB (error recovery goes back over the text); the reads stop that.
    // (16 KB of `@(a|b)` holds more pipes than a line may: a thousand of them are given up on all the same.)
    expect(wording(reader.parse("rm " + "@(a|b)".repeat(2600)).problems[0]!)).toContain("more than the 1024 that are read in one line");
    for (const text of ["rm " + "@(a|b)".repeat(1000), "case x in " + "a)".repeat(7990) + " esac", "rm " + "?(a)".repeat(3990)]) {
      const { value: s, ms } = cpuTimed(() => reader.parse(text));
      expect(ms).toBeLessThan(cpuBound(1500));
      expect(s.problems.map(wording)).toEqual([expect.stringContaining("the shell parser gave up, having gone back over the text more than 16 times")]);
    }
    // The parser starts afresh after giving up: the next command is read as itself.
    expect(reader.parse("rm -rf x").commands.map((c) => c.words[0]?.value)).toEqual(["rm"]);
  });

  it("reads long commands in pieces as it reads them whole (characters outside the BMP split nowhere)", () => {
    const text = `echo ${"\u{1F600}a".repeat(3000)}; rm -rf x; cat <<E\n${"\u00e9\u{1F600}\n".repeat(1000)}E\n`;
    const s = reader.parse(text);
    expect(s.problems).toEqual([]);
    expect(s.commands.map((c) => c.words[0]?.value)).toEqual(["echo", "rm", "cat"]);
  });

  it("reads every word of a long line, after the parse as during it", () => {
    // The tree reads its nodes' text through the parser's input: a bound counted there too read later words as empty.
    const line = `${"ls src; ".repeat(200)}rm -f ${"x ".repeat(2000)}.git/config`;
    const s = reader.parse(line);
    expect(s.problems).toEqual([]);
    expect(s.commands).toHaveLength(201);
    expect(s.commands.every((c) => c.words.every((w) => w.value !== ""))).toBe(true);
    expect(s.commands[200]!.words.at(-1)!.value).toBe(".git/config");
  });

  it("stops at a bounded depth", () => {
    const s = reader.parse("echo " + "$(".repeat(300) + "x" + ")".repeat(300));
    expect(s.problems.some((p) => wording(p).includes("levels deep"))).toBe(true);
  });
});

describe("shell reader: properties", () => {
  const word = fc.string({ minLength: 1, maxLength: 12, unit: fc.constantFrom(..."ab/._-=~#*?[]{},;&|<>()$`'\"\\ \t\nxé!%@:+^") });

  it("reads a quoted argument vector back as the same words", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 6 }), (argv) => {
        const line = shellJoin(argv);
        const s = reader.parse(line);
        expect(s.problems).toEqual([]);
        expect(s.constructs).toEqual([]);
        expect(s.commands).toHaveLength(1);
        expect(s.commands[0]!.words.map((w) => w.value)).toEqual(argv);
        expect(s.commands[0]!.words.every((w) => !w.glob)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("splits quoted vectors joined by an operator into two commands", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom("&&", "||", ";", "|", "\n"), (a, b, op) => {
        const s = reader.parse(`${shellJoin(a)} ${op} ${shellJoin(b)}`);
        expect(s.problems).toEqual([]);
        expect(s.commands.map((c) => c.words.map((w) => w.value))).toEqual([a, b]);
        expect(s.constructs).toHaveLength(1);
      }),
      { numRuns: 200 },
    );
  });

  it("never throws, whatever the text", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80, unit: fc.constantFrom(..."ab ;&|<>()$`'\"\\{}[]*?#=\n!-0129ecfi") }), (text) => {
        const s = reader.parse(text);
        expect(Array.isArray(s.commands)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });

  it("quotes only what needs quoting", () => {
    expect(shellQuote("src/a.py")).toBe("src/a.py");
    expect(shellQuote("it's")).toBe("'it'\\''s'");
    expect(shellQuote("A=1")).toBe("'A=1'");
    expect(shellQuote("~")).toBe("'~'");
  });
});
