import { compiledFor } from "../core/compiled.js";
import { globMatcher } from "../core/glob.js";

/** The policy's `commands` section. */
export interface CommandPolicy {
  allow: readonly string[];
  deny: readonly string[];
  allowCompound: boolean;
  /**
   * Package managers that may install, or change their settings, outside the workspace (`cargo`, `npm`,
   * `apt-get`; `*` and `?` are globs). Absent: none may.
   */
  installOutside?: readonly string[];
  /**
   * Interpreters whose code a command may give on its line or standard input (`python -c`, `node -e`,
   * `python3 - <<EOF`; `python`, `node`, `perl`; `*` and `?` are globs). Absent: none may.
   */
  inlineCode?: readonly string[];
  writtenCode?: readonly string[];
}

/** One allow or deny entry: a program, or a program and the first words of its arguments (`git push`). */
interface Entry {
  text: string;
  words: { test(word: string): boolean }[];
}

function compile(list: readonly string[], fold: boolean): Entry[] {
  return list
    .map((text) => ({ text, parts: text.trim().split(/\s+/).filter((w) => w !== "") }))
    .filter((e) => e.parts.length > 0)
    .map((e) => ({ text: e.text, words: e.parts.map((p) => globMatcher(fold ? p.toLowerCase() : p)) }));
}

/** A commands section's entries; policies are reused across validations, so compiled once per section. */
function entriesOf(policy: CommandPolicy): { allow: Entry[]; deny: Entry[] } {
  return compiledFor("commands", policy, () => ({ allow: compile(policy.allow, false), deny: compile(policy.deny, true) }));
}

/**
 * The program's name as the policy compares it: the last path component (`/usr/bin/rm` is `rm`).
 */
export function programName(word: string): string {
  const parts = word.split("/");
  return parts[parts.length - 1] ?? word;
}

/**
 * The deny entry an invocation matches, if any. Deny is read widely: the program is compared without
 * case, and the entry's further words may appear anywhere after it, in order (`git push` denies
 * `git -C x push --force`); a word decided at run time may be any of them.
 */
export function deniedBy(policy: CommandPolicy, words: readonly (string | undefined)[]): string | undefined {
  const [program, ...args] = words;
  if (program === undefined) return undefined;
  const name = programName(program).toLowerCase();
  for (const e of entriesOf(policy).deny) {
    if (!e.words[0]!.test(name)) continue;
    let k = 1;
    for (const a of args) {
      if (k >= e.words.length) break;
      if (a === undefined || e.words[k]!.test(a.toLowerCase())) k++;
    }
    if (k >= e.words.length) return e.text;
  }
  return undefined;
}

/**
 * Is an invocation allowed by `commands.allow`? An empty list allows every program. Allow is read
 * narrowly: the program exactly, and the entry's further words as the first arguments, exactly.
 */
export function allowed(policy: CommandPolicy, words: readonly (string | undefined)[]): boolean {
  const entries = entriesOf(policy).allow;
  if (entries.length === 0) return true;
  const [program, ...args] = words;
  if (program === undefined) return false;
  const name = programName(program);
  return entries.some((e) => e.words[0]!.test(name) && e.words.slice(1).every((re, i) => args[i] !== undefined && re.test(args[i]!)));
}

/** Does `commands.installOutside` name a package manager (as plangate names it, or as the command spells it)? */
export function installAllowed(policy: CommandPolicy, manager: string, spelt: string): boolean {
  const list = policy.installOutside;
  if (list === undefined || list.length === 0) return false;
  const entries = compiledFor("installOutside", list, () => list.map((e) => globMatcher(e.trim())));
  return entries.some((e) => e.test(manager) || e.test(spelt));
}

/** Does `commands.inlineCode` name an interpreter (as plangate names it, `python`, or as the command spells it, `python3.12`)? */
export function inlineCodeAllowed(policy: CommandPolicy, interpreter: string, spelt: string): boolean {
  const list = policy.inlineCode;
  if (list === undefined || list.length === 0) return false;
  const entries = compiledFor("inlineCode", list, () => list.map((e) => globMatcher(e.trim())));
  return entries.some((e) => e.test(interpreter) || e.test(spelt));
}

/** May code of this language that the plan writes be run or loaded (`commands.writtenCode`, or `commands.inlineCode`)? */
export function writtenCodeAllowed(policy: CommandPolicy, interpreter: string, spelt: string): boolean {
  const list = policy.writtenCode;
  if (list !== undefined && list.length > 0) {
    const entries = compiledFor("writtenCode", list, () => list.map((e) => globMatcher(e.trim())));
    if (entries.some((e) => e.test(interpreter) || e.test(spelt))) return true;
  }
  return inlineCodeAllowed(policy, interpreter, spelt);
}

/**
 * Does a `commands.allow` entry that allows the invocation also name its word at `index` (`npx vitest`
 * names `vitest` in `npx vitest run`)? Then the program a wrapper or runner runs there is allowed by it.
 */
export function allowedNaming(policy: CommandPolicy, words: readonly (string | undefined)[], index: number): boolean {
  const [program, ...args] = words;
  if (program === undefined || index < 1) return false;
  const name = programName(program);
  return entriesOf(policy).allow.some((e) => e.words.length > index && e.words[0]!.test(name) && e.words.slice(1).every((re, i) => args[i] !== undefined && re.test(args[i]!)));
}
