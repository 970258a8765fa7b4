import type { CommandMessageIds } from "../../commands/analyse.js";

/** What unresolved-argument finds in a command line, as clauses of "the command … {clause}.", with their hints. */
export const commandClauses = {
  redirectAtRunTime: { message: "redirects to {{source}}, a file decided at run time", hint: "write the file name into the plan" },
  awkFileAtRunTime: { message: "gives {{program}} a program that writes or reads a file decided at run time ({{how}})", hint: "write each file the program prints to or reads with getline as a string literal" },
  setsCdpath: { message: "sets CDPATH, which makes the folder a later cd moves to depend on a search list (cd etc may go to /etc)", hint: "remove the CDPATH setting and write the folders cd moves to as paths from the workspace" },
  arithmeticVariable: { message: "evaluates {{source}} as arithmetic, which reads a variable whose value bash also evaluates (array subscripts run commands)", hint: "write numbers, or compute the value in a separate, checked step" },
  backupSuffixVariable: { message: "sets SIMPLE_BACKUP_SUFFIX {{how}}, which names the backups cp, mv, ln, install and patch make of the files they replace", hint: "give the suffix on the command that makes the backup, without a /: cp -b -S .bak a b" },
  valueAtRunTime: { message: "passes {{source}}, a value decided at run time", hint: "write the value into the plan" },
  folderNotFollowed: { message: "changes folder in a way plangate does not follow ({{how}}), so the folder later commands run in is not known", hint: "move with cd as a command of its own, by a path written into the plan" },
  packageFolders: { message: "runs a program in package folders its configuration names ({{how}}), so the files its relative paths name are not known", hint: "run the program in the package's folder (cd, or the runner's folder option), written into the plan" },
  inputWords: { message: "gives {{program}} words {{wrapper}} reads from its input, which are decided at run time", hint: "write the files into the plan, or run find … -exec … {} + on a folder, whose files plangate can bound" },
} as const satisfies Record<CommandMessageIds["unresolved-argument"], { message: string; hint: string }>;
