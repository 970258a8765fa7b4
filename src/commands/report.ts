import type { Plan } from "../core/plan.js";
import type { PlanFacts } from "../core/facts.js";
import type { RuleContext } from "../core/rule.js";
import type { CommandFinding, CommandRule } from "./analyse.js";
import { analysedCommands, commandsOf, partAt, prepareCommands } from "./plan.js";

/** A rule's `prepare`: loads the shell parser and reads the plan's commands, only when it has some. */
export async function prepareCommandRule(plan: Plan, ctx: RuleContext): Promise<void> {
  if (commandsOf(plan, ctx.facts).length > 0) await prepareCommands(plan, ctx.policy, ctx.facts);
}

/** One finding of a rule about a command line: where, its message id, and the data of the rule's message for it. */
export interface CommandFindingReport<R extends CommandRule> {
  at: string;
  step: number;
  /** The command line, the report's `actual`. */
  actual: string | undefined;
  /** What the analysis found: the rule's message id and its data. */
  finding: CommandFinding<R>;
  /** The step and the argument that holds the command, for the message's "Step {{step}}: the command in "{{argument}}"". */
  where: { step: number; argument: string; through: string };
}

/** The findings of one rule about the plan's command lines, in order. */
export function* commandFindings<R extends CommandRule>(plan: Plan, facts: PlanFacts, rule: R): Generator<CommandFindingReport<R>> {
  if (commandsOf(plan, facts).length === 0) return;
  for (const { command, report } of analysedCommands(plan, facts))
    for (const f of report.findings)
      if (f.rule === rule) yield { at: partAt(command, f.span?.start), step: command.step.position, actual: command.text, finding: f as CommandFinding<R>, where: { step: command.step.position, argument: command.name, through: f.via === undefined ? "" : ` (in ${f.via})` } };
}
