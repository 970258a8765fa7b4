import type { Plan } from "../core/plan.js";
import type { RuleContext } from "../core/rule.js";
import type { CommandFinding } from "./analyse.js";
import { analysedCommands, commandsOf, describeCommand, prepareCommands } from "./plan.js";

/** A rule's `prepare`: loads the shell parser and reads the plan's commands, only when it has some. */
export async function prepareCommandRule(plan: Plan, ctx: RuleContext): Promise<void> {
  if (commandsOf(plan).length > 0) await prepareCommands(plan, ctx.policy);
}

/** Reports the findings of one rule about the plan's command lines. */
export function reportCommandFindings(plan: Plan, ctx: RuleContext, rule: CommandFinding["rule"]): void {
  if (commandsOf(plan).length === 0) return;
  for (const { command, report } of analysedCommands(plan, ctx.policy))
    for (const f of report.findings)
      if (f.rule === rule)
        ctx.report({ at: command.at, step: command.step.position, message: `${describeCommand(command)} ${f.message}.`, hint: f.hint, actual: command.text });
}
