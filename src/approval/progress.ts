/**
 * A run's progress through its expected calls, including the nested steps a subagent runs: a pure state
 * machine over plain JSON (the run state file stores `Progress`; nothing here touches files or clocks).
 *
 * ## Seam: what the hook calls, and when
 *
 * The hook holds the run's `expected` calls (compiled at start) and its stored `progress` (a new run: `{cursor: START}`).
 * After each function below it stores the `progress` it returns, whatever the outcome (allowed, denied or a
 * diagnostic): the returned progress records what the host has shown so far (which agents run, whether
 * it announces Task/Agent calls), and forgetting it would let a later call through that must be denied.
 *
 * - `PreToolUse` (every tool call, the parent's and a subagent's alike):
 *   `decideProgress(expected, progress, {tool, args, agentId}, contextFor, {free, taskTools})` →
 *   `{verdict, progress, free?, parent?}`. `agentId` is the hook input's `agent_id` when present (leave it
 *   undefined when absent: never invent one). `free` true: a free tool that took no step (audit it as such,
 *   `verdict.step` is 0). `parent`: the outer step number when the call was matched against a subagent's steps.
 * - `SubagentStart`: `subagentStart(expected, progress, {agentId, agentType}, {taskTools, contextFor})` →
 *   `{progress, diagnostic?}`. The host cannot be told to stop a subagent at its start (Claude Code's
 *   SubagentStart does not block), so a diagnostic is reported (audit it, show it) and the returned progress
 *   makes every call of that subagent a denial until it stops.
 * - `SubagentStop`: `subagentStop(expected, progress, {agentId}, {taskTools})` → `{progress, diagnostic?}`. A diagnostic
 *   means the subagent stopped before its required steps ran. Claude Code lets a SubagentStop hook answer
 *   `{"decision": "block", "reason": …}` to keep the subagent running: a hook that does so must keep the
 *   previous progress (the subagent goes on); a hook that lets it stop stores the returned progress, in which
 *   the Task/Agent step stays open (see below).
 * - `progressDone(expected, progress)`: may the run be marked complete (every required step, nested ones
 *   included, has run and no subagent is running)?
 *
 * `taskTools` is the host profile's set of names for the subagent tool (default `TASK_TOOLS`: `Task`,
 * `Agent`); pass the same set to all three. `Progress` has the seam's `cursor` and `sub` plus optional
 * members (`awaiting`, `launchHook`, `stray`, `strayOverflow`, `sub.tagged`, `sub.stopped`); all are plain
 * JSON. A stored progress that does not fit the expected calls is refused: the guard-failure rule reports it.
 *
 * ## What the host tells plangate (Claude Code), and the sources
 *
 * - A subagent's tool calls reach the same PreToolUse hook, with the parent's `session_id`. Older versions
 *   send no `agent_id` on them (anthropics/claude-code issues #29068, #31939, #40140: "agent_id and
 *   agent_type ... only available in SubagentStart and SubagentStop"); newer ones add `agent_id` and
 *   `agent_type` to a call made inside a subagent and leave them out on the main thread (issue #76333 on
 *   2.1.206, a maintainer's reproduction in #86405 on 2.1.233; the Agent SDK's `BaseHookInput`: "agent_id:
 *   present only when the hook fires from within a subagent").
 * - `SubagentStart` and `SubagentStop` carry `agent_id` and `agent_type` (hooks reference; payload shown in
 *   issue #87411 on 2.1.233: no task prompt on SubagentStart). SubagentStart cannot block; SubagentStop can
 *   (`decision: "block"` keeps the subagent running).
 * - PreToolUse on the Task/Agent call itself is reported not to fire in some versions (issue #56151,
 *   letta-ai/letta-code #3150), and the tool was renamed from `Task` to `Agent` in 2.1.63 (issue #29677:
 *   hook payloads say `tool_name: "Agent"` since then).
 * - Some reports say PreToolUse did not fire for a subagent's calls at all (issues #34692, #69260,
 *   #88441; not reproduced by the maintainers on 2.1.233). A call the host never shows the hook cannot be
 *   denied by plangate: that is a host defect, out of its reach.
 *
 * ## The model
 *
 * Outside a subagent, calls follow the outer plan (`advance`). A Task/Agent step is an expected call whose
 * tool is one of `taskTools` (default `Task` and `Agent`: either name matches a step written with the
 * other); its `steps` are what its subagent may do, in order (none: only free tools).
 *
 * - Task/Agent call announced (PreToolUse fired for it): it takes the step like any call and the step is
 *   *awaiting* its subagent (`progress.awaiting`); the next SubagentStart fills it. The run also records
 *   `launchHook: true` (this host announces Task/Agent calls). While a step awaits, only the same Task/Agent
 *   call again (a retry) and free tools are allowed: no second subagent can be launched, nothing of the
 *   outer plan runs before the subagent.
 * - Not announced (the hook did not fire): a SubagentStart with nothing awaiting takes the next Task/Agent
 *   step itself, like a call would (the current step again within its `repeat`, else the next steps in
 *   order, skipping optional ones), the step's `subagent_type` compared with the start's `agent_type`.
 *   The two cases are told apart by `awaiting`, and once the run has `launchHook`, a start with nothing
 *   awaiting is refused: a Task/Agent call that was denied (or never announced) cannot start a subagent on
 *   the step anyway. Each start consumes one use of a step (its awaiting mark, or one more call of it), so
 *   no step starts two subagents beyond its `repeat`.
 * - Between start and stop, the subagent's calls follow the step's nested `steps` (`sub.cursor`). A call
 *   with an agent id is the subagent's only if the id is the running subagent's; any other id is denied.
 *   A call without one is the subagent's while it runs, unless the host has already tagged a call with the
 *   subagent's id (`sub.tagged`): then an untagged call is the parent's, and the parent may run only free
 *   tools until the subagent stops.
 * - A subagent that starts while another runs, or that matches no approved Task/Agent step, is *stray*:
 *   its calls are denied, and so is every call without an agent id, which can no longer be attributed,
 *   until it stops (more than `MAX_STRAY` at once: until the run is repaired).
 * - A stop of the running subagent with its required nested steps all done resumes the outer plan exactly
 *   after its step. A stop before then leaves the step open (`sub.stopped`): only free tools and the same
 *   Task/Agent call again are allowed, and the next subagent on that step continues the nested steps where
 *   the last one left. A stop of an unknown agent changes nothing and is reported.
 */
