import type { Node, Parser } from "web-tree-sitter";
import { Reader, short } from "./read-tree.js";
import { runBeforeShellCompile } from "./compile-hook.js";
import type { ShellScript } from "./types.js";
import { INVISIBLE } from "../../core/lookalike.js";

/** Longest command line read (UTF-16 units): a hostile line of 8,000 chained commands takes ~0.1 s to read. */
export const MAX_COMMAND_LENGTH = 16 * 1024;

/**
 * The parser reads the text in pieces of this many UTF-16 units, so the number of reads measures its
 * work: a command it reads in one pass takes one or two reads a piece, while error recovery on some
 * shapes (16 KB of `@(a|b)`, or of `a)` after `case x in`) goes back over the text thousands of times,
 * seconds of CPU for one command.
 */
const READ_PIECE = 64;
/** Reads a piece of the text may take before the command is refused as too intricate to read. */
export const MAX_READS_PER_PIECE = 16;

/**
 * Reads shell command lines (bash syntax) with tree-sitter-bash, loaded on first use: the WebAssembly
 * parser costs ~50 ms of CPU to load (with the compiler setting of compile-hook.ts), so plans without
 * commands never pay for it.
 */
export interface ShellReader {
  parse(text: string): ShellScript;
  /**
   * Characters of the texts this reader has parsed, since it loaded, that tree-sitter had to recover
   * from errors in (or gave up on): that recovery costs far more than reading (see plan.ts
   * MAX_UNREADABLE_COMMAND_TEXT), so a plan's callers bound it.
   */
  recovered(): number;
}

let loading: Promise<ShellReader> | undefined;

/** Has the shell reader been asked for (is the WebAssembly parser loaded or loading)? */
export function shellReaderRequested(): boolean {
  return loading !== undefined;
}

/** The shell reader, loaded once per process. */
export function loadShellReader(): Promise<ShellReader> {
  loading ??= load().catch((err: unknown) => {
    loading = undefined;
    throw err;
  });
  return loading;
}

async function load(): Promise<ShellReader> {
  const [{ Parser, Language }, { fileURLToPath }] = await Promise.all([import("web-tree-sitter"), import("node:url")]);
  // After the modules load: a failed import would leave the compiler setting in force.
  const compiled = await runBeforeShellCompile();
  let bash: Awaited<ReturnType<typeof Language.load>>;
  try {
    await Parser.init();
    // The bash grammar ships in vendor/ (see vendor/README.md): the same path from src/ and from dist/.
    const wasm = fileURLToPath(new URL("../../../vendor/tree-sitter-bash.wasm", import.meta.url));
    bash = await Language.load(wasm);
  } finally {
    compiled?.();
  }
  const parser = new Parser();
  parser.setLanguage(bash);
  let recovered = 0;
  return {
    parse: (text) =>
      parseWith(parser, text, (n) => {
        recovered += n;
      }),
    recovered: () => recovered,
  };
}

function parseWith(parser: Parser, text: string, recovering: (chars: number) => void): ShellScript {
  const script: ShellScript = { text, commands: [], constructs: [], problems: [] };
  const before = precheck(text);
  if (before) {
    script.problems.push(before);
    return script;
  }
  let reads = 0;
  let over = false;
  // Only the parse is bounded: the tree reads its nodes' text through the same callback later (each
  // word's value), and a bound counted there read the words after the first few hundred characters as
  // empty (`rm -f x x ... .git/config` passed as `rm -f x x ... ""`).
  let parsing = true;
  const budget = MAX_READS_PER_PIECE * (Math.ceil(text.length / READ_PIECE) + 4);
  const read = (index: number): string => {
    if (parsing && (over || ++reads > budget)) {
      over = true;
      return "";
    }
    let end = index + READ_PIECE;
    // Never split a surrogate pair between two pieces.
    if (end < text.length && (text.charCodeAt(end - 1) & 0xfc00) === 0xd800) end++;
    return text.slice(index, end);
  };
  const tree = parser.parse(read, null, { progressCallback: () => over });
  parsing = false;
  if (over || !tree || tree.rootNode.hasError) recovering(text.length);
  if (over) {
    tree?.delete();
    // A cancelled parse is resumed by the next call unless the parser is reset.
    parser.reset();
    script.problems.push({ problem: "tooIntricate", data: { reads: MAX_READS_PER_PIECE }, start: 0, end: text.length });
    return script;
  }
  if (!tree) {
    script.problems.push({ problem: "noResult", data: {}, start: 0, end: text.length });
    return script;
  }
  try {
    const reader = new Reader(script);
    reader.statement(tree.rootNode, 0);
    if (tree.rootNode.hasError && script.problems.length === 0) {
      const bad = firstError(tree.rootNode);
      const start = bad?.startIndex ?? 0;
      const end = bad?.endIndex ?? text.length;
      script.problems.push(bad?.isMissing ? { problem: "missingToken", data: { type: bad.type }, start, end } : { problem: "unreadableSyntax", data: { text: short(bad?.text ?? text) }, start, end });
    }
    const joined = escapedSpace(text, reader.quoted, reader.words);
    if (joined) script.problems.push(joined);
  } finally {
    tree.delete();
  }
  script.commands.sort((a, b) => a.start - b.start);
  return script;
}

