import type { RuleId } from "./rule-ids.js";
import type { SourceDocument, SyntaxId } from "./document.js";
import type { DialectId, Plan } from "./plan.js";
import type { Report } from "./rule.js";
import type { Policy } from "./policy.js";

/** A report from a dialect's normaliser: it names its rule (missing-field, unknown-key, invalid-type…). */
export interface DialectReport extends Report {
  rule: RuleId;
}

export interface NormalizeContext {
  readonly policy: Policy;
  report(report: DialectReport): void;
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
