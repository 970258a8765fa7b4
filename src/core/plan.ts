import type { SourceDocument } from "./document.js";
import type { Pointer } from "./pointer.js";

/** The plan dialects plangate reads. */
export type DialectId = "scqc-legacy" | "scqc-envelope" | "intake" | "ikoma" | "teddy";

export const DIALECT_IDS: readonly DialectId[] = ["scqc-legacy", "scqc-envelope", "intake", "ikoma", "teddy"];

/** The dialect's own names for the normalised step fields, used in messages. */
export interface FieldNames {
  tool: string;
  args: string;
  intent: string;
}

/** One step of a plan, whatever dialect it came from. */
export interface Step {
  /** 1-based position in the plan. */
  position: number;
  /** Pointer to the step in the source document. */
  at: Pointer;
  /** Tool name; undefined when absent or not a string (the dialect reported it). */
  tool?: string;
  /** Pointer to the tool name (or to the step when it has none). */
  toolAt: Pointer;
  /** Arguments object ({} when absent or not an object). */
  args: Record<string, unknown>;
  /** Pointer to the arguments object. */
  argsAt: Pointer;
  intent?: string;
  scope?: string;
  timeout?: number;
  continueOnError?: boolean;
  citations?: readonly number[];
  /** Times the call runs in a row (intake, iKOMA `repeat`: 1..1000; absent means 1). */
  repeat?: number;
  /** The call may be skipped (`optional: true`). */
  optional?: boolean;
  /** The call needs the user's confirmation when it runs (`confirm: true`). */
  confirm?: boolean;
  /**
   * The calls a subagent makes for a `Task` or `Agent` step (its nested `steps`, one level deep). They are
   * validated by the same rules as top-level steps; each has its parent's `position`.
   */
  substeps?: Step[];
  /** The raw step value as read. */
  raw: unknown;
  /** Dialect-specific extras (e.g. a Markdown action's kind and blocks). */
  extra?: Readonly<Record<string, unknown>>;
}

/** A plan in the one model every dialect normalises to. */
export interface Plan {
  dialect: DialectId;
  source: SourceDocument;
  fields: FieldNames;
  /** Pointer to the list of steps ("" for a bare list). */
  stepsAt: Pointer;
  steps: readonly Step[];
  /** Envelope or root metadata (version, created_at, checksum, reasoning, scope…) as read. */
  meta: Readonly<Record<string, unknown>>;
  /** Declared workspace scope of the whole plan, if any. */
  scope?: string;
}