/**
 * Most pipes (`|` and `|&`, not `||`) one line holds, quoted or not. tree-sitter-bash reads a long pipeline
 * in time that grows with its square, and far worse when it ends with a stray `|`: 8,000 pipes took 0.4 s
 * to read, and 2.7 s and 1 GB when the line ended with `|` (16 such lines, 30 s). Real pipelines have a
 * few stages; 1,024 pipes read in some 60 ms.
 */
export const MAX_PIPES = 1024;

function pipesIn(text: string): number {
  let n = 0;
  for (let i = text.indexOf("|"); i >= 0; i = text.indexOf("|", i + 1)) {
    if (text.charCodeAt(i + 1) === 0x7c) i++;
    else n++;
  }
  return n;
}

/** Format characters, non-ASCII spaces and every other character that shows nothing (INVISIBLE). */
const HIDDEN_IN_COMMAND = new RegExp(`[\\p{Cf}\\p{Zl}\\p{Zp}\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000]|${INVISIBLE.source}`, "u");

/** What tree-sitter-bash and bash would read differently, found before parsing. */
function precheck(text: string): ShellScript["problems"][number] | undefined {
  if (text.length > MAX_COMMAND_LENGTH)
    return { problem: "tooLong", data: { length: text.length, max: MAX_COMMAND_LENGTH }, start: 0, end: text.length };
  const pipes = pipesIn(text);
  if (pipes > MAX_PIPES) return { problem: "tooManyPipes", data: { count: pipes, max: MAX_PIPES }, start: 0, end: text.length };
  const ctl = /[\0-\x08\x0b-\x1f\x7f]/.exec(text);
  if (ctl)
    return { problem: "controlCharacter", data: { code: ctl[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0") }, start: ctl.index, end: ctl.index + 1 };
  const hidden = HIDDEN_IN_COMMAND.exec(text);
  if (hidden)
    return { problem: "invisibleSpace", data: { code: hidden[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0") }, start: hidden.index, end: hidden.index + hidden[0].length };
  return undefined;
}

/**
 * Backslash-escaped white space outside quotes. bash joins `a\<newline>b` into one word and keeps
 * `a\ b` as one word; tree-sitter-bash reads two words in the first case, and sometimes drops the
 * escaped space after a quoted part (`''\ x`). Between words a backslash-newline is a continuation
 * both agree on; anywhere else outside quotes and words the command is refused.
 */
function escapedSpace(text: string, quoted: readonly [number, number][], words: readonly [number, number][]): ShellScript["problems"][number] | undefined {
  const re = /\\[ \t\n]/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const i = m.index;
    let run = 1;
    while (i - run >= 0 && text[i - run] === "\\") run++;
    if (run % 2 === 0 || quoted.some(([s, e]) => i > s && i < e)) continue;
    const before = text[i - run];
    const after = text[i + 2];
    if (m[0] === "\\\n") {
      if (before === undefined || after === undefined || !/\S/.test(before) || !/\S/.test(after)) continue;
      return { problem: "backslashNewline", data: {}, start: i, end: i + 2 };
    }
    if (words.some(([s, e]) => i >= s && i + 2 <= e)) continue;
    return { problem: "escapedSpace", data: {}, start: i, end: i + 2 };
  }
  return undefined;
}

function firstError(root: Node): Node | undefined {
  const stack: Node[] = [root];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (n.isError || n.isMissing) return n;
    if (!n.hasError) continue;
    for (let i = n.childCount - 1; i >= 0; i--) {
      const c = n.child(i);
      if (c) stack.push(c);
    }
  }
  return undefined;
}
