import type { CommandMessageIds } from "../../commands/analyse.js";

const ARGUMENT_VECTOR = "give the command as one string, or as a list of strings (program first)";
const PLAIN_SHELL = "write the command in plain shell syntax (simple commands and quoted arguments), or split it into steps";

/**
 * What parse-error finds in a command line, as clauses of "the command … {clause}.", with their hints.
 * `{{problem}}` is the shell reader's description of the first problem.
 */
export const commandClauses = {
  unreadableCommand: { message: "cannot be read as a shell command: {{problem}}", hint: PLAIN_SHELL },
  unreadableCommandAndOne: { message: "cannot be read as a shell command: {{problem}} (and {{more}} more problem)", hint: PLAIN_SHELL },
  unreadableCommandAndMore: { message: "cannot be read as a shell command: {{problem}} (and {{more}} more problems)", hint: PLAIN_SHELL },
  nestedTooDeep: { message: "nests programs that run programs more than {{depth}} deep", hint: "write the innermost command as its own step" },
  listNotStrings: { message: "is a list with items that are not strings, so it is no argument vector", hint: ARGUMENT_VECTOR },
  notCommandLine: { message: "is not a command line (a string or a list of strings)", hint: ARGUMENT_VECTOR },
  argvBesideNotStrings: { message: 'has "{{key}}" beside it that is a list with items that are not strings, so it is no argument vector', hint: ARGUMENT_VECTOR },
  parserNotLoaded: { message: "cannot be checked: the shell parser could not be loaded ({{reason}})", hint: "reinstall plangate; until then, plans with commands are rejected" },
  notChecked: { message: "was not checked (the command analysis did not run)", hint: "report this as a bug in plangate" },
} as const satisfies Record<CommandMessageIds["parse-error"], { message: string; hint: string }>;
