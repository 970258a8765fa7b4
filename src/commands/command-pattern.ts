import type { Constraint } from "../core/constraints.js";
import { allowed, type CommandPolicy, deniedBy } from "./match.js";
import { PROGRAM_KEYS } from "./constraint-check.js";
import { mayRunOthers } from "./wrappers.js";

/*
 * Command patterns: a `$glob` or `$regex` constraint on a command argument. Apart from the other
 * constraint checks (./constraint-check.ts), since it needs the wrapper tables, which the guard's path
 * checks do not.
 */

/**
 * Why a command pattern cannot be shown to run allowed programs only: the id of its reason (worded by
 * disallowed-tool, `patternReasons`) and the reason's data (`kind` the pattern's, `key` the argument,
 * `program` the program word, `entry` the commands.deny entry).
 */
export interface CommandPatternProblem {
  reason: "programKey" | "alternation" | "noProgram" | "nonAsciiProgram" | "programPath" | "wrapper" | "denied" | "notAllowed";
  data: Readonly<Record<string, string>>;
}

/**
 * A `$glob` or `$regex` on a command: it must begin with a literal program name, that the commands policy
 * allows and does not deny, that is no wrapper or shell (which run other commands); a `$regex` may have no
 * alternation. Returns why not, or undefined.
 */
export function commandPatternProblem(c: Constraint, key: string, policy: CommandPolicy): CommandPatternProblem | undefined {
  if (c.kind !== "$glob" && c.kind !== "$regex") return undefined;
  const kind = c.kind;
  if (PROGRAM_KEYS.has(key.toLowerCase())) return { reason: "programKey", data: { key, kind } };
  let program: string | undefined;
  if (c.kind === "$glob") {
    const m = /^([^\s*?[\]{}()!@+\\]+)(?:\s|$)/.exec(c.pattern);
    program = m?.[1];
  } else {
    if (/(^|[^\\])\|/.test(c.pattern.replace(/\\\\/g, ""))) return { reason: "alternation", data: { kind } };
    const m = /^\^?((?:[A-Za-z0-9_-]|\\\.)+)(?: |$)/.exec(c.pattern);
    program = m?.[1]?.replace(/\\\./g, ".");
  }
  if (program === undefined || program === "") return { reason: "noProgram", data: { kind } };
  if (/[^\x21-\x7e]/.test(program)) return { reason: "nonAsciiProgram", data: { kind, program } };
  if (program.includes("/")) return { reason: "programPath", data: { kind, program } };
  // The words after the program: literal ones as written, a word with a wildcard (or any word of a
  // $regex past the program) as "may be anything", which deny entries match and allow entries do not.
  const rest = c.kind === "$glob" ? c.pattern.trim().split(/\s+/).slice(1) : [];
  const words: (string | undefined)[] = [program];
  // A `*` (and anything in a $regex) may stand for any number of words: as many "anything" words as
  // any deny or allow entry could need.
  const ANY_WORDS = Array.from<undefined>({ length: 16 });
  let open = c.kind === "$regex";
  for (const w of rest) {
    if (w.includes("*")) {
      open = true;
      break;
    }
    words.push(/[?[\]{}\\]/.test(w) ? undefined : w);
  }
  if (open) words.push(...ANY_WORDS);
  if (mayRunOthers(program, words.slice(1))) return { reason: "wrapper", data: { kind, program } };
  const denied = deniedBy(policy, words);
  if (denied !== undefined) return { reason: "denied", data: { kind, program, entry: denied } };
  if (!allowed(policy, words)) return { reason: "notAllowed", data: { kind, program } };
  return undefined;
}