import type { Diagnostic } from "../core/diagnostic.js";
import { matchArgument } from "../core/constraints.js";
import { advance, clip, match, matchesCall, isDone, type CallInput, type ContextFor, type Cursor, type ExpectedCall, type Verdict } from "./match.js";
import type { GuardStepFacts } from "../core/input/approval.js";
import { guardFailure, guardMismatch } from "./judge.js";

/** The subagent running (or stopped early) on a Task/Agent step. */
export interface SubProgress {
  /** The host's `agent_id` from SubagentStart (null: the start carried none). */
  agentId: string | null;
  agentType?: string;
  /** Index into the expected calls of its Task/Agent step. */
  parent: number;
  /** Where it stands in that step's nested steps. */
  cursor: Cursor;
  /** A call carrying this agent id was seen: the host tags subagent calls, so an untagged call is the parent's. */
  tagged?: true;
  /** It stopped before its required nested steps ran: the step stays open for another subagent. */
  stopped?: true;
}

/** A subagent whose calls cannot be attributed to an approved step: all of them are denied until it stops. */
export interface StrayAgent {
  agentId: string | null;
  agentType?: string;
}

export interface Progress {
  /** Where the outer plan stands. */
  cursor: Cursor;
  sub?: SubProgress;
  /** Index of a Task/Agent step whose call the host announced and whose subagent has not started yet. */
  awaiting?: number;
  /** The host sent a PreToolUse for a Task/Agent call in this run: every subagent start must follow an allowed one. */
  launchHook?: true;
  stray?: StrayAgent[];
  /** More stray subagents than `MAX_STRAY` started: untagged calls stay denied for the rest of the run. */
  strayOverflow?: true;
}

