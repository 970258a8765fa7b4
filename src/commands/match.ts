import { compiledFor } from "../core/compiled.js";
import { globMatcher } from "../core/glob.js";
import type { WorkMeter } from "../core/work.js";

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
  /** Its place in the list: the first entry that matches is the one a message names. */
  index: number;
  words: { test(word: string): boolean }[];
}

/**
 * A list's entries, those whose program is a name looked up by it: a program is compared with the few
 * entries that name it and the entries whose program is a glob (at most 64: policy/bounds.ts), not with
 * every entry of the list.
 */
interface Entries {
  all: readonly Entry[];
  byName: ReadonlyMap<string, readonly Entry[]>;
  globbed: readonly Entry[];
}

const NONE: readonly Entry[] = [];

function compile(list: readonly string[], fold: boolean): Entries {
  const all: Entry[] = [];
  const byName = new Map<string, Entry[]>();
  const globbed: Entry[] = [];
  for (const text of list) {
    const parts = text
      .trim()
      .split(/\s+/)
      .filter((w) => w !== "");
    if (parts.length === 0) continue;
    const e: Entry = { text, index: all.length, words: parts.map((p) => globMatcher(fold ? p.toLowerCase() : p)) };
    all.push(e);
    const program = fold ? parts[0]!.toLowerCase() : parts[0]!;
    if (program.includes("*") || program.includes("?")) globbed.push(e);
    else {
      const named = byName.get(program);
      if (named) named.push(e);
      else byName.set(program, [e]);
    }
  }
  return { all, byName, globbed };
}

/** A commands section's entries; policies are reused across validations, so compiled once per section. */
function entriesOf(policy: CommandPolicy): { allow: Entries; deny: Entries } {
  return compiledFor("commands", policy, () => ({ allow: compile(policy.allow, false), deny: compile(policy.deny, true) }));
}

/**
 * The program's name as the policy compares it: the last path component (`/usr/bin/rm` is `rm`).
 */
export function programName(word: string): string {
  const parts = word.split("/");
  return parts[parts.length - 1] ?? word;
}

/*
 * Comparing a program's words with the entries of commands.allow and commands.deny is work a policy and a
 * plan multiply: 1,024 entries naming one program, each of 127 words, against 8,000 commands of 127 words
 * took 6 s, a deny list of such entries against commands of 8,000 words 5.5 s. The work of one validation
 * (of one call the guard checks) is metered: each entry compared counts one, and each of its words tested
 * against a word of the command one, and one more for each 256 characters of that word. The meter is set
 * by whoever analyses the command lines (withMatchMeter); past it, no invocation is allowed, none is found
 * denied, and the meter's owner reports `limit-exceeded`.
 */
let meter: WorkMeter | undefined;

/** Runs `f` (synchronous) with the matching of commands.allow and commands.deny taking from `m`. */
export function withMatchMeter<T>(m: WorkMeter, f: () => T): T {
  const before = meter;
  meter = m;
  try {
    return f();
  } finally {
    meter = before;
  }
}

/** Takes `units` from the meter: false once it has run out. */
function spend(units: number): boolean {
  if (meter === undefined) return true;
  meter.left -= units;
  return meter.left >= 0;
}

/** Does a deny entry match an invocation's arguments: its further words anywhere after the program, in order? */
function deniesArgs(e: Entry, args: readonly (string | undefined)[]): boolean {
  if (meter !== undefined && meter.left < 0) return false;
  let k = 1;
  let units = 1;
  for (const a of args) {
    if (k >= e.words.length) break;
    if (a === undefined) k++;
    else {
      units += 1 + (a.length >>> 8);
      if (e.words[k]!.test(a.toLowerCase())) k++;
    }
  }
  return spend(units) && k >= e.words.length;
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
  const { byName, globbed } = entriesOf(policy).deny;
  // The first entry of the list that matches: among those naming the program, then the globs before it.
  let found: Entry | undefined;
  for (const e of byName.get(name) ?? NONE)
    if (deniesArgs(e, args)) {
      found = e;
      break;
    }
  for (const e of globbed) {
    if (found !== undefined && e.index > found.index) break;
    if (!spend(1 + (name.length >>> 8))) return undefined;
    if (e.words[0]!.test(name) && deniesArgs(e, args)) {
      found = e;
      break;
    }
  }
  return found?.text;
}

/** Does an allow entry match an invocation: the program, and its further words as the first arguments, exactly? */
function allowsArgs(e: Entry, args: readonly (string | undefined)[], name: string): boolean {
  if (meter !== undefined && meter.left < 0) return false;
  let units = 1 + (name.length >>> 8);
  let ok = e.words[0]!.test(name);
  for (let i = 1; ok && i < e.words.length; i++) {
    const a = args[i - 1];
    if (a === undefined) ok = false;
    else {
      units += 1 + (a.length >>> 8);
      ok = e.words[i]!.test(a);
    }
  }
  return spend(units) && ok;
}

/** The allow entries that may match a program: those naming it, and those whose program is a glob. */
function allowCandidates(policy: CommandPolicy, name: string): { all: readonly Entry[]; named: readonly Entry[]; globbed: readonly Entry[] } {
  const { all, byName, globbed } = entriesOf(policy).allow;
  return { all, named: byName.get(name) ?? NONE, globbed };
}

/**
 * Is an invocation allowed by `commands.allow`? An empty list allows every program. Allow is read
 * narrowly: the program exactly, and the entry's further words as the first arguments, exactly.
 */
export function allowed(policy: CommandPolicy, words: readonly (string | undefined)[]): boolean {
  if (entriesOf(policy).allow.all.length === 0) return true;
  const [program, ...args] = words;
  if (program === undefined) return false;
  const name = programName(program);
  const { named, globbed } = allowCandidates(policy, name);
  return named.some((e) => allowsArgs(e, args, name)) || globbed.some((e) => allowsArgs(e, args, name));
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
  const { named, globbed } = allowCandidates(policy, name);
  return named.some((e) => e.words.length > index && allowsArgs(e, args, name)) || globbed.some((e) => e.words.length > index && allowsArgs(e, args, name));
}
