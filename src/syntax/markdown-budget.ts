import type { MarkdownIt, Token } from "markdown-it";

/**
 * Most tokens one Markdown parse may make. markdown-it keeps every token of a document, about 400 bytes each
 * with what plangate builds from them: a MiB of one-line paragraphs or setext headings made 1.5 million
 * (600 MB). Real plans and TODO files make at most a few hundred per KiB (a 55 KB TODO file: 7,500).
 */
export const MAX_MARKDOWN_TOKENS = 250_000;

/**
 * Most lines one Markdown parse may read. markdown-it keeps five numbers per line whatever the line holds
 * (40 to 80 bytes): 64 MiB of empty lines would take gigabytes before a single token. Half a million lines
 * is a plan that carries whole generated files; it takes about 40 MB.
 */
export const MAX_MARKDOWN_LINES = 500_000;

/**
 * The 0-based line past the first `max` lines of a text, counting line endings as CommonMark does (LF,
 * CRLF, a lone CR); undefined when the text has no more than `max` lines.
 */
export function lineBeyond(text: string, max = MAX_MARKDOWN_LINES): number | undefined {
  let lines = 1;
  if (!text.includes("\r")) {
    for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) if (++lines > max) return max;
    return undefined;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) && ++lines > max) return max;
  }
  return undefined;
}

/**
 * Most characters of inline content (paragraphs, headings, list items: what markdown-it's inline parser
 * reads) one Markdown parse may read. The inline parser remembers a result per position in a text where
 * links may open: one paragraph of 16 MiB of `[` took 14 s and 1 GB making a handful of tokens, and
 * `![[a]` is slower still. A MiB of the worst of these takes about 1.5 s and 140 MB; plans keep long text
 * in fenced blocks, which are not inline content.
 */
export const MAX_MARKDOWN_INLINE = 1024 * 1024;

/** Bounds of one parse: lines, tokens, characters of inline content. */
export interface MarkdownBounds {
  lines?: number;
  tokens?: number;
  inline?: number;
}

const BUDGET = Symbol("plangate token budget");

interface Budget {
  left: number;
  readonly max: number;
  /** Characters of inline content still to read, and the bound. */
  inlineLeft: number;
  readonly inlineMax: number;
  /** 0-based line of the block being read when the budget ran out. */
  line: number;
}

/** Why a Markdown text was not parsed, or not to the end: more lines, tokens or inline text than its bounds. */
export class TooBusy {
  constructor(
    readonly what: "lines" | "tokens" | "inline",
    /** 0-based line where the bound was passed. */
    readonly line: number,
    readonly max: number,
  ) {}
  /** limit-exceeded's message for it. */
  get messageId(): "markdownTooManyLines" | "markdownTooManyTokens" | "markdownTooMuchInline" {
    return this.what === "lines" ? "markdownTooManyLines" : this.what === "tokens" ? "markdownTooManyTokens" : "markdownTooMuchInline";
  }
}

/**
 * Parses a text with a parser made by countTokens, within MAX_MARKDOWN_LINES lines, MAX_MARKDOWN_TOKENS
 * tokens and MAX_MARKDOWN_INLINE characters of inline content (for a parser whose inline rule calls
 * spendInline; tests lower them); past any, a TooBusy and no tokens.
 */
export function parseBounded(
  md: MarkdownIt,
  text: string,
  env: Record<string | symbol, unknown> = {},
  bounds: MarkdownBounds = {},
): Token[] | TooBusy {
  const maxLines = bounds.lines ?? MAX_MARKDOWN_LINES;
  const line = lineBeyond(text, maxLines);
  if (line !== undefined) return new TooBusy("lines", line, maxLines);
  try {
    return md.parse(text, budgetEnv(env, bounds.tokens, bounds.inline));
  } catch (e) {
    if (e instanceof TooBusy) return e;
    throw e;
  }
}

function spend(env: unknown, line: number | undefined): void {
  const b = (env as Record<symbol, Budget | undefined> | undefined)?.[BUDGET];
  if (b === undefined) return;
  if (line !== undefined) b.line = line;
  if (--b.left < 0) throw new TooBusy("tokens", b.line, b.max);
}

/**
 * Makes a parser count the tokens its block and inline rules make against the budget of the parse's
 * environment (see parseBounded); a parse without one is not counted.
 */
export function countTokens(md: MarkdownIt): MarkdownIt {
  const Block = md.block.State;
  const Inline = md.inline.State;
  md.block.State = class extends Block {
    override push(type: string, tag: string, nesting: Token["nesting"]): Token {
      spend(this.env, this.line);
      return super.push(type, tag, nesting);
    }
  };
  md.inline.State = class extends Inline {
    override push(type: string, tag: string, nesting: Token["nesting"]): Token {
      spend(this.env, undefined);
      return super.push(type, tag, nesting);
    }
    override pushPending(): Token {
      spend(this.env, undefined);
      return super.pushPending();
    }
  };
  return md;
}

function budgetEnv(env: Record<string | symbol, unknown> = {}, max = MAX_MARKDOWN_TOKENS, inlineMax = MAX_MARKDOWN_INLINE): Record<string | symbol, unknown> {
  env[BUDGET] = { left: max, max, inlineLeft: inlineMax, inlineMax, line: 0 } satisfies Budget;
  return env;
}

/**
 * Counts inline content against the budget of the parse's environment, before the inline parser reads it
 * (a core inline rule calls it; `line` is the 0-based line of the block).
 */
export function spendInline(env: unknown, chars: number, line: number | undefined): void {
  const b = (env as Record<symbol, Budget | undefined> | undefined)?.[BUDGET];
  if (b === undefined) return;
  if (line !== undefined) b.line = line;
  b.inlineLeft -= chars;
  if (b.inlineLeft < 0) throw new TooBusy("inline", b.line, b.inlineMax);
}
