import markdownItFactory, { type MarkdownIt, type Token } from "markdown-it";
import { teddyPreprocess } from "./teddy-preprocess.js";
import { countTokens, parseBounded, spendInline, TooBusy, type MarkdownBounds } from "./markdown-budget.js";

import { NO_LEXEMES, type ReadIssue, type SourceDocument, type ValueLocation } from "../core/document.js";
import type { Pointer } from "../core/pointer.js";
import { LineIndex } from "../core/source.js";

/** A link inside a line of inline text. */
export interface MdLink {
  text: string;
  href: string;
}

/** One source line of inline content, with markup removed. */
export interface MdLine {
  text: string;
  links: MdLink[];
  /** Does the line begin with bold text (`**Key:** value`)? */
  bold: boolean;
  /** 1-based source line. */
  line: number;
}

interface BlockBase {
  /** 1-based first line and the line after the block. */
  line: number;
  endLine: number;
  /** Offsets of the block in the text. */
  start: number;
  end: number;
}

/** The top-level blocks of a Markdown document, in order. Nothing here knows about plans. */
export type MdBlock = BlockBase &
  (
    | { kind: "heading"; level: number; text: string; setext: boolean }
    | { kind: "hr" }
    | { kind: "fence"; info: string; content: string; closed: boolean }
    | { kind: "list"; lines: MdLine[] }
    | { kind: "paragraph"; lines: MdLine[] }
    | { kind: "other"; type: string }
  );

/** A Markdown document: its blocks, and the pointers a dialect has anchored to offsets. */
export interface MarkdownDocument extends SourceDocument {
  syntax: "markdown";
  blocks: MdBlock[];
  /** Pointer → location, filled by the dialect that interprets the blocks. */
  anchors: Map<Pointer, ValueLocation>;
}

/** Marks the parse environment of parseMarkdown, which reads common inline forms without the inline parser. */
const READER = Symbol("plangate reader");

/**
 * Inline content whose tokens the reader knows without running the inline parser: letters, digits and
 * spaces (one text token: no inline rule starts at any of them); one backtick-quoted word (a TeDDy action
 * or FIND heading: one code span); a bold key and a plain value or a plain link (`**File Path:** [a/b.py](/a/b.py)`:
 * strong, text, then text or one link). Each part is made of characters no inline rule starts at, so the
 * parser reads nothing else in them; the expressions have no ambiguous repetition (linear on any input).
 */
const SHORTCUT = /^(?:[A-Za-z0-9 ]*|`[A-Za-z0-9_:]+`|\*\*[A-Za-z]+(?: [A-Za-z]+)*:\*\* (?:[A-Za-z0-9./-][A-Za-z0-9 ./-]*|\[[A-Za-z0-9./-]+\]\([A-Za-z0-9./-]+\)))$/;
const BOLD_KEY = /^\*\*([A-Za-z]+(?: [A-Za-z]+)*:)\*\* (?:([A-Za-z0-9./-][A-Za-z0-9 ./-]*)|\[([A-Za-z0-9./-]+)\]\(([A-Za-z0-9./-]+)\))$/;

/** The line the inline parser would make of a SHORTCUT content (checked by the caller). */
function shortcutLine(content: string, line: number): MdLine {
  if (content.charCodeAt(0) === 96) return { text: content.slice(1, -1), links: [], bold: false, line };
  const m = content.startsWith("**") ? BOLD_KEY.exec(content) : null;
  if (!m) return { text: content, links: [], bold: false, line };
  const [, key, value, label, href] = m;
  if (value !== undefined) return { text: `${key} ${value}`, links: [], bold: true, line };
  return { text: `${key} ${label}`, links: [{ text: label!, href: href! }], bold: true, line };
}

