import markdownItFactory, { type MarkdownIt } from "markdown-it";
import { countTokens, parseBounded, TooBusy } from "../syntax/markdown-budget.js";
import { firstBracketed } from "../core/text.js";

/** Where a task sits in a TODO.md and what its section says. Offsets are 0-based into the text. */
export interface TodoTask {
  number: number;
  title: string;
  headingOffset: number;
  headingEnd: number;
  /** The Status value as written (`[PLANNED]`), if the section has one. */
  rawStatus?: string;
  statusOffset?: number;
  language?: string;
}

/** What a lookup found: the task, or the headings `### N.` that are not tasks (no Status line). */
export interface TodoLookup {
  task?: TodoTask;
  /** Headings with the number whose section has no Status line (section titles, not tasks). */
  nonTasks: { offset: number; title: string }[];
  /** Set when the file needed CommonMark and was past its bounds (lines or tokens): nothing was looked up. */
  tooBusy?: { what: "lines" | "tokens"; line: number; max: number };
}

const FIELD =
  /^[ \t]*(?:[-*+][ \t]+)?(?:\*\*|__)?(status|language)(?::(?:\*\*|__)|(?:\*\*|__)?[ \t]*:)[ \t]*(.*?)[ \t]*$/i;

/** Offset where the body starts: after YAML front matter (`---` … `---`), if any. */
export function bodyStart(text: string): number {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!text.startsWith("---", start)) return start;
  const first = text.indexOf("\n", start);
  if (first < 0 || text.slice(start, first).trim() !== "---") return start;
  let p = first + 1;
  while (p < text.length) {
    const nl = text.indexOf("\n", p);
    const line = text.slice(p, nl < 0 ? text.length : nl).trim();
    if (line === "---" || line === "...") return nl < 0 ? text.length : nl + 1;
    if (nl < 0) break;
    p = nl + 1;
  }
  // Unclosed front matter: read it as Markdown rather than hide every task.
  start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  return start;
}

/**
 * indexOf for the fence markers, remembering the last answer per marker: the trackers of one lookup (the
 * scanner's and one per section read) ask again from later offsets, and a fresh search per section ran to the
 * end of the text (a MiB of `### 7.` headings without a Status line took 1.7 s, 2 MiB 6.7 s).
 */
class FenceMarks {
  readonly #last = new Map<string, { from: number; at: number }>();
  constructor(readonly text: string) {}
  /** text.indexOf(marker, from). */
  next(marker: string, from: number): number {
    const last = this.#last.get(marker);
    // No marker in [last.from, last.at): the answer holds for any offset between them.
    if (last !== undefined && last.from <= from && (last.at === -1 || from <= last.at)) return last.at;
    const at = this.text.indexOf(marker, from);
    this.#last.set(marker, { from, at });
    return at;
  }
}

