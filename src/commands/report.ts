import type { Plan } from "../core/plan.js";
import type { PlanFacts } from "../core/facts.js";
import type { RuleContext } from "../core/rule.js";
import type { CommandFinding } from "./analyse.js";
import { analysedCommands, commandsOf, prepareCommands } from "./plan.js";

/** A rule's `prepare`: loads the shell parser and reads the plan's commands, only when it has some. */
export async function prepareCommandRule(plan: Plan, ctx: RuleContext): Promise<void> {
  if (commandsOf(plan, ctx.facts).length > 0) await prepareCommands(plan, ctx.policy, ctx.facts);
}

/** One finding of a rule about a command line: where, and the data of the rule's message for it. */
export interface CommandFindingReport {
  at: string;
  step: number;
  /** The command line, the report's `actual`. */
  actual: string | undefined;
  /** The argument that holds the command, what the analysis found (no final period), and its hint. */
  data: { step: number; argument: string; finding: string; hint: string };
}

/** The findings of one rule about the plan's command lines, in order. */
export function* commandFindings(plan: Plan, facts: PlanFacts, rule: CommandFinding["rule"]): Generator<CommandFindingReport> {
  if (commandsOf(plan, facts).length === 0) return;
  for (const { command, report } of analysedCommands(plan, facts))
    for (const f of report.findings)
      if (f.rule === rule) yield { at: command.at, step: command.step.position, actual: command.text, data: { step: command.step.position, argument: command.name, finding: f.message, hint: f.hint } };
}

/** Reports the findings of one rule about the plan's command lines, as literal messages (for rules that do not declare theirs). */
export function reportCommandFindings(plan: Plan, ctx: RuleContext, rule: CommandFinding["rule"]): void {
  for (const { at, step, actual, data } of commandFindings(plan, ctx.facts, rule))
    ctx.report({ at, step, message: `Step ${data.step}: the command in "${data.argument}" ${data.finding}.`, hint: data.hint, actual });
}
