import { MissingDependency } from "../core/missing-dependency.js";
/** Encodings shipped inside gpt-tokenizer (vocabularies included, no download). */
export const ENCODINGS = ["o200k_base", "o200k_harmony", "cl100k_base", "p50k_base", "p50k_edit", "r50k_base"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Counts tokens; `limit` lets long texts stop early (returns a count ≥ limit, not exact). */
export interface TokenCounter {
  encoding: Encoding;
  count(text: string): number;
  /** True when the text has fewer than `limit` tokens. */
  under(text: string, limit: number): boolean;
}

interface EncodingModule {
  countTokens(text: string, options?: { disallowedSpecial?: Set<string> }): number;
}

/**
 * Byte-pair encoding is quadratic in the length of each pre-token, and a run without whitespace (or of
 * whitespace alone) may be one pre-token: a megabyte of one letter would take hours. A text whose runs
 * cost more than RUN_BUDGET (the sum of their squared lengths, about a fifth of a second) has its runs of
 * more than LONG_RUN code units counted in RUN_PIECE-unit pieces, so counting stays linear; every other
 * text, ordinary prose, code and URLs included, is counted exactly, in one pass.
 */
const RUN_BUDGET = 16_000_000;
const LONG_RUN = 100;
const RUN_PIECE = 50;

/**
 * The text in parts whose token counts add up to its count (the whole text, unless its runs are over
 * the budget): the stretches between over-long runs, whole, and the long runs in pieces, never splitting
 * a surrogate pair.
 */
export function tokenSegments(text: string): string[] {
  let cost = 0;
  for (let i = 0; i < text.length && cost <= RUN_BUDGET; ) {
    const j = runEnd(text, i);
    cost += (j - i) * (j - i);
    i = j;
  }
  if (cost <= RUN_BUDGET) return [text];
  const out: string[] = [];
  let from = 0;
  let i = 0;
  while (i < text.length) {
    const j = runEnd(text, i);
    if (j - i > LONG_RUN) {
      if (i > from) out.push(text.slice(from, i));
      for (let k = i; k < j; ) {
        let end = Math.min(j, k + RUN_PIECE);
        if (end < j && isHighSurrogate(text.charCodeAt(end - 1))) end++;
        out.push(text.slice(k, end));
        k = end;
      }
      from = j;
    }
    i = j;
  }
  if (from < text.length || out.length === 0) out.push(text.slice(from));
  return out;
}

/** Where the run of whitespace, or of anything else, that starts at `i` ends. */
function runEnd(text: string, i: number): number {
  const space = isSpace(text.charCodeAt(i));
  let j = i + 1;
  while (j < text.length && isSpace(text.charCodeAt(j)) === space) j++;
  return j;
}

function isSpace(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || c === 0xa0 || c === 0x85 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000;
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

/** Special-token spellings (`<|endoftext|>`) in a summary are text, counted as the text they are. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

const loaded = new Map<Encoding, Promise<TokenCounter>>();

/** Is this an encoding plangate can load? */
export function isEncoding(name: string): name is Encoding {
  return (ENCODINGS as readonly string[]).includes(name);
}

/**
 * The tokenizer for an encoding, loaded on first use (each vocabulary is megabytes: only the one asked
 * for is imported) and cached for the process.
 */
export function loadTokenCounter(encoding: string): Promise<TokenCounter> {
  if (!isEncoding(encoding)) {
    return Promise.reject(new RangeError(`unknown tokenizer encoding "${encoding}" (known: ${ENCODINGS.join(", ")})`));
  }
  let p = loaded.get(encoding);
  if (!p) {
    p = importOrExplain(encoding).then((m) => {
      const count = (text: string): number => tokenSegments(text).reduce((n, part) => n + m.countTokens(part, AS_TEXT), 0);
      const under = (text: string, limit: number): boolean => {
        if (limit <= 0) return false;
        // A bounded prefix first: a text of more than `limit` tokens stops there.
        let n = 0;
        for (let at = 0; at < text.length; ) {
          let end = Math.min(text.length, at + 64 * limit);
          if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end++;
          if (at === 0 && end === text.length) return count(text) < limit;
          n += count(text.slice(at, end));
          if (n >= limit) return false;
          at = end;
        }
        // Counted in parts, the text may read a token or two shorter or longer than whole: count it whole.
        return count(text) < limit;
      };
      return { encoding, count, under };
    });
    loaded.set(encoding, p);
  }
  return p;
}

/** gpt-tokenizer is an optional peer dependency (30 MB of vocabularies): what to do when it is absent. */
export class TokenizerMissing extends MissingDependency {
  constructor(encoding: string) {
    super(
      `counting the summary's tokens (encoding ${encoding}) needs the optional package gpt-tokenizer, which is not installed: run \`npm install gpt-tokenizer\` where plangate is installed (npm install -g gpt-tokenizer for a global plangate), or set returns.maxSummaryTokens: 0 in the policy to leave summaries unmeasured`,
    );
  }
}

let importer: (e: Encoding) => Promise<EncodingModule> = importEncoding;

async function importOrExplain(e: Encoding): Promise<EncodingModule> {
  try {
    return await importer(e);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") throw new TokenizerMissing(e);
    throw err;
  }
}

/** Replaces how encodings are imported (tests: a missing package), returning the previous importer. */
export function setEncodingImporter(next: (e: Encoding) => Promise<EncodingModule>): (e: Encoding) => Promise<EncodingModule> {
  const prev = importer;
  importer = next;
  loaded.clear();
  return prev;
}

// Literal specifiers, so bundlers and `npm pack` checks can see every module that may load.
function importEncoding(e: Encoding): Promise<EncodingModule> {
  switch (e) {
    case "o200k_base":
      return import("gpt-tokenizer/encoding/o200k_base");
    case "o200k_harmony":
      return import("gpt-tokenizer/encoding/o200k_harmony");
    case "cl100k_base":
      return import("gpt-tokenizer/encoding/cl100k_base");
    case "p50k_base":
      return import("gpt-tokenizer/encoding/p50k_base");
    case "p50k_edit":
      return import("gpt-tokenizer/encoding/p50k_edit");
    case "r50k_base":
      return import("gpt-tokenizer/encoding/r50k_base");
  }
}
