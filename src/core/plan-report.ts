import type { Diagnostic } from "./diagnostic.js";
import type { SourceDocument } from "./document.js";
import type { DialectId, Plan } from "./plan.js";

/** The result of validating one plan. */
export interface PlanReport {
  file?: string;
  dialect?: DialectId;
  valid: boolean;
  /** `sha256:` + hex of the plan's canonical form; absent when the plan could not be read. */
  planHash?: string;
  /** Number of steps (Markdown: actions). */
  steps: number;
  diagnostics: Diagnostic[];
  /** The normalised plan, when one could be built. */
  plan?: Plan;
  /** The source as read (for code frames), when the file could be decoded. */
  source?: SourceDocument;
  /** Checks that threw (a bug in plangate): each is also an error diagnostic, and the CLI exits 2. */
  internalErrors?: { rule: string; message: string }[];
}
