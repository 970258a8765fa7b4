import type { Diagnostic } from "../core/diagnostic.js";
import { matchArgument, type ValueContext } from "../core/constraints.js";
import type { GuardStepFacts } from "../core/input/approval.js";
import { guardMismatch } from "./judge.js";

/**
 * One approved step as the host will call it: the host tool, and its identity arguments (literals or
 * constraints), with how many calls it covers. Compiled once when a run starts, so a call is decided
 * without reading the plan again.
 */
export interface ExpectedCall {
  /** 1-based position of the plan step it comes from (several calls may share one: an EDIT's pairs). */
  step: number;
  tool: string;
  args: Record<string, unknown>;
  /** Most calls this step covers (`repeat: N`); at least 1. */
  repeat: number;
  /** The step may be skipped (0 calls). */
  optional: boolean;
  /** The host asks the person before the call runs (`confirm: true`). */
  confirm: boolean;
  /** A Task/Agent step's own steps: the calls its subagent makes. */
  steps?: ExpectedCall[];
  /**
   * A path key whose file must not exist when the call runs (a TeDDy CREATE without Overwrite: TeDDy
   * refuses to create over a file, the host's Write would replace it).
   */
  absent?: string;
}

/** Where a run stands: the step being matched (0-based index into the expected calls) and the calls it took. */
export interface Cursor {
  index: number;
  count: number;
}

export const START: Cursor = { index: 0, count: 0 };

/** A call as the host makes it, its arguments already reduced to identity keys by the host profile. */
export interface CallInput {
  tool: string;
  args: Record<string, unknown>;
}

/** How each argument of a tool is matched (a path, a command line, plain): given by the host profile. */
export type ContextFor = (tool: string, key: string) => ValueContext;

export type Verdict =
  | { allow: true; index: number; cursor: Cursor; confirm: boolean; step: number }
  | { allow: false; step: number; diagnostic: Diagnostic };

/** Are all steps from the cursor on satisfied, so the run may end here? */
export function isDone(expected: readonly ExpectedCall[], cursor: Cursor): boolean {
  for (let i = cursor.index; i < expected.length; i++) {
    const taken = i === cursor.index ? cursor.count : 0;
    if (taken === 0 && !expected[i]!.optional) return false;
  }
  return true;
}

/** The keys in which a call differs from an expected call ([] when it matches). */
export function differingKeys(want: ExpectedCall, call: CallInput, contextFor: ContextFor): string[] {
  const keys = new Set([...Object.keys(want.args), ...Object.keys(call.args)]);
  const out: string[] = [];
  for (const k of [...keys].sort()) {
    const has = Object.hasOwn(want.args, k);
    const got = Object.hasOwn(call.args, k);
    if (has !== got || (has && !matchArgument(want.args[k], call.args[k], contextFor(call.tool, k)))) out.push(k);
  }
  return out;
}

/**
 * Whether the call is the expected one: the same tool, the same argument names, each argument matching.
 * The same answer as no differingKeys, without sorting or listing them: a call is tried against every
 * later step of its run (`later` in match), and one with 60,000 arguments against a run of 500
 * steps took 7.7 s that way.
 */
export function matchesCall(want: ExpectedCall, call: CallInput, contextFor: ContextFor, count = Object.keys(call.args).length): boolean {
  if (want.tool !== call.tool) return false;
  const keys = Object.keys(want.args);
  // Every name in both: as many names (`count`, the call's, counted once by a caller that tries many steps), and each expected one present.
  if (keys.length !== count) return false;
  for (const k of keys) if (!Object.hasOwn(call.args, k) || !matchArgument(want.args[k], call.args[k], contextFor(call.tool, k))) return false;
  return true;
}

export { clip } from "../core/canonical/clip.js";

/** An allowed call, or how it misses the approved calls (the step expected, and the facts). */
export type Matched = Extract<Verdict, { allow: true }> | { allow: false; step: number; mismatch: Extract<GuardStepFacts, { kind: "after-last" | "other-call" }> };

/**
 * Decides one call against the approved calls from `cursor`: the current step again (up to its
 * `repeat`), else the next steps in order, skipping optional ones that do not match. Steps never run
 * out of order; a refusal names the step expected and the keys that differ, expected vs actual.
 */
export function advance(expected: readonly ExpectedCall[], cursor: Cursor, call: CallInput, contextFor: ContextFor): Verdict {
  const m = match(expected, cursor, call, contextFor);
  return m.allow ? m : deny(m.step, guardMismatch(m.mismatch));
}

/** `advance`, with a refusal as its facts (for a caller that adds to them). */
export function match(expected: readonly ExpectedCall[], cursor: Cursor, call: CallInput, contextFor: ContextFor): Matched {
  const { index, count } = cursor;
  const cur = expected[index];
  // The call's argument names, counted once: the call may be tried against every later step.
  const names = Object.keys(call.args).length;
  if (cur && count > 0 && count < cur.repeat && matchesCall(cur, call, contextFor, names))
    return { allow: true, index, cursor: { index, count: count + 1 }, confirm: cur.confirm, step: cur.step };
  // The first step the call may be: the current one if it has had no call, else the one after it.
  let j = cur && count > 0 ? index + 1 : index;
  const first = j;
  for (; j < expected.length; j++) {
    const want = expected[j]!;
    if (matchesCall(want, call, contextFor, names)) return { allow: true, index: j, cursor: { index: j, count: 1 }, confirm: want.confirm, step: want.step };
    if (!want.optional) break;
  }
  const actual = { tool: call.tool, arguments: call.args };
  if (j >= expected.length) {
    const last = expected[expected.length - 1]?.step ?? 0;
    return { allow: false, step: last + 1, mismatch: { kind: "after-last", steps: last, tool: call.tool, call: actual } };
  }
  const want = expected[j]!;
  const later = expected.findIndex((s, i) => i > j && matchesCall(s, call, contextFor, names));
  const differing = want.tool === call.tool ? differingKeys(want, call, contextFor).map((key) => ({ key, expected: want.args[key], actual: call.args[key] })) : undefined;
  return {
    allow: false,
    step: want.step,
    mismatch: {
      kind: "other-call",
      step: want.step,
      expected: { tool: want.tool, arguments: want.args },
      actual,
      ...(differing ? { differing } : {}),
      ...(later >= 0 ? { later: expected[later]!.step } : {}),
      ...(j > first ? { skipped: { from: expected[first]!.step, to: expected[j - 1]!.step } } : {}),
    },
  };
}

function deny(step: number, diagnostic: Diagnostic): Verdict {
  return { allow: false, step, diagnostic: { ...diagnostic, step } };
}
