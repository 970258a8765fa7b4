import type { CommandMessageIds } from "../../commands/analyse.js";

/** What multiple-tools finds in a command line, as clauses of "the command … {clause}.", with their hints. */
export const commandClauses = {
  compoundCommand: { message: "runs more than one command ({{kinds}})", hint: "split it into one step per command, quote an operator that is an argument, or set commands.allowCompound: true in plangate.yaml" },
  runsThroughWrapper: { message: 'runs "{{program}}" through "{{wrapper}}", a program that runs another program', hint: "run the program directly, one per step, or set commands.allowCompound: true in plangate.yaml" },
  handsCommandLine: { message: 'hands a command line to "{{wrapper}}", which runs it', hint: "write the commands themselves, one per step, or set commands.allowCompound: true in plangate.yaml" },
} as const satisfies Record<CommandMessageIds["multiple-tools"], { message: string; hint: string }>;
