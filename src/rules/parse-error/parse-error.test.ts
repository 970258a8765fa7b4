import { describe, expect, it } from "vitest";
import { diagnosticsOf, run } from "../../../test/helpers.js";
import { commandCase, readRuleTester, ruleTester } from "../../../test/rule-tester.js";


const PLAIN_SHELL = "write the command in plain shell syntax (simple commands and quoted arguments), or split it into steps";
const ARGUMENT_VECTOR = "give the command as one string, or as a list of strings (program first)";
const MIXED = "write each word in one script (the plain Latin letters it looks like, if those are meant)";
const FUNCTION = "the command defines a function, whose name would shadow a program: plangate does not follow function calls";
const nested = (depth: number): string => {
  let line = "ls";
  for (let i = 0; i < depth; i++) line = `sh -c ${JSON.stringify(line)}`;
  return line;
};

ruleTester("parse-error", {
  valid: [
    '[{"tool": "plot_qc"}]',
    { name: "YAML read as YAML", code: "- tool: plot_qc\n", file: "plan.yaml" },
    // Words of one script each, and scripts that pass for no Latin letter, read as what they are.
    { name: "a command with Cyrillic, Greek and Japanese words beside Latin ones", code: JSON.stringify({ steps: [{ tool: "run_command", arguments: { command: "git commit -m '\u0418\u0441\u043f\u0440\u0430\u0432\u0438\u0442\u044c bug: \u03b1\u03b2\u03b3 \u8a2d\u5b9adata \u30c7\u30fc\u30bfv2'" }, intent: "commit" }] }) },
  ],
  invalid: [
    { name: "malformed JSON, at the fault", code: '[\n  {"tool": "plot_qc",}\n]', errors: [{ line: 2, column: 21, endLine: 2, endColumn: 22, severity: "error", message: /Trailing comma/, messageId: "jsonTrailingComma" }] },
    { name: "an empty file", code: "", errors: [{ line: 1, column: 1, endLine: 1, endColumn: 1, message: /empty/, messageId: "jsonEmpty" }] },
    { name: "a .json file is not re-read as YAML", code: "tool: plot_qc\n", errors: [{ line: 1, column: 1, endLine: 1, endColumn: 5, message: /Unexpected word 'tool'/, messageId: "jsonBareWord" }] },
    commandCase("a command the shell parser cannot read", { command: "ls (" }, "unreadableCommand", 'cannot be read as a shell command: "(" cannot be read as shell syntax', PLAIN_SHELL),
    commandCase("a command with two problems", { command: "f() { ls; }; g() { ls; }" }, "unreadableCommandAndOne", `cannot be read as a shell command: ${FUNCTION} (and 1 more problem)`, PLAIN_SHELL),
    commandCase("a command with three problems", { command: "f() { ls; }; g() { ls; }; h() { ls; }" }, "unreadableCommandAndMore", `cannot be read as a shell command: ${FUNCTION} (and 2 more problems)`, PLAIN_SHELL),
    commandCase("programs that run programs too deep", { command: nested(10) }, "nestedTooDeep", "nests programs that run programs more than 8 deep", "write the innermost command as its own step"),
    commandCase("an argument vector with a number", { command: ["ls", 1] }, "listNotStrings", "is a list with items that are not strings, so it is no argument vector", ARGUMENT_VECTOR),
    commandCase("arguments beside the command with a number", { command: "ls", args: ["-l", 2] }, "argvBesideNotStrings", 'has "args" beside it that is a list with items that are not strings, so it is no argument vector', ARGUMENT_VECTOR),
    ...[["\\u3164", "3164"], ["\\ufe0f", "FE0F"], ["\\u034f", "034F"], ["\\u2800", "2800"]].map(([c, code]) =>
      commandCase(`a character that shows nothing (U+${code}) in a command`, { command: `rm out/a${JSON.parse(`"${c}"`)}.txt` }, "unreadableCommand", `cannot be read as a shell command: the command holds the invisible or look-alike space character U+${code}, which makes it read as something other than it shows`, PLAIN_SHELL),
    ),
    // Also disallowed-tool's (a program name outside printable ASCII), which still reads the line.
    commandCase("a program name with a Cyrillic letter", { command: "\u0440ython x.py" }, "mixedScriptWord", 'holds the word "\u0440ython", which mixes Latin and Cyrillic letters: it reads as "python" but names another program or file', MIXED),
    commandCase("an operand that mixes Latin and Cyrillic", { command: "cp data/a.csv .\u0435nv" }, "mixedScriptWord", 'holds the word "\u0435nv", which mixes Latin and Cyrillic letters: it reads as "env" but names another program or file', MIXED),
    commandCase("a Greek omicron inside a quoted script name", { command: "python 'scripts/c\u03bfnfig.py'" }, "mixedScriptWord", 'holds the word "c\u03bfnfig", which mixes Latin and Greek letters: it reads as "config" but names another program or file', MIXED),
    { name: "an unterminated JSON text", code: "[{", errors: [{ line: 1, column: 3, endLine: 1, endColumn: 3, message: /end of input/, hint: /line 1, column 2/, messageId: "jsonIncompleteOpen" }] },
  ],
  docs: { file: "plan.json" },
});

