import type { Pointer } from "./pointer.js";
import type { LineIndex } from "./source.js";

/** The syntaxes plangate reads. */
export type SyntaxId = "json" | "yaml" | "markdown";

/** Rule ids a reader may report. */
export type ReadRuleId = "parse-error" | "duplicate-key" | "unsafe-value" | "limit-exceeded";

/** A problem found while reading, located by offsets into the decoded text. */
export interface ReadIssue {
  rule: ReadRuleId;
  message: string;
  /** 0-based UTF-16 offsets, half-open. */
  start: number;
  end: number;
  pointer?: Pointer;
  hint?: string;
}

/** Offsets of a value in the text; `key` is the member name's span when the value is an object member. */
export interface ValueLocation {
  start: number;
  end: number;
  keyStart?: number;
  keyEnd?: number;
}

/**
 * Number lexemes the JavaScript value cannot stand for. The reader records the source lexeme of
 * every number whose lexeme differs from String(value) ("1.0", "1e5", "-0", "12345678901234567890"),
 * keyed by the containing array or object and the member key (array index as a string).
 * A number at the document root is stored under the key "" of the `root` container.
 */
export interface NumberLexemes {
  get(container: object, key: string): string | undefined;
  readonly rootLexeme?: string | undefined;
}

/** A parsed source text: the value, where each part of it came from, and what went wrong reading it. */
export interface SourceDocument {
  syntax: SyntaxId;
  /** The decoded text (BOM removed) that offsets refer to. */
  text: string;
  lines: LineIndex;
  /** The parsed value; undefined when the text could not be read at all. */
  value: unknown;
  issues: ReadIssue[];
  numbers: NumberLexemes;
  /** Where the value at a pointer came from; undefined if no such value. May build an index on first call. */
  locate(pointer: Pointer): ValueLocation | undefined;
}

/** An empty lexeme table, for documents whose numbers need none. */
export const NO_LEXEMES: NumberLexemes = { get: () => undefined };