export interface ProgressOptions {
  /** Tools that need no step (still audited and scope-checked by the hook). Task/Agent tools are never free. */
  free?: (tool: string) => boolean;
  /** The host's names for the subagent tool (Claude Code: `Task` before 2.1.63, `Agent` since). */
  taskTools?: ReadonlySet<string>;
}

export interface ProgressDecision {
  verdict: Verdict;
  progress: Progress;
  /** A free tool: allowed without taking a step. */
  free?: true;
  /** The outer step number, when the call was matched against a subagent's nested steps. */
  parent?: number;
}

export interface SubagentEventResult {
  progress: Progress;
  diagnostic?: Diagnostic;
}

export const TASK_TOOLS: ReadonlySet<string> = new Set(["Task", "Agent"]);
export const MAX_STRAY = 64;
const NO_FREE = (): boolean => false;

/** May the run end here: no subagent running or awaited, every required step (nested ones included) done. */
export function progressDone(expected: readonly ExpectedCall[], progress: Progress): boolean {
  if (progress.sub || progress.awaiting !== undefined || progress.stray?.length || progress.strayOverflow) return false;
  return isDone(expected, progress.cursor);
}

/** Decides one tool call (PreToolUse) against the outer plan or the running subagent's nested steps. */
export function decideProgress(
  expected: readonly ExpectedCall[],
  progress: Progress,
  call: CallInput & { agentId?: string },
  contextFor: ContextFor,
  options: ProgressOptions = {},
): ProgressDecision {
  const tasks = options.taskTools ?? TASK_TOOLS;
  const freeFn = options.free ?? NO_FREE;
  const isTask = tasks.has(call.tool);
  const isFree = !isTask && freeFn(call.tool);
  const damage = damaged(expected, progress, tasks);
  if (damage) return { verdict: refuse(0, guardFailure({ kind: "progress-damaged", damage, event: { call: call.tool } })), progress };
  let p = progress;
  if (isTask && !p.launchHook) p = { ...p, launchHook: true };
  const target = { tool: call.tool, args: call.args };
  const agentId = call.agentId;

  if (agentId !== undefined) {
    if (p.stray?.some((s) => s.agentId === agentId))
      return { verdict: refuse(0, guardMismatch({ kind: "stray-call", tool: call.tool, agentId })), progress: p };
    const sub = p.sub;
    if (!sub || sub.stopped || sub.agentId !== agentId) {
      const running = sub && !sub.stopped ? { running: { agentId: sub.agentId, step: expected[sub.parent]!.step } } : {};
      return { verdict: refuse(0, guardMismatch({ kind: "other-agent-call", tool: call.tool, agentId, ...running })), progress: p };
    }
    if (!sub.tagged) p = { ...p, sub: { ...sub, tagged: true } };
    return nested(expected, p, p.sub!, target, contextFor, isFree);
  }

  if (p.stray?.length || p.strayOverflow) {
    const strays = p.strayOverflow ? "overflow" : p.stray!.map((s) => s.agentId);
    return { verdict: refuse(0, guardMismatch({ kind: "untagged-call", tool: call.tool, strays })), progress: p };
  }

  const sub = p.sub;
  if (sub && !sub.stopped) {
    if (!sub.tagged) return nested(expected, p, sub, target, contextFor, isFree);
    // The host tags the subagent's calls, so this untagged one is the parent's.
    if (isFree) return freeCall(p);
    const parent = expected[sub.parent]!;
    return { verdict: refuse(parent.step, guardMismatch({ kind: "subagent-running", tool: call.tool, step: parent.step })), progress: p };
  }

  const open = sub?.stopped ? sub.parent : p.awaiting;
  if (open !== undefined) {
    const want = expected[open]!;
    if (isTask && sameCall(want, target, contextFor, tasks))
      return { verdict: { allow: true, index: open, cursor: p.cursor, confirm: want.confirm, step: want.step }, progress: { ...p, awaiting: open } };
    if (isFree) return freeCall(p);
    const missed = sub?.stopped ? { missing: missing(want.steps ?? [], sub.cursor) } : {};
    return { verdict: refuse(want.step, guardMismatch({ kind: "step-open", tool: call.tool, step: want.step, stepTool: want.tool, ...missed })), progress: p };
  }

  const v = advanceAny(expected, p.cursor, target, contextFor, tasks);
  if (v.allow) {
    const next: Progress = { ...p, cursor: v.cursor };
    if (tasks.has(expected[v.index]!.tool)) next.awaiting = v.index;
    return { verdict: v, progress: next };
  }
  if (isFree) return freeCall(p);
  return { verdict: v, progress: p };
}