describe("parse-error beyond one text's diagnostics", () => {
  it("reports invalid UTF-8 bytes", async () => {
    expect(await diagnosticsOf("parse-error", new Uint8Array([0x5b, 0xff, 0xfe, 0x5d]))).toHaveLength(1);
  });
  it("is the only diagnostic of a .json file that is YAML", async () => {
    const r = await run("tool: plot_qc\n", { file: "plan.json" });
    expect(r.diagnostics.map((x) => x.rule)).toEqual(["parse-error"]);
  });
  it("reads at most 128 KiB of distinct command lines in a plan, refusing the lines after it unread", async () => {
    // 21 distinct lines of 8,000 characters: the 17th takes the total over 128 KiB. A line written again is read once.
    const line = (i: number) => `echo ${i} ${"a".repeat(8_000 - 6 - String(i).length)}`;
    const steps = Array.from({ length: 21 }, (_, i) => ({ tool: "run_command", arguments: { command: line(i) }, intent: `echo ${i}` }));
    steps.push({ tool: "run_command", arguments: { command: line(0) }, intent: "again" });
    const r = await run(JSON.stringify({ scope: ".", steps }));
    // The refusals bound the work: steps 17 to 21 are refused before they are parsed, and step 22, read
    // before, is not counted again (it would be refused as well).
    const refused = r.diagnostics.filter((d) => d.messageId === "planCommandsTooLong");
    expect(refused.map((d) => d.message.slice(0, 8))).toEqual(["Step 17:", "Step 18:", "Step 19:", "Step 20:", "Step 21:"]);
    expect(refused[0]).toMatchObject({
      rule: "parse-error",
      severity: "error",
      message: 'Step 17: the command in "command" was not read: with it the plan\'s command lines would total more than 131072 characters, the most that are read in one plan.',
      hint: "split the plan into smaller plans, or write a long script to a file in one step and run the file in another",
    });
    expect(r.valid).toBe(false);
  });
  it("reads lines the parser cannot read up to 16 KiB in all, refusing the lines after it unread (16 lines of `a);` took 7 s)", async () => {
    // Six distinct lines of 4,000 characters the parser recovers from: past 16 KiB of them, the rest are refused unread.
    const line = (i: number) => `x${i};${"a);".repeat(1333)}`;
    const steps = Array.from({ length: 6 }, (_, i) => ({ tool: "run_command", arguments: { command: line(i) }, intent: `run ${i}` }));
    steps.push({ tool: "run_command", arguments: { command: "ls" }, intent: "list" });
    const r = await run(JSON.stringify({ scope: ".", steps }));
    const found = r.diagnostics.filter((d) => d.rule === "parse-error");
    expect(found.map((d) => [d.step, d.messageId])).toEqual([
      [1, "unreadableCommandAndMore"],
      [2, "unreadableCommandAndMore"],
      [3, "unreadableCommandAndMore"],
      [4, "unreadableCommandAndMore"],
      [5, "unreadableCommandAndMore"],
      [6, "planCommandsUnreadable"],
      [7, "planCommandsUnreadable"],
    ]);
    // Lines refused before they are parsed (too long, too many pipes, control characters) cost the parser nothing and do not count.
    const cheap = Array.from({ length: 6 }, (_, i) => ({ tool: "run_command", arguments: { command: `x${i}${"|a".repeat(2000)}` }, intent: `run ${i}` }));
    const r2 = await run(JSON.stringify({ scope: ".", steps: [...cheap, { tool: "run_command", arguments: { command: "ls" }, intent: "list" }] }));
    expect(r2.diagnostics.filter((d) => d.rule === "parse-error").map((d) => d.messageId)).toEqual(Array(6).fill("unreadableCommand"));
    expect(found[5]!.message).toBe('Step 6: the command in "command" was not read: the plan\'s command lines that cannot be read already total more than 16384 characters (the shell parser\'s recovery from errors takes up to some 50 microseconds a character).');
    expect(found[5]!.hint).toBe("fix the command lines reported before it, then validate again");
  });
  it("reads lines up to 16,384 programs in all, refusing the lines after it unread (128 KiB of `a;` ran 64,000: 2.5 s)", async () => {
    const line = (i: number) => `x${i};${"a;".repeat(5999)}`;
    const steps = [...Array.from({ length: 4 }, (_, i) => ({ tool: "run_command", arguments: { command: line(i) }, intent: `run ${i}` })), { tool: "run_command", arguments: { command: "ls" }, intent: "list" }];
    const r = await run(JSON.stringify({ scope: ".", steps }));
    const refused = r.diagnostics.filter((d) => d.messageId === "planCommandsTooMany");
    expect(refused.map((d) => d.step)).toEqual([4, 5]);
    expect(refused[0]!.message).toBe('Step 4: the command in "command" was not read: the plan\'s command lines before it already run more than 16384 programs, the most that are read in one plan.');
    expect(r.diagnostics.filter((d) => d.rule === "multiple-tools").map((d) => d.step)).toEqual([1, 2, 3]);
  });
  it("refuses a line of more than 1,024 pipes unread (8,000 took 0.4 s to read, and 2.7 s and 1 GB ending with '|')", async () => {
    const pipes = (n: number, end: string) => ({ tool: "run_command", arguments: { command: `x${"|a".repeat(n)}${end}` }, intent: "run" });
    const r = await run(JSON.stringify({ scope: ".", steps: [pipes(1025, "|b"), pipes(8000, "|"), pipes(1000, "||c"), pipes(10, "|b")] }));
    const found = r.diagnostics.filter((d) => d.rule === "parse-error");
    expect(found.map((d) => d.step)).toEqual([1, 2]);
    expect(found[0]!.message).toBe("Step 1: the command in \"command\" cannot be read as a shell command: the command holds 1026 pipes ('|'), more than the 1024 that are read in one line (the shell parser takes seconds and a GB on a pipeline that long).");
  });
  it("skips the later checks after a parse error", async () => {
    const r = await run("[{");
    expect(r.diagnostics.map((x) => x.rule)).toEqual(["parse-error"]);
    expect(r.valid).toBe(false);
  });
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("parse-error", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "parse-error", messageId: "jsonTrailingComma", start: 9, end: 17 }] },
      errors: [{ messageId: "jsonTrailingComma", line: 2, column: 1, endLine: 2, endColumn: 9, message: "trailing comma is not allowed in JSON", hint: "remove the ',' before the closing bracket" }],
    },
    {
      name: "the guard: a host shell call without a command string",
      input: { facts: [{ rule: "parse-error", messageId: "hostCommandMissing", data: { tool: "Bash" }, start: 9, end: 17 }] },
      errors: [{ messageId: "hostCommandMissing", line: 2, column: 1, message: "The Bash call has no command string to check.", hint: "call the tool with its command as a string" }],
    },
    {
      name: "the guard: the shell parser cannot be loaded",
      input: { facts: [{ rule: "parse-error", messageId: "hostParserNotLoaded", data: { tool: "Bash", reason: "no module" }, start: 9, end: 17 }] },
      errors: [{ messageId: "hostParserNotLoaded", line: 2, column: 1, message: "The Bash command cannot be checked: the shell parser could not be loaded (no module).", hint: "reinstall plangate" }],
    },
    {
      name: "the guard: a hook input that is not UTF-8",
      input: { facts: [{ rule: "parse-error", messageId: "hookNotUtf8", start: 9, end: 17 }] },
      errors: [{ messageId: "hookNotUtf8", line: 2, column: 1, message: "the hook input on standard input is not UTF-8" }],
    },
    {
      name: "the guard: a hook input that is not JSON",
      input: { facts: [{ rule: "parse-error", messageId: "hookNotJson", start: 9, end: 17 }] },
      errors: [{ messageId: "hookNotJson", line: 2, column: 1, message: "the hook input on standard input is not JSON" }],
    },
    {
      name: "the service: a hook request that is not JSON",
      input: { facts: [{ rule: "parse-error", messageId: "hookContentType", data: { type: '"text/plain"' }, start: 9, end: 17 }] },
      errors: [{ messageId: "hookContentType", line: 2, column: 1, message: 'the hook input\'s Content-Type "text/plain" is not application/json' }],
    },
  ],
});