let parser: MarkdownIt | undefined;
function markdownIt(): MarkdownIt {
  if (!parser) {
    parser = countTokens(markdownItFactory("commonmark"));
    // Paths are taken as written: no percent-encoding, no dropping of "unsafe" schemes.
    parser.normalizeLink = (url: string) => url;
    parser.normalizeLinkText = (text: string) => text;
    parser.validateLink = () => true;
    // markdown-it's own normalisation, without rebuilding a text that has no CR and no NUL.
    parser.core.ruler.at("normalize", (state) => {
      let src = state.src;
      if (src.includes("\r")) src = src.replace(/\r\n?/g, "\n");
      if (src.includes("\0")) src = src.replace(/\0/g, "\uFFFD");
      state.src = src;
    });
    // The inline parser on every inline token, except the reader's shortcuts in its parse (see SHORTCUT).
    parser.core.ruler.at("inline", (state) => {
      const reader = (state.env as Record<symbol, unknown>)[READER] === true;
      for (const t of state.tokens) {
        if (t.type !== "inline" || (reader && SHORTCUT.test(t.content))) continue;
        spendInline(state.env, t.content.length, t.map?.[0]);
        state.md.inline.parse(t.content, state.md, state.env, t.children!);
      }
    });
  }
  return parser;
}

/**
 * The CommonMark token stream of a text as a renderer reads it (no TeDDy repair), with the parse
 * environment (link reference definitions land in `env.references`, and produce no token); a TooBusy for
 * a text past the Markdown bounds (markdown-budget.ts).
 */
export function markdownTokens(text: string, bounds?: MarkdownBounds): { tokens: Token[]; env: { references?: Record<string, unknown> } } | TooBusy {
  const env: Record<string, unknown> = {};
  const tokens = parseBounded(markdownIt(), text, env, bounds);
  if (tokens instanceof TooBusy) return tokens;
  return { tokens, env: { references: env.references as Record<string, unknown> | undefined } };
}

/** Reads a CommonMark document into its top-level blocks with positions. Never throws. */
export function parseMarkdown(text: string, options: { inlineShortcuts?: boolean; bounds?: MarkdownBounds } = {}): MarkdownDocument {
  // Without the shortcuts every inline token goes through the inline parser: the reference the tests compare with.
  const shortcuts = options.inlineShortcuts !== false;
  const lines = new LineIndex(text);
  const issues: ReadIssue[] = [];
  const anchors = new Map<Pointer, ValueLocation>();
  const blocks: MdBlock[] = [];
  const doc: MarkdownDocument = {
    syntax: "markdown",
    text,
    lines,
    value: blocks,
    issues,
    numbers: NO_LEXEMES,
    blocks,
    anchors,
    locate(pointer) {
      const a = anchors.get(pointer);
      if (a) return a;
      if (pointer === "") return { start: 0, end: text.length };
      const m = /^\/blocks\/(\d+)$/.exec(pointer);
      const b = m ? blocks[Number(m[1])] : undefined;
      return b ? { start: b.start, end: b.end } : undefined;
    },
  };
  if (text.trim() === "") {
    issues.push({ rule: "parse-error", messageId: "markdownEmpty", start: 0, end: 0 });
    return doc;
  }
  const tokens = parseBounded(markdownIt(), teddyPreprocess(text), { [READER]: shortcuts }, options.bounds);
  if (tokens instanceof TooBusy) {
    // Nothing is read of a document this busy: its blocks would be a partial reading.
    doc.value = undefined;
    const start = lines.lineStart(tokens.line + 1) ?? text.length;
    issues.push({ rule: "limit-exceeded", messageId: tokens.messageId, data: { max: tokens.max, line: tokens.line + 1 }, start, end: lineEnd(text, start, true) });
    return doc;
  }
  const starts = lines.lineStarts;
  const offsetOf = (line0: number) => (line0 < starts.length ? starts[line0]! : text.length);
  // Blocks are built member by member: spreading a base object into each costs more than the parse itself.
  const base = (t: Token): BlockBase => {
    const [a, b] = t.map ?? [0, 0];
    return { line: a + 1, endLine: b + 1, start: offsetOf(a), end: lineEnd(text, offsetOf(Math.max(a, b - 1)), b > a) };
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.level !== 0 || t.nesting === -1) continue;
    switch (t.type) {
      case "heading_open": {
        const inline = tokens[i + 1];
        const text = inline?.type === "inline" ? inlineLines(inline, t.map![0] + 1, shortcuts).map((l) => l.text).join(" ") : "";
        const b = base(t);
        blocks.push({ line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "heading", level: Number(t.tag.slice(1)), text, setext: t.markup === "=" || t.markup === "-" });
        break;
      }
      case "hr": {
        const b = base(t);
        blocks.push({ line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "hr" });
        break;
      }
      case "fence":
        blocks.push(readFence(t, base(t), lines, issues));
        break;
      case "paragraph_open": {
        const inline = tokens[i + 1];
        const b = base(t);
        blocks.push({ line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "paragraph", lines: inline?.type === "inline" ? inlineLines(inline, t.map![0] + 1, shortcuts) : [] });
        break;
      }
      case "bullet_list_open":
      case "ordered_list_open": {
        const out: MdLine[] = [];
        let j = i + 1;
        for (; j < tokens.length && !(tokens[j]!.level === 0 && tokens[j]!.nesting === -1); j++) {
          const tj = tokens[j]!;
          if (tj.type === "inline" && tj.map) out.push(...inlineLines(tj, tj.map[0] + 1, shortcuts));
        }
        const b = base(t);
        blocks.push({ line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "list", lines: out });
        i = j;
        break;
      }
      default:
        if (t.nesting === 1 || t.map) {
          const b = base(t);
          blocks.push({ line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "other", type: t.type.replace(/_open$/, "") });
        }
    }
  }
  return doc;
}