/** A fenced-code tracker that moves forward only, jumping between fence markers with indexOf. */
class Fences {
  #pos: number;
  #open: { char: string; len: number } | undefined;
  #nextTick = -2;
  #nextTilde = -2;
  private readonly text: string;
  constructor(
    private readonly marks: FenceMarks,
    from: number,
  ) {
    this.text = marks.text;
    this.#pos = from;
  }
  /** Is `offset` (at or after every earlier call's) inside a fenced block? */
  inside(offset: number): boolean {
    const t = this.text;
    for (;;) {
      if (this.#nextTick !== -1 && this.#nextTick < this.#pos) this.#nextTick = this.marks.next("```", this.#pos);
      if (this.#nextTilde !== -1 && this.#nextTilde < this.#pos) this.#nextTilde = this.marks.next("~~~", this.#pos);
      const m = minPos(this.#nextTick, this.#nextTilde);
      if (m < 0 || m >= offset) return this.#open !== undefined;
      const ls = t.lastIndexOf("\n", m - 1) + 1;
      const lineEnd = endOfLine(t, m);
      if (m - ls <= 3 && t.slice(ls, m).trim() === "") {
        const char = t[m]!;
        let run = 0;
        while (t[m + run] === char) run++;
        if (this.#open === undefined) this.#open = { char, len: run };
        else if (this.#open.char === char && run >= this.#open.len && /^[ \t]*\r?$/.test(t.slice(m + run, lineEnd)))
          this.#open = undefined;
        this.#pos = lineEnd + 1;
      } else {
        this.#pos = m + 3;
      }
    }
  }
}

function minPos(a: number, b: number): number {
  if (a < 0) return b;
  if (b < 0) return a;
  return Math.min(a, b);
}

function endOfLine(t: string, from: number): number {
  const nl = t.indexOf("\n", from);
  return nl < 0 ? t.length : nl;
}

/**
 * Can a line-by-line reading of this TODO.md body differ from CommonMark's? It can where the body has
 * HTML blocks, indented code, fences that are indented or sit in a container, headings in a container
 * or indented, setext underlines, ATX closing sequences, a tab or two spaces after `#`, backticks in a
 * backtick fence's info string, lone CRs or NULs. A body with none of them is read by the fast
 * scanner, any other by markdown-it; a property test (todo.test.ts) keeps the two readings equal on the
 * bodies the scanner takes. Cheap: indexOf for the rare characters, one sticky regex on the lines whose
 * first character could start something risky.
 */
export function needsCommonMark(body: string): boolean {
  if (body.includes("\0")) return true;
  for (let i = body.indexOf("\r"); i >= 0; i = body.indexOf("\r", i + 1)) if (body.charCodeAt(i + 1) !== 10) return true;
  for (const fence of ["```", "~~~"]) {
    for (let i = body.indexOf(fence); i >= 0; i = body.indexOf(fence, i + 3)) {
      let ls = i;
      while (ls > 0 && body.charCodeAt(ls - 1) === fence.charCodeAt(0)) ls--;
      if (ls > 0 && body.charCodeAt(ls - 1) !== 10) return true;
      i = endOfLine(body, i) - 2;
    }
  }
  let prevBlank = true;
  let nextHash = -1;
  const n = body.length;
  for (let p = 0; p < n; ) {
    let e = body.indexOf("\n", p);
    if (e < 0) e = n;
    const c = body.charCodeAt(p);
    let risky = c < 128 ? LINE_START[c] : undefined;
    if (risky === undefined) {
      // Most lines: text, or an empty line.
      prevBlank = e === p || (e === p + 1 && c === 13);
      p = e + 1;
      continue;
    }
    if (risky === listItem) {
      // A list line is risky only when it holds a heading marker: look for "#" with indexOf first.
      if (nextHash !== -2 && nextHash < p) nextHash = body.indexOf("#", p);
      if (nextHash < 0) nextHash = -2;
      if (nextHash === -2 || nextHash >= e) risky = c === 45 ? NEVER : undefined;
    }
    if (risky !== undefined) {
      if (risky !== NEVER && (risky !== ATX || atxMayBeRisky(body, p, e))) {
        risky.lastIndex = p;
        if (risky.test(body)) return true;
      }
      // A setext underline ends in `-` or `=`: most list lines are ruled out by their last character.
      if (!prevBlank && (c === 45 || c === 61 || c === 32) && isUnderlineEnd(lastCode(body, p, e))) {
        SETEXT.lastIndex = p;
        if (SETEXT.test(body)) return true;
      }
    }
    prevBlank = e === p || (e === p + 1 && c === 13);
    p = e + 1;
  }
  return false;
}

/** Per first character of a line, what makes that line risky (sticky: tried at the line's start). */
const LINE_START: (RegExp | undefined)[] = [];
const indented = /[ \t]*<| {4}| {0,3}\t| {1,3}[#>]| {0,3}(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)+#/y;
const listItem = /(?:(?:[-*+]|\d{1,9}[.)])[ \t]+)+#/y;
LINE_START[32] = indented;
LINE_START[9] = /[^]/y;
LINE_START[60] = /[^]/y; // <
LINE_START[62] = /[^]/y; // >
const ATX = /#{1,6}(?: {2}|\t)|#{1,6}[ \t][^\n]*#[ \t]*\r?(?:\n|$)/y;
LINE_START[35] = ATX;
LINE_START[96] = /`{3,}[^`\n]+`/y;
const NEVER = /(?!)/y;
LINE_START[61] = NEVER; // = : only as a setext underline
for (const ch of "-*+0123456789") LINE_START[ch.charCodeAt(0)] = listItem;
const SETEXT = / {0,3}(?:=+|-+)[ \t]*\r?(?:\n|$)/y;

/** The last code unit of the line [p, e) that is not a space, tab or CR (-1 for none). */
function lastCode(t: string, p: number, e: number): number {
  for (let i = e - 1; i >= p; i--) {
    const c = t.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 13) return c;
  }
  return -1;
}

function isUnderlineEnd(c: number): boolean {
  return c === 45 || c === 61;
}

/**
 * A necessary condition for ATX to match the heading line [p, e): two spaces or a tab after its run of
 * `#`, or a `#` as its last character (a closing sequence). Most headings have neither, and skip the regex.
 */
function atxMayBeRisky(t: string, p: number, e: number): boolean {
  let h = p;
  while (h < e && t.charCodeAt(h) === 35) h++;
  const next = t.charCodeAt(h);
  return next === 9 || (next === 32 && t.charCodeAt(h + 1) === 32) || lastCode(t, p, e) === 35;
}

/**
 * Finds task N: a level-3 heading `### N. Title` outside code whose section (up to the next heading of
 * level 1-3) has a Status line, read as CommonMark reads the document. Plain TODO.md files (the common
 * case) go through a scanner that jumps with indexOf, so a large file costs little more than a search;
 * anything the scanner could read differently goes through markdown-it.
 */
export function findTodoTask(text: string, n: number): TodoLookup {
  // No "#", blanks, "N." anywhere: no reading has a heading for task N.
  if (!new RegExp(`#[ \\t]+${n}\\.`).test(text)) return { nonTasks: [] };
  const start = bodyStart(text);
  if (needsCommonMark(start ? text.slice(start) : text)) return findTodoTaskCommonMark(text, n);
  return scanTodoTask(text, n, start);
}

/** The scanner; only for bodies that do not need CommonMark. */
function scanTodoTask(text: string, n: number, start: number): TodoLookup {
  const needle = `### ${n}.`;
  const marks = new FenceMarks(text);
  const fences = new Fences(marks, start);
  const nonTasks: TodoLookup["nonTasks"] = [];
  let from = start;
  for (;;) {
    const pos = text.indexOf(needle, from);
    if (pos < 0) return { nonTasks };
    from = pos + needle.length;
    if (pos > start && text.charCodeAt(pos - 1) !== 10) continue;
    const after = text.charCodeAt(pos + needle.length);
    // "### 12.5" is a subsection, not task 12: the number must end the token.
    if (!(Number.isNaN(after) || after === 32 || after === 9 || after === 10 || after === 13)) continue;
    if (fences.inside(pos)) continue;
    let headingEnd = endOfLine(text, pos);
    const title = text.slice(pos + needle.length, headingEnd).trim();
    if (text[headingEnd - 1] === "\r") headingEnd--;
    const task = readSection(marks, n, pos, headingEnd, title);
    if (task.rawStatus !== undefined) return { task, nonTasks };
    nonTasks.push({ offset: pos, title });
  }
}

function readSection(marks: FenceMarks, n: number, pos: number, headingEnd: number, title: string): TodoTask {
  const text = marks.text;
  const task: TodoTask = { number: n, title, headingOffset: pos, headingEnd };
  let p = endOfLine(text, headingEnd) + 1;
  const fences = new Fences(marks, p);
  while (p < text.length) {
    const e = endOfLine(text, p);
    // At a line's start the tracker gives the state before the line: a closing fence line and the
    // code inside are skipped, an opening fence line matches neither pattern below.
    if (!fences.inside(p)) {
      const line = text.slice(p, e);
      if (/^#{1,3}(?:[ \t]|\r?$)/.test(line)) break;
      const m = FIELD.exec(line.replace(/\r$/, ""));
      if (m) {
        const key = m[1]!.toLowerCase();
        if (key === "status" && task.rawStatus === undefined) {
          task.rawStatus = m[2]!;
          task.statusOffset = p + line.indexOf(m[2]!);
        } else if (key === "language" && task.language === undefined) task.language = m[2]!;
      }
    }
    p = e + 1;
  }
  return task;
}

let parser: MarkdownIt | undefined;

/** markdown-it with block rules only: sections, headings and code are block structure, and inline parsing is most of the cost. */
function blockParser(): MarkdownIt {
  const md = countTokens(markdownItFactory("commonmark"));
  md.core.ruler.disable(["inline", "text_join"]);
  return md;
}

/** Block kinds whose lines are text, not fields: a Status line inside them is an example, not a status. */
const VERBATIM = new Set(["fence", "code_block", "html_block"]);

/**
 * The reference reading: markdown-it's block structure (CommonMark), so fences, indented code and HTML
 * blocks are what a Markdown viewer shows as such; field lines are matched within that.
 */
export function findTodoTaskCommonMark(text: string, n: number): TodoLookup {
  const start = bodyStart(text);
  const body = text.slice(start);
  parser ??= blockParser();
  const tokens = parseBounded(parser, body);
  if (tokens instanceof TooBusy) {
    const before = text.slice(0, start).split(/\r\n?|\n/).length - 1; // front matter lines
    // This parser reads no inline content, so only its lines and tokens can run out.
    return { nonTasks: [], tooBusy: { what: tokens.what === "lines" ? "lines" : "tokens", line: tokens.line + before, max: tokens.max } };
  }
  const lineStarts = [0];
  // CommonMark's line endings: CRLF, LF and a lone CR.
  for (const m of body.matchAll(/\r\n?|\n/g)) lineStarts.push(m.index + m[0].length);
  const lineEnd = (line: number) => {
    if (line + 1 >= lineStarts.length) return body.length;
    const next = lineStarts[line + 1]!;
    return body[next - 2] === "\r" && body[next - 1] === "\n" ? next - 2 : next - 1;
  };

  // Headings of level 1-3 (they bound sections) and the lines that belong to verbatim blocks.
  const headings: { tag: string; line: number; content: string }[] = [];
  const verbatim = new Uint8Array(lineStarts.length);
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (!t.map) continue;
    if (t.type === "heading_open" && (t.tag === "h1" || t.tag === "h2" || t.tag === "h3")) {
      headings.push({ tag: t.tag, line: t.map[0], content: tokens[i + 1]?.content ?? "" });
    } else if (VERBATIM.has(t.type)) {
      verbatim.fill(1, t.map[0], t.map[1]);
    }
  }

  const label = new RegExp(`^${n}\\.(?=[ \\t]|$)`);
  const nonTasks: TodoLookup["nonTasks"] = [];
  for (let h = 0; h < headings.length; h++) {
    const heading = headings[h]!;
    if (heading.tag !== "h3" || !label.test(heading.content)) continue;
    const lineStart = lineStarts[heading.line]!;
    const pos = start + lineStart + body.slice(lineStart).search(/[^ ]/);
    const title = heading.content.slice(String(n).length + 1).trim();
    const task: TodoTask = { number: n, title, headingOffset: pos, headingEnd: start + lineEnd(heading.line) };
    const last = h + 1 < headings.length ? headings[h + 1]!.line : lineStarts.length;
    for (let line = heading.line + 1; line < last; line++) {
      if (verbatim[line]) continue;
      const from = lineStarts[line]!;
      const raw = body.slice(from, lineEnd(line));
      const m = FIELD.exec(raw.replace(/\r$/, ""));
      if (!m) continue;
      const key = m[1]!.toLowerCase();
      if (key === "status" && task.rawStatus === undefined) {
        task.rawStatus = m[2]!;
        task.statusOffset = start + from + raw.indexOf(m[2]!);
      } else if (key === "language" && task.language === undefined) task.language = m[2]!;
    }
    if (task.rawStatus !== undefined) return { task, nonTasks };
    nonTasks.push({ offset: pos, title });
  }
  return { nonTasks };
}

/**
 * Characters of a status normalised by one pass of the expressions below. A replace keeps a part per match
 * until it ends: a 14 MB status line of words took 1.2 s and 500 MB in one pass.
 */
const STATUS_CHUNK = 65_536;

/** `[NOT STARTED]`, `Not Started`, `not-started` → `not_started` (the state.json spelling). */
export function normaliseStatus(raw: string): string {
  const text = (firstBracketed(raw) ?? raw).trim().toLowerCase();
  const parts: string[] = [];
  for (let start = 0; start < text.length; ) {
    // Cut between two characters that are not both separators, so that no run of them is split.
    let end = Math.min(start + STATUS_CHUNK, text.length);
    while (end < text.length && SEPARATOR.test(text[end - 1]!) && SEPARATOR.test(text[end]!)) end++;
    parts.push(
      text
        .slice(start, end)
        .replace(/[\s-]+/g, "_")
        .replace(/[^a-z0-9_]/g, ""),
    );
    start = end;
  }
  return parts.join("");
}

const SEPARATOR = /^[\s-]$/;