/** SubagentStart: attributes the new subagent to the awaited (or next) Task/Agent step, or records it as stray. */
export function subagentStart(
  expected: readonly ExpectedCall[],
  progress: Progress,
  agent: { agentId: string | null; agentType?: string },
  options: { taskTools?: ReadonlySet<string>; contextFor?: ContextFor } = {},
): SubagentEventResult {
  const tasks = options.taskTools ?? TASK_TOOLS;
  const contextFor: ContextFor = options.contextFor ?? (() => ({}));
  const damage = damaged(expected, progress, tasks);
  const name = agentName(agent);
  if (damage) return stray(progress, agent, guardFailure({ kind: "progress-damaged", damage, event: { start: name } }));
  const sub = progress.sub;
  if (sub && !sub.stopped) {
    const step = expected[sub.parent]!.step;
    if (agent.agentId !== null && agent.agentId === sub.agentId)
      return { progress, diagnostic: guardMismatch({ kind: "started-again", agent, step }) };
    return stray(progress, agent, guardMismatch({ kind: "started-while-running", agent, step }));
  }
  if (progress.stray?.some((s) => s.agentId !== null && s.agentId === agent.agentId))
    return { progress, diagnostic: guardMismatch({ kind: "started-again", agent }) };

  const open = sub?.stopped ? sub.parent : progress.awaiting;
  if (sub?.stopped || progress.awaiting !== undefined) {
    const want = expected[open!]!;
    if (sub?.stopped && progress.awaiting === undefined && progress.launchHook)
      return stray(progress, agent, guardMismatch({ kind: "started-step-open", agent, step: want.step, stepTool: want.tool }));
    if (!typeOk(want, agent.agentType, contextFor))
      return stray(progress, agent, guardMismatch({ kind: "agent-type", agent, step: want.step, approved: want.args.subagent_type }));
    const { awaiting: _a, ...rest } = progress;
    const cursor = sub?.stopped ? sub.cursor : { index: 0, count: 0 };
    return { progress: { ...rest, sub: started(agent, open!, cursor) } };
  }

  if (progress.launchHook) {
    const at = expected[progress.cursor.index];
    return stray(progress, agent, guardMismatch({ kind: "started-unlaunched", agent, ...(at ? { at: at.step } : {}) }));
  }
  // The host did not announce the Task/Agent call: the start takes the next Task/Agent step itself.
  const taken = nextTaskStep(expected, progress.cursor, agent.agentType, contextFor, tasks);
  if ("why" in taken) return stray(progress, agent, guardMismatch({ kind: "no-task-step", agent, why: taken.why }));
  return { progress: { ...progress, cursor: taken.cursor, sub: started(agent, taken.index, { index: 0, count: 0 }) } };
}