function lineEnd(text: string, lineStart: number, any: boolean): number {
  if (!any) return lineStart;
  let e = lineStart;
  while (e < text.length && text.charCodeAt(e) !== 10 && text.charCodeAt(e) !== 13) e++;
  return e;
}

/** The pattern of a line that closes a fence opened by `length` of `fenceChar`; one per kind of fence. */
const closingFences = new Map<string, RegExp>();
function closingFence(fenceChar: string, length: number): RegExp {
  const key = `${fenceChar}${length}`;
  let re = closingFences.get(key);
  if (!re) {
    re = new RegExp(`^ {0,3}\\${fenceChar}{${length},}[ \t]*$`);
    // A fence of any length may open a plan: the cache keeps to the lengths plans commonly use.
    if (closingFences.size < 64) closingFences.set(key, re);
  }
  return re;
}

/** A fence's content. An open fence swallows everything after it (often a truncated plan): a parse error. */
function readFence(t: Token, b: BlockBase, lines: LineIndex, issues: ReadIssue[]): MdBlock {
  const [a, e] = t.map!;
  const info = t.info.trim();
  const fenceChar = t.markup[0]!;
  const closing = closingFence(fenceChar, t.markup.length);
  // markdown-it's map ends after the closing fence, so a closed fence's last line (1-based e) closes it.
  const closed = e - 1 > a && closing.test(teddyPreprocess(lines.lineText(e).replace(/\r$/, "")));
  if (!closed) {
    issues.push({
      rule: "parse-error",
      messageId: "markdownOpenFence",
      data: { line: b.line, fence: t.markup },
      start: b.start,
      end: lines.lineStarts[a + 1] !== undefined ? lines.lineStarts[a + 1]! - 1 : b.end,
    });
  }
  return { line: b.line, endLine: b.endLine, start: b.start, end: b.end, kind: "fence", info, content: t.content, closed };
}

/** Splits an inline token into source lines of plain text, keeping links and whether a line starts in bold. */
function inlineLines(inline: Token, firstLine: number, shortcuts: boolean): MdLine[] {
  if (shortcuts && SHORTCUT.test(inline.content)) return [shortcutLine(inline.content, firstLine)];
  const out: MdLine[] = [];
  let cur: MdLine = { text: "", links: [], bold: false, line: firstLine };
  let link: MdLink | undefined;
  let atStart = true;
  for (const c of inline.children ?? []) {
    switch (c.type) {
      case "softbreak":
      case "hardbreak":
        out.push(cur);
        cur = { text: "", links: [], bold: false, line: cur.line + 1 };
        atStart = true;
        continue;
      case "strong_open":
        if (atStart && cur.text.trim() === "") cur.bold = true;
        break;
      case "link_open":
        link = { text: "", href: String(c.attrGet("href") ?? "") };
        break;
      case "link_close":
        if (link) cur.links.push(link);
        link = undefined;
        break;
      case "text":
      case "code_inline":
      case "html_inline":
        cur.text += c.content;
        if (link) link.text += c.content;
        break;
      case "image":
        cur.text += c.content;
        break;
    }
    if (c.type !== "strong_open" && c.type !== "em_open" && !(c.type === "text" && c.content.trim() === "")) atStart = false;
  }
  out.push(cur);
  return out;
}

export { teddyPreprocess };
