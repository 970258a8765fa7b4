import type { Pointer } from "./pointer.js";
import type { RuleIdOf } from "./rule-ids.js";
import type { MessageData } from "./rule.js";
import type { LineIndex } from "./source.js";

/** The syntaxes plangate reads. */
export type SyntaxId = "json" | "yaml" | "markdown";

/** Rule ids whose facts the readers (syntax, dialect shape, the engine's own checks) record: the rules of input kind "read". */
export type ReadRuleId = RuleIdOf<"read">;

/**
 * A fact a reader records about a document: which rule it concerns, which of that rule's messages tells it
 * (`messageId`, a key of the rule's `meta.messages`) and the values of the message's placeholders (`data`).
 * It holds no text of its own: the rule turns it into a report, and its messages into words. Readers build
 * one only when they find a problem, so a clean document costs nothing.
 */
export interface ReadFact {
  rule: ReadRuleId;
  messageId: string;
  data?: MessageData;
  /** 0-based UTF-16 offsets into the decoded text, half-open, when the reader knows them. */
  start?: number;
  end?: number;
  /** Where in the document's value, when there is one; the engine locates it when offsets are absent. */
  at?: Pointer;
  /** Point at the member's key rather than its value. */
  key?: boolean;
  step?: number;
  expected?: unknown;
  actual?: unknown;
}

/** A fact a syntax reader records: always placed by offsets into the decoded text. */
export interface ReadIssue extends ReadFact {
  start: number;
  end: number;
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