/** SubagentStop: ends the running subagent (the outer plan resumes after its step) or a stray one. */
export function subagentStop(
  expected: readonly ExpectedCall[],
  progress: Progress,
  agent: { agentId: string | null },
  options: { taskTools?: ReadonlySet<string> } = {},
): SubagentEventResult {
  const name = agentName(agent);
  const damage = damaged(expected, progress, options.taskTools ?? TASK_TOOLS);
  if (damage) return { progress, diagnostic: guardFailure({ kind: "progress-damaged", damage, event: { stop: name } }) };
  const strays = progress.stray ?? [];
  const k = strays.findIndex((s) => s.agentId === agent.agentId);
  if (k >= 0) {
    const left = [...strays.slice(0, k), ...strays.slice(k + 1)];
    const { stray: _s, ...rest } = progress;
    return { progress: left.length > 0 ? { ...rest, stray: left } : rest };
  }
  const sub = progress.sub;
  if (!sub || sub.stopped || sub.agentId !== agent.agentId) {
    const running = sub && !sub.stopped ? { running: { agentId: sub.agentId, ...(sub.agentType !== undefined ? { agentType: sub.agentType } : {}) } } : {};
    return { progress, diagnostic: guardMismatch({ kind: "stop-not-running", agent, ...running }) };
  }
  const parent = expected[sub.parent]!;
  const steps = parent.steps ?? [];
  if (isDone(steps, sub.cursor)) {
    const { sub: _s, ...rest } = progress;
    return { progress: rest };
  }
  return {
    progress: { ...progress, sub: { ...sub, stopped: true } },
    diagnostic: guardMismatch({ kind: "stopped-early", step: parent.step, stepTool: parent.tool, missing: missing(steps, sub.cursor) }),
  };
}

// ---------------------------------------------------------------------------------------------------------

/** Matches a call against the running subagent's nested steps. */
function nested(expected: readonly ExpectedCall[], p: Progress, sub: SubProgress, call: CallInput, contextFor: ContextFor, isFree: boolean): ProgressDecision {
  const parent = expected[sub.parent]!;
  const steps = parent.steps ?? [];
  if (steps.length === 0) {
    if (isFree) return { ...freeCall(p), parent: parent.step };
    return { verdict: refuse(parent.step, guardMismatch({ kind: "no-nested-steps", tool: call.tool, step: parent.step })), progress: p, parent: parent.step };
  }
  const v = match(steps, sub.cursor, call, contextFor);
  if (v.allow) return { verdict: v, progress: { ...p, sub: { ...sub, cursor: v.cursor } }, parent: parent.step };
  if (isFree) return { ...freeCall(p), parent: parent.step };
  return { verdict: refuse(v.step, guardMismatch({ ...v.mismatch, subagentOf: parent.step })), progress: p, parent: parent.step };
}

/** `advance`, where a Task/Agent call also matches a step written with another of the host's names for the tool. */
function advanceAny(expected: readonly ExpectedCall[], cursor: Cursor, call: CallInput, contextFor: ContextFor, tasks: ReadonlySet<string>): Verdict {
  const v = advance(expected, cursor, call, contextFor);
  if (v.allow || !tasks.has(call.tool)) return v;
  for (const alt of tasks) {
    if (alt === call.tool) continue;
    const w = advance(expected, cursor, { tool: alt, args: call.args }, contextFor);
    if (w.allow) return w;
  }
  return v;
}

function sameCall(want: ExpectedCall, call: CallInput, contextFor: ContextFor, tasks: ReadonlySet<string>): boolean {
  const tool = want.tool === call.tool || (tasks.has(want.tool) && tasks.has(call.tool));
  return tool && matchesCall(want, { tool: want.tool, args: call.args }, contextFor);
}

/** Is the agent type the one the step approves (any, when the step names none)? */
function typeOk(want: ExpectedCall, agentType: string | undefined, contextFor: ContextFor): boolean {
  if (!Object.hasOwn(want.args, "subagent_type")) return true;
  if (agentType === undefined) return false;
  return matchArgument(want.args.subagent_type, agentType, contextFor(want.tool, "subagent_type"));
}

/** The Task/Agent step a start takes when its call was not announced, as `advance` would take a call. */
function nextTaskStep(
  expected: readonly ExpectedCall[],
  cursor: Cursor,
  agentType: string | undefined,
  contextFor: ContextFor,
  tasks: ReadonlySet<string>,
): { index: number; cursor: Cursor } | { why: Extract<GuardStepFacts, { kind: "no-task-step" }>["why"] } {
  const fits = (s: ExpectedCall): boolean => tasks.has(s.tool) && typeOk(s, agentType, contextFor);
  const { index, count } = cursor;
  const cur = expected[index];
  if (cur && count > 0 && count < cur.repeat && fits(cur)) return { index, cursor: { index, count: count + 1 } };
  for (let j = cur && count > 0 ? index + 1 : index; j < expected.length; j++) {
    const s = expected[j]!;
    if (fits(s)) return { index: j, cursor: { index: j, count: 1 } };
    if (!s.optional) return { why: tasks.has(s.tool) ? { kind: "type", step: s.step, approved: s.args.subagent_type } : { kind: "other-step", step: s.step, tool: s.tool } };
  }
  return { why: { kind: "done" } };
}

