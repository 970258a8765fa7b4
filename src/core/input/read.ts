import type { ReadFact } from "../document.js";
import type { Report, ReportContext, RuleContext } from "../rule.js";

/**
 * A normalised plan with what plan checks are given (policy, tools, clock, files, turn context): handed to
 * the read rules whose findings need the plan as well as the reading (a command the shell parser cannot
 * read is a parse error, a hidden character in a tool name an unsafe value), when reading got that far.
 */
export type PlanView = Omit<RuleContext, "report">;

/**
 * The input of "read" rules: the facts recorded while reading a document, from its bytes through its
 * syntax to its dialect's shape, in the order they were found. The readers record facts (a rule id, a
 * message id, data and a place); the read rules own the words and turn the facts into reports.
 */
export interface ReadInput {
  readonly facts: readonly ReadFact[];
  /** The plan the dialect made of the document, when plan checks run on it. */
  readonly normalized?: PlanView;
}

/** The report that tells a fact: its message, data and place, as recorded. */
export function factReport(fact: ReadFact): Report {
  const r: Report = { messageId: fact.messageId };
  if (fact.data !== undefined) r.data = fact.data;
  if (fact.start !== undefined) r.offsets = { start: fact.start, end: fact.end ?? fact.start };
  if (fact.at !== undefined) r.at = fact.at;
  if (fact.key) r.key = true;
  if (fact.step !== undefined) r.step = fact.step;
  if (fact.expected !== undefined) r.expected = fact.expected;
  if (fact.actual !== undefined) r.actual = fact.actual;
  return r;
}

/** Reports every fact of one rule, in the order recorded: what most read rules' checks do. */
export function reportFacts(id: ReadFact["rule"], input: ReadInput, context: ReportContext): void {
  for (const fact of input.facts) if (fact.rule === id) context.report(factReport(fact));
}

/** A plan check's context built from a read input's plan view and a read rule's context. */
export function planContext(plan: PlanView, context: ReportContext): RuleContext {
  return { ...plan, report: (r) => context.report(r) };
}
