import type { RuleId } from "./rule-ids.js";
import type { Pointer } from "./pointer.js";

/** How serious a diagnostic is; only errors make a plan invalid. */
export type Severity = "error" | "warning" | "info";

/** A policy's setting for a rule: a severity, or off. */
export type RuleSetting = Severity | "off";

/** One finding: a rule id, what is wrong and what to do, and where. */
export interface Diagnostic {
  rule: RuleId;
  severity: Severity;
  message: string;
  file?: string;
  pointer?: Pointer;
  step?: number;
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  expected?: unknown;
  actual?: unknown;
  hint?: string;
  /**
   * The id of the rule's message the diagnostic was reported with (`meta.messages`), for tests and tools;
   * not part of the JSON report.
   */
  messageId?: string;
}
