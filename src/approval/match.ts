import type { Diagnostic } from "../core/diagnostic.js";
import { canonicalJson } from "../core/canonical/jcs.js";
import { matchArgument, type ValueContext } from "../core/constraints.js";
import { approvalDiagnostic as fail } from "./record.js";

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

function matches(want: ExpectedCall, call: CallInput, contextFor: ContextFor): boolean {
  return want.tool === call.tool && differingKeys(want, call, contextFor).length === 0;
}

const CLIP = 120;

/** A value for a message: canonical JSON, clipped. */
export function clip(v: unknown): string {
  let s: string;
  try {
    s = v === undefined ? "(absent)" : canonicalJson(v);
  } catch {
    s = "(unserialisable)";
  }
  return s.length > CLIP ? `${s.slice(0, CLIP - 1)}…` : s;
}

/**
 * Decides one call against the approved calls from `cursor`: the current step again (up to its
 * `repeat`), else the next steps in order, skipping optional ones that do not match. Steps never run
 * out of order; a refusal names the step expected and the keys that differ, expected vs actual.
 */
export function advance(expected: readonly ExpectedCall[], cursor: Cursor, call: CallInput, contextFor: ContextFor): Verdict {
  const { index, count } = cursor;
  const cur = expected[index];
  if (cur && count > 0 && count < cur.repeat && matches(cur, call, contextFor))
    return { allow: true, index, cursor: { index, count: count + 1 }, confirm: cur.confirm, step: cur.step };
  // The first step the call may be: the current one if it has had no call, else the one after it.
  let j = cur && count > 0 ? index + 1 : index;
  const first = j;
  for (; j < expected.length; j++) {
    const want = expected[j]!;
    if (matches(want, call, contextFor)) return { allow: true, index: j, cursor: { index: j, count: 1 }, confirm: want.confirm, step: want.step };
    if (!want.optional) break;
  }
  if (j >= expected.length) {
    const last = expected[expected.length - 1];
    const n = (last?.step ?? 0) + 1;
    return deny(n, fail("guard-step-mismatch", `All ${last?.step ?? 0} approved steps have run; the call to "${call.tool}" is not in the plan.`, "approve a new plan for further work", { actual: { tool: call.tool, arguments: call.args } }));
  }
  const want = expected[j]!;
  const later = expected.findIndex((s, i) => i > j && matches(s, call, contextFor));
  const hint = later >= 0 ? `that call is step ${expected[later]!.step}: steps run only in the approved order` : "run exactly the approved step, or approve a new plan";
  const skipped = j > first ? ` (optional steps ${expected[first]!.step}–${expected[j - 1]!.step} did not match either)` : "";
  if (want.tool !== call.tool)
    return deny(want.step, fail("guard-step-mismatch", `Step ${want.step}: the call is to "${call.tool}", but the approved step ${want.step} is "${want.tool}"${skipped}.`, hint, { expected: { tool: want.tool, arguments: want.args }, actual: { tool: call.tool, arguments: call.args } }));
  const keys = differingKeys(want, call, contextFor);
  const detail = keys.map((k) => `${k}: expected ${clip(want.args[k])}, got ${clip(call.args[k])}`).join("; ");
  return deny(
    want.step,
    fail("guard-step-mismatch", `Step ${want.step}: the "${call.tool}" call differs from the approved one in ${keys.map((k) => `"${k}"`).join(", ")} (${detail})${skipped}.`, hint, {
      expected: { tool: want.tool, arguments: want.args },
      actual: { tool: call.tool, arguments: call.args },
    }),
  );
}

function deny(step: number, diagnostic: Diagnostic): Verdict {
  return { allow: false, step, diagnostic: { ...diagnostic, step } };
}
