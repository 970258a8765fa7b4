import type { ReadFact, SourceDocument, SyntaxId } from "./document.js";
import type { DialectId, Plan } from "./plan.js";
import type { Policy } from "./policy.js";

/**
 * What a dialect's normaliser records of a shape problem: a fact naming its rule (missing-field,
 * unknown-key, invalid-type…), one of that rule's messages and the message's data. The rule says it.
 */
export type DialectReport = ReadFact;

export interface NormalizeContext {
  readonly policy: Policy;
  report(report: DialectReport): void;
  /**
   * Steps the dialect may still read (the engine starts it at limits.maxSteps): a list past it is reported
   * and not read (shape.ts `tooManySteps`), so a huge list of steps is never built only to be counted.
   */
  readonly budget?: { steps: number };
}

/** A plan dialect: which syntaxes it comes in and how its documents become the one Plan model. */
export interface Dialect {
  id: DialectId;
  syntaxes: readonly SyntaxId[];
  /** Short description of the shape, for unknown-format hints and `--help`. */
  shape: string;
  /** Builds the Plan, reporting shape problems; undefined when not even the list of steps could be found. */
  normalize(doc: SourceDocument, context: NormalizeContext): Plan | undefined;
}

/** Declares a dialect (an identity function that keeps the type). */
export function defineDialect(dialect: Dialect): Dialect {
  return dialect;
}
