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
  countTokens(text: string): number;
  isWithinTokenLimit(text: string, limit: number): false | number;
}

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
    p = importOrExplain(encoding).then((m) => ({
      encoding,
      count: (text: string) => m.countTokens(text),
      under: (text: string, limit: number) => limit > 0 && m.isWithinTokenLimit(text, limit - 1) !== false,
    }));
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
