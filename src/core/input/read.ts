import type { ReadIssue, SourceDocument } from "../document.js";

/**
 * The input of "read" rules: what reading a document found, from its bytes to its dialect's shape. The
 * readers record facts; the read rules turn them into reports.
 */
export interface ReadInput {
  /** The document, when its syntax could be read. */
  readonly doc?: SourceDocument;
  /** The problems the readers recorded, in text order. */
  readonly issues: readonly ReadIssue[];
}
