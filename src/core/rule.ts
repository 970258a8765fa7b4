import type { RuleId } from "./rule-ids.js";
import type { Severity } from "./diagnostic.js";
import type { DialectId, Plan } from "./plan.js";
import type { Pointer } from "./pointer.js";
import type { Policy } from "./policy.js";
import type { ToolRegistry } from "./tools.js";
import type { FileProbe } from "./file-probe.js";

/**
 * When a check runs, for `--fail-fast` and for reading order: reading, structure, integrity, age,
 * then the steps in order. Orchestration rules run outside plan validation.
 */
export type Phase = "read" | "structure" | "integrity" | "age" | "step" | "orchestration" | "approval";

/** What a rule's doc says: shown by `plangate explain`. */
export interface RuleDocs {
  /** What the rule catches, one paragraph. */
  description: string;
  /** Why it matters. */
  rationale: string;
  /** How to fix a report. */
  fix: string;
  /** A short input that the rule reports, and one it accepts. */
  bad?: string;
  good?: string;
}

/** The catalogue entry of a rule. */
export interface RuleMeta {
  id: RuleId;
  defaultSeverity: Severity;
  /** Dialects the rule applies to; undefined means every dialect (or none, for orchestration rules). */
  dialects?: readonly DialectId[];
  phase: Phase;
  /** One line for `plangate rules`. */
  summary: string;
  docs: RuleDocs;
}

/** What a rule reports; the engine adds the severity, the file and the position. */
export interface Report {
  /** Pointer into the source document; the engine resolves its span (closest ancestor if needed). */
  at?: Pointer;
  /** Point at the member's key rather than its value (unknown keys, duplicates). */
  key?: boolean;
  step?: number;
  message: string;
  hint?: string;
  /** A notice that a check could not run: reported as info whatever the rule's severity. */
  notice?: boolean;
  /** Reported at most at this severity (a rule set to error reports a warning), unless the rule is off. */
  atMost?: Severity;
  expected?: unknown;
  actual?: unknown;
}

/** Everything a rule may look at. Rules do no I/O but through `files`, and read time only through `now`. */
export interface RuleContext {
  readonly plan: Plan;
  readonly policy: Policy;
  readonly tools: ToolRegistry | undefined;
  readonly now: Date;
  readonly files: FileProbe;
  /** The turn context for Markdown plans (paths the planner has read), if given. */
  readonly context: readonly string[] | undefined;
  report(report: Report): void;
}

/** A rule: its catalogue entry and, for plan rules, the check. Reader and dialect rules have no check. */
export interface Rule {
  meta: RuleMeta;
  check?(plan: Plan, context: RuleContext): void;
  /** Loads what the check needs (e.g. a heavy library) before it runs; only called when the rule will run. */
  prepare?(plan: Plan, context: RuleContext): Promise<void>;
}

/** Declares a rule (an identity function that keeps the type). */
export function defineRule(rule: Rule): Rule {
  return rule;
}