function started(agent: { agentId: string | null; agentType?: string }, parent: number, cursor: Cursor): SubProgress {
  const s: SubProgress = { agentId: agent.agentId, parent, cursor };
  if (agent.agentType !== undefined) s.agentType = agent.agentType;
  return s;
}

function stray(progress: Progress, agent: { agentId: string | null; agentType?: string }, diagnostic: Diagnostic): SubagentEventResult {
  const list = progress.stray ?? [];
  if (list.length >= MAX_STRAY) return { progress: { ...progress, strayOverflow: true }, diagnostic };
  const entry: StrayAgent = { agentId: agent.agentId };
  if (agent.agentType !== undefined) entry.agentType = agent.agentType;
  return { progress: { ...progress, stray: [...list, entry] }, diagnostic };
}

function freeCall(p: Progress): ProgressDecision {
  return { verdict: { allow: true, index: p.cursor.index, cursor: p.cursor, confirm: false, step: 0 }, progress: p, free: true };
}

function refuse(step: number, diagnostic: Diagnostic): Verdict {
  return { allow: false, step, diagnostic: { ...diagnostic, step } };
}

function agentName(agent: { agentId: string | null; agentType?: string }): string {
  const id = agent.agentId === null ? "(no agent id)" : clip(agent.agentId);
  return agent.agentType === undefined ? id : `${id} (${clip(agent.agentType)})`;
}

/** The nested step numbers still required from `cursor`. */
function missing(steps: readonly ExpectedCall[], cursor: Cursor): number[] {
  const out: number[] = [];
  for (let i = cursor.index; i < steps.length; i++) {
    const taken = i === cursor.index ? cursor.count : 0;
    if (taken === 0 && !steps[i]!.optional) out.push(steps[i]!.step);
  }
  return out;
}

function cursorOk(c: unknown, n: number): boolean {
  if (typeof c !== "object" || c === null) return false;
  const { index, count } = c as Cursor;
  return Number.isSafeInteger(index) && Number.isSafeInteger(count) && index >= 0 && count >= 0 && index <= n;
}

/** Why a stored progress cannot be trusted against these expected calls (undefined: it can). Bounded time (at most `MAX_STRAY` entries). */
function damaged(expected: readonly ExpectedCall[], p: Progress, tasks: ReadonlySet<string>): string | undefined {
  if (typeof p !== "object" || p === null || !cursorOk(p.cursor, expected.length)) return "bad cursor";
  const task = (i: unknown): ExpectedCall | undefined => {
    if (!Number.isSafeInteger(i) || (i as number) < 0 || (i as number) >= expected.length) return undefined;
    const s = expected[i as number]!;
    return tasks.has(s.tool) ? s : undefined;
  };
  if (p.awaiting !== undefined && !task(p.awaiting)) return "awaiting a step that is not a Task/Agent step";
  if (p.stray !== undefined && (!Array.isArray(p.stray) || p.stray.length > MAX_STRAY || !p.stray.every((s) => typeof s === "object" && s !== null && (s.agentId === null || typeof s.agentId === "string"))))
    return "bad stray list";
  const sub = p.sub;
  if (sub !== undefined) {
    const parent = task(sub?.parent);
    if (!parent) return "subagent on a step that is not a Task/Agent step";
    if (!cursorOk(sub.cursor, (parent.steps ?? []).length)) return "bad subagent cursor";
    if (sub.agentId !== null && typeof sub.agentId !== "string") return "bad agent id";
    if (p.cursor.index !== sub.parent) return "subagent not on the current step";
  }
  if (p.awaiting !== undefined && p.cursor.index !== p.awaiting) return "awaiting a step that is not current";
  return undefined;
}
