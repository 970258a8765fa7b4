import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { differingKeys, isDone, START, type ContextFor, type Cursor, type ExpectedCall } from "./match.js";
import { decideProgress, MAX_STRAY, progressDone, subagentStart, subagentStop, TASK_TOOLS, type Progress, type ProgressDecision, type SubagentEventResult } from "./progress.js";

const ctx: ContextFor = () => ({});

function step(n: number, tool: string, args: Record<string, unknown>, extra: Partial<ExpectedCall> = {}): ExpectedCall {
  return { step: n, tool, args, repeat: 1, optional: false, confirm: false, ...extra };
}

/** Read a, then a subagent (Bash ls, Write x), then Bash npm test. */
const PLAN: ExpectedCall[] = [
  step(1, "Read", { file_path: "a" }),
  step(2, "Agent", { subagent_type: "general-purpose", prompt: "list and write" }, { steps: [step(1, "Bash", { command: "ls" }), step(2, "Write", { file_path: "x", content: "y" })] }),
  step(3, "Bash", { command: "npm test" }),
];
const AGENT_CALL = { tool: "Agent", args: { subagent_type: "general-purpose", prompt: "list and write" } };
const FREE = { free: (t: string) => t === "TodoWrite" || t === "Glob" };

type Event =
  | { call: string; args: Record<string, unknown>; agentId?: string }
  | { start: string | null; type?: string }
  | { stop: string | null };

interface Outcome {
  allow?: boolean;
  free?: boolean;
  diagnostic?: string;
  rule?: string;
  step?: number;
}

/** Runs events through the machine, storing the progress after each as the hook does (JSON round trip included). */
function run(plan: ExpectedCall[], events: Event[], start: Progress = { cursor: START }): { outcomes: Outcome[]; progress: Progress } {
  let progress = start;
  const outcomes: Outcome[] = [];
  for (const e of events) {
    if ("call" in e) {
      const call = e.agentId === undefined ? { tool: e.call, args: e.args } : { tool: e.call, args: e.args, agentId: e.agentId };
      const r: ProgressDecision = decideProgress(plan, progress, call, ctx, FREE);
      progress = r.progress;
      outcomes.push(r.verdict.allow ? { allow: true, ...(r.free ? { free: true } : {}), step: r.verdict.step } : { allow: false, rule: r.verdict.diagnostic.rule, diagnostic: r.verdict.diagnostic.message, step: r.verdict.step });
    } else {
      const r: SubagentEventResult = "start" in e ? subagentStart(plan, progress, { agentId: e.start, ...(e.type === undefined ? {} : { agentType: e.type }) }, { contextFor: ctx }) : subagentStop(plan, progress, { agentId: e.stop });
      progress = r.progress;
      outcomes.push(r.diagnostic ? { diagnostic: r.diagnostic.message, rule: r.diagnostic.rule } : {});
    }
    progress = JSON.parse(JSON.stringify(progress)) as Progress;
  }
  return { outcomes, progress };
}

describe("subagents: table", () => {
  it("the host announces the Agent call: its PreToolUse takes the step, SubagentStart fills it", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { call: "Agent", args: AGENT_CALL.args },
      { start: "A", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" }, agentId: "A" },
      { call: "Write", args: { file_path: "x", content: "y" }, agentId: "A" },
      { stop: "A" },
      { call: "Bash", args: { command: "npm test" } },
    ]);
    expect(outcomes.map((o) => o.allow ?? o.diagnostic ?? "ok")).toEqual([true, true, "ok", true, true, "ok", true]);
    expect(outcomes.map((o) => o.step)).toEqual([1, 2, undefined, 1, 2, undefined, 3]);
    expect(progressDone(PLAN, progress)).toBe(true);
    expect(progress).toEqual({ cursor: { index: 2, count: 1 }, launchHook: true });
  });

  it("the host does not announce it: SubagentStart takes the next Task/Agent step itself; untagged calls are the subagent's", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { start: "A", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
      { call: "Write", args: { file_path: "x", content: "y" } },
      { stop: "A" },
      { call: "Bash", args: { command: "npm test" } },
    ]);
    expect(outcomes.every((o) => o.allow !== false && o.diagnostic === undefined)).toBe(true);
    expect(progressDone(PLAN, progress)).toBe(true);
  });

  it("accepts the Task name for a step written as Agent, and the reverse", () => {
    expect(run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { call: "Task", args: AGENT_CALL.args }]).outcomes[1]).toMatchObject({ allow: true, step: 2 });
    const taskPlan = PLAN.map((s) => (s.tool === "Agent" ? { ...s, tool: "Task" } : s));
    expect(run(taskPlan, [{ call: "Read", args: { file_path: "a" } }, { call: "Agent", args: AGENT_CALL.args }]).outcomes[1]).toMatchObject({ allow: true, step: 2 });
    // A host profile that knows only one name does not accept the other.
    const only = decideProgress(PLAN, { cursor: { index: 1, count: 0 } }, { tool: "Task", args: AGENT_CALL.args }, ctx, { taskTools: new Set(["Agent"]) });
    expect(only.verdict.allow).toBe(false);
    expect(TASK_TOOLS.has("Task") && TASK_TOOLS.has("Agent")).toBe(true);
  });

  it("while an announced subagent has not started: only the same call again and free tools", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { call: "Agent", args: AGENT_CALL.args },
      { call: "Bash", args: { command: "npm test" } },
      { call: "Agent", args: { ...AGENT_CALL.args, prompt: "other" } },
      { call: "TodoWrite", args: {} },
      { call: "Agent", args: AGENT_CALL.args },
    ]);
    expect(outcomes[2]).toMatchObject({ allow: false, rule: "guard-step-mismatch", step: 2 });
    expect(outcomes[2]!.diagnostic).toContain("has not started yet");
    expect(outcomes[3]).toMatchObject({ allow: false, step: 2 });
    expect(outcomes[4]).toMatchObject({ allow: true, free: true, step: 0 });
    expect(outcomes[5]).toMatchObject({ allow: true, step: 2 });
    expect(progress.cursor).toEqual({ index: 1, count: 1 });
    expect(progress.awaiting).toBe(1);
    expect(progressDone(PLAN, progress)).toBe(false);
  });

  it("a second subagent while one runs: its calls and every untagged call are denied until it stops", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { start: "A", type: "general-purpose" },
      { start: "B", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
      { call: "Bash", args: { command: "ls" }, agentId: "B" },
      { call: "TodoWrite", args: {} },
      { call: "Bash", args: { command: "ls" }, agentId: "A" },
      { stop: "B" },
      { call: "Write", args: { file_path: "x", content: "y" } },
      { stop: "A" },
    ]);
    expect(outcomes[2]!.diagnostic).toContain("started while the subagent of step 2 runs");
    expect(outcomes[3]).toMatchObject({ allow: false });
    expect(outcomes[3]!.diagnostic).toContain("cannot be told which agent made it");
    expect(outcomes[4]).toMatchObject({ allow: false });
    expect(outcomes[4]!.diagnostic).toContain("started without an approved Task/Agent step");
    expect(outcomes[5]).toMatchObject({ allow: false });
    expect(outcomes[6]).toMatchObject({ allow: true, step: 1 });
    expect(outcomes[7]).toEqual({});
    // A was tagged by its call with its id, so the untagged Write is the parent's: denied.
    expect(outcomes[8]).toMatchObject({ allow: false });
    expect(outcomes[8]!.diagnostic).toContain("still running");
    expect(outcomes[9]!.diagnostic).toContain("stopped before its steps 2 ran");
    expect(progress.sub).toMatchObject({ stopped: true, cursor: { index: 0, count: 1 } });
  });

  it("a subagent that matches no approved Task/Agent step is stray until it stops; the plan then goes on", () => {
    const { outcomes, progress } = run(PLAN, [
      { start: "A", type: "general-purpose" },
      { call: "Read", args: { file_path: "a" } },
      { stop: "A" },
      { call: "Read", args: { file_path: "a" } },
    ]);
    expect(outcomes[0]!.diagnostic).toContain("matches no approved Task/Agent step: the next approved step is 1");
    expect(outcomes[1]).toMatchObject({ allow: false });
    expect(outcomes[2]).toEqual({});
    expect(outcomes[3]).toMatchObject({ allow: true, step: 1 });
    expect(progress.stray).toBeUndefined();
  });

  it("once the host announced a Task/Agent call, a start with nothing awaited is stray (a denied call cannot start one)", () => {
    const { outcomes } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { call: "Agent", args: { ...AGENT_CALL.args, prompt: "rm -rf /" } },
      { start: "A", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
    ]);
    expect(outcomes[1]).toMatchObject({ allow: false, step: 2 });
    expect(outcomes[2]!.diagnostic).toContain("no Task/Agent call was allowed to start it");
    expect(outcomes[3]).toMatchObject({ allow: false });
  });

  it("a stop before the nested steps ran keeps the step open; the same call again lets a new subagent finish them", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { call: "Agent", args: AGENT_CALL.args },
      { start: "A", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
      { stop: "A" },
      { call: "Bash", args: { command: "npm test" } },
      { call: "Glob", args: { pattern: "*" } },
      { start: "B", type: "general-purpose" },
      { stop: "B" },
      { call: "Agent", args: AGENT_CALL.args },
      { start: "C", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
      { call: "Write", args: { file_path: "x", content: "y" } },
      { stop: "C" },
      { call: "Bash", args: { command: "npm test" } },
    ]);
    expect(outcomes[4]!.diagnostic).toMatch(/stopped before its steps 2 ran: the plan cannot go on past step 2/);
    expect(outcomes[5]).toMatchObject({ allow: false, step: 2 });
    expect(outcomes[5]!.diagnostic).toContain("stopped before its steps 2 ran");
    expect(outcomes[6]).toMatchObject({ allow: true, free: true });
    expect(outcomes[7]!.diagnostic).toContain("no \"Agent\" call was allowed to start it");
    expect(outcomes[8]).toEqual({});
    expect(outcomes[9]).toMatchObject({ allow: true, step: 2 });
    expect(outcomes[10]).toEqual({});
    // C continues where A left: Bash ls was taken once (repeat 1), so a second one is refused.
    expect(outcomes[11]).toMatchObject({ allow: false });
    expect(outcomes[12]).toMatchObject({ allow: true, step: 2 });
    expect(outcomes[13]).toEqual({});
    expect(outcomes[14]).toMatchObject({ allow: true, step: 3 });
    expect(progressDone(PLAN, progress)).toBe(true);
  });

  it("without an announcing host, a subagent stopped early is resumed by the next start on the same step", () => {
    const { outcomes, progress } = run(PLAN, [
      { call: "Read", args: { file_path: "a" } },
      { start: "A", type: "general-purpose" },
      { stop: "A" },
      { start: "B", type: "general-purpose" },
      { call: "Bash", args: { command: "ls" } },
      { call: "Write", args: { file_path: "x", content: "y" } },
      { stop: "B" },
    ]);
    expect(outcomes[2]!.diagnostic).toContain("stopped before its steps 1, 2 ran");
    expect(outcomes.slice(3).every((o) => o.diagnostic === undefined && o.allow !== false)).toBe(true);
    expect(progress).toEqual({ cursor: { index: 1, count: 1 } });
  });

  it("stops and calls of unknown agents", () => {
    const base = run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { start: "A", type: "general-purpose" }]).progress;
    const stop = subagentStop(PLAN, base, { agentId: "Z" });
    expect(stop.diagnostic?.message).toContain('Subagent "Z" stopped, but the running subagent is "A"');
    expect(stop.progress).toBe(base);
    expect(subagentStop(PLAN, { cursor: START }, { agentId: "A" }).diagnostic?.message).toContain("no subagent is running");
    const call = decideProgress(PLAN, base, { tool: "Bash", args: { command: "ls" }, agentId: "Z" }, ctx);
    expect(call.verdict).toMatchObject({ allow: false });
    expect(!call.verdict.allow && call.verdict.diagnostic.message).toContain('comes from agent "Z", but the running subagent is "A" (step 2)');
    const none = decideProgress(PLAN, { cursor: START }, { tool: "Read", args: { file_path: "a" }, agentId: "Z" }, ctx);
    expect(!none.verdict.allow && none.verdict.diagnostic.message).toContain("no approved subagent is running");
  });

  it("a duplicate start of the running subagent keeps its place", () => {
    const base = run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { start: "A", type: "general-purpose" }]).progress;
    const again = subagentStart(PLAN, base, { agentId: "A", agentType: "general-purpose" });
    expect(again.progress).toBe(base);
    expect(again.diagnostic?.message).toContain("started again");
  });

  it("a subagent of another type than the step approves is stray", () => {
    const announced = run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { call: "Agent", args: AGENT_CALL.args }]).progress;
    const r = subagentStart(PLAN, announced, { agentId: "A", agentType: "Explore" });
    expect(r.diagnostic?.message).toContain('is of type "Explore", but step 2 approves "general-purpose"');
    expect(r.progress.stray).toEqual([{ agentId: "A", agentType: "Explore" }]);
    expect(r.progress.awaiting).toBe(1);
    const silent = subagentStart(PLAN, { cursor: { index: 1, count: 0 } }, { agentId: "A", agentType: "Explore" });
    expect(silent.diagnostic?.message).toContain('step 2 approves a subagent of type "general-purpose", not "Explore"');
    const untyped = subagentStart(PLAN, { cursor: { index: 1, count: 0 } }, { agentId: "A" });
    expect(untyped.diagnostic).toBeDefined();
  });

  it("a Task/Agent step without nested steps allows its subagent only free tools", () => {
    const plan = [step(1, "Agent", { prompt: "look" })];
    const { outcomes, progress } = run(plan, [
      { start: "A", type: "Explore" },
      { call: "Glob", args: { pattern: "*" } },
      { call: "Bash", args: { command: "ls" } },
      { stop: "A" },
    ]);
    expect(outcomes[1]).toMatchObject({ allow: true, free: true });
    expect(outcomes[2]).toMatchObject({ allow: false, step: 1 });
    expect(outcomes[2]!.diagnostic).toContain("approves no calls but free tools");
    expect(outcomes[3]).toEqual({});
    expect(progressDone(plan, progress)).toBe(true);
  });

  it("a refused nested call says which subagent and which step differ", () => {
    const base = run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { start: "A", type: "general-purpose" }]).progress;
    const r = decideProgress(PLAN, base, { tool: "Bash", args: { command: "rm -rf /" } }, ctx);
    expect(r.parent).toBe(2);
    expect(r.verdict.allow).toBe(false);
    if (!r.verdict.allow) {
      expect(r.verdict.diagnostic.message).toMatch(/^In the subagent of step 2: Step 1: the "Bash" call differs from the approved one in "command"/);
      expect(r.verdict.diagnostic.rule).toBe("guard-step-mismatch");
    }
    expect(r.progress).toBe(base);
  });

  it("a Task/Agent step with repeat takes one subagent per use, never more", () => {
    const plan = [step(1, "Task", { prompt: "p" }, { repeat: 2, steps: [step(1, "Bash", { command: "ls" }, { optional: true })] })];
    const { outcomes } = run(plan, [{ start: "A" }, { stop: "A" }, { start: "B" }, { stop: "B" }, { start: "C" }, { stop: "C" }]);
    expect(outcomes.map((o) => o.diagnostic === undefined)).toEqual([true, true, true, true, false, true]);
    expect(outcomes[4]!.diagnostic).toContain("all approved steps have run");
  });

  it("free tools never include the subagent tool itself", () => {
    const r = decideProgress(PLAN, { cursor: START }, AGENT_CALL, ctx, { free: () => true });
    expect(r.verdict.allow).toBe(false);
    expect(r.progress.launchHook).toBe(true);
  });

  it("more stray subagents than the limit keep untagged calls denied for good", () => {
    let p: Progress = { cursor: START };
    for (let i = 0; i <= MAX_STRAY; i++) p = subagentStart(PLAN, p, { agentId: `s${i}` }).progress;
    expect(p.stray).toHaveLength(MAX_STRAY);
    expect(p.strayOverflow).toBe(true);
    for (let i = 0; i < MAX_STRAY; i++) p = subagentStop(PLAN, p, { agentId: `s${i}` }).progress;
    const r = decideProgress(PLAN, p, { tool: "Read", args: { file_path: "a" } }, ctx);
    expect(r.verdict.allow).toBe(false);
    expect(progressDone(PLAN, p)).toBe(false);
  });

  it.each<[string, Progress]>([
    ["a cursor past the plan", { cursor: { index: 9, count: 0 } }],
    ["a negative count", { cursor: { index: 0, count: -1 } }],
    ["a fractional index", { cursor: { index: 0.5, count: 0 } }],
    ["a subagent on a Read step", { cursor: START, sub: { agentId: "A", parent: 0, cursor: START } }],
    ["a subagent off the current step", { cursor: START, sub: { agentId: "A", parent: 1, cursor: START } }],
    ["a subagent cursor past its steps", { cursor: { index: 1, count: 1 }, sub: { agentId: "A", parent: 1, cursor: { index: 5, count: 0 } } }],
    ["awaiting a Read step", { cursor: START, awaiting: 0 }],
    ["a missing cursor", {} as Progress],
    ["a stray list that is not a list", { cursor: START, stray: "A" as unknown as [] }],
    ["a stray entry that is not an object", { cursor: START, stray: [null] as unknown as [] }],
    ["a subagent that is null", { cursor: START, sub: null as unknown as undefined }],
  ])("damaged progress (%s) denies every call and event with guard-failure", (_name, p) => {
    const call = decideProgress(PLAN, p, { tool: "Read", args: { file_path: "a" } }, ctx);
    expect(call.verdict).toMatchObject({ allow: false });
    expect(!call.verdict.allow && call.verdict.diagnostic.rule).toBe("guard-failure");
    expect(subagentStart(PLAN, p, { agentId: "A" }).diagnostic?.rule).toBe("guard-failure");
    expect(subagentStop(PLAN, p, { agentId: "A" }).diagnostic?.rule).toBe("guard-failure");
  });
});

describe("subagents: hostile spellings", () => {
  const running = run(PLAN, [{ call: "Read", args: { file_path: "a" } }, { call: "Agent", args: AGENT_CALL.args }, { start: "A", type: "general-purpose" }, { call: "Bash", args: { command: "ls" }, agentId: "A" }]).progress;

  it.each([
    ["another agent's id", "B"],
    ["the id in another case", "a"],
    ["the id with a trailing space", "A "],
    ["the id with a zero-width space", "A\u200b"],
    ["an empty id", ""],
    ["the id of the step", "2"],
  ])("a call from %s is not the running subagent's", (_name, id) => {
    const r = decideProgress(PLAN, running, { tool: "Write", args: { file_path: "x", content: "y" }, agentId: id }, ctx, FREE);
    expect(r.verdict.allow).toBe(false);
    expect(r.progress.sub?.cursor).toEqual(running.sub!.cursor);
    // Free tools are no way around it either.
    expect(decideProgress(PLAN, running, { tool: "Glob", args: {}, agentId: id }, ctx, FREE).verdict.allow).toBe(false);
  });

  it.each(["agent", "AGENT", "Agent ", "Agent\u200b", "Tаsk", "Subagent"])("%j is not the subagent tool: it takes no Task/Agent step", (tool) => {
    const r = decideProgress(PLAN, { cursor: { index: 1, count: 0 } }, { tool, args: AGENT_CALL.args }, ctx, FREE);
    expect(r.verdict.allow).toBe(false);
    expect(r.progress.awaiting).toBeUndefined();
    expect(r.progress.launchHook).toBeUndefined();
  });

  it.each<[string, Event[]]>([
    ["a second start with another id", [{ start: "B", type: "general-purpose" }]],
    ["a second start with no id", [{ start: null, type: "general-purpose" }]],
    ["a second start of another type", [{ start: "B", type: "Explore" }]],
    ["a stop of another agent, then its calls", [{ stop: "B" }, { call: "Write", args: { file_path: "x", content: "y" }, agentId: "B" }]],
  ])("%s cannot take over or end the running subagent's step", (_name, events) => {
    const { outcomes, progress } = run(PLAN, events, running);
    expect(outcomes.every((o) => o.allow !== true)).toBe(true);
    expect(outcomes.some((o) => o.diagnostic !== undefined)).toBe(true);
    expect(progress.sub).toMatchObject({ agentId: "A", parent: 1, cursor: running.sub!.cursor });
    expect(progress.cursor).toEqual(running.cursor);
  });

  it.each<[string, Event[]]>([
    ["the main agent runs the next outer step", [{ call: "Bash", args: { command: "npm test" } }]],
    ["the main agent runs the subagent's remaining step untagged", [{ call: "Write", args: { file_path: "x", content: "y" } }]],
    ["the main agent launches the step again", [{ call: "Agent", args: AGENT_CALL.args }]],
    ["the subagent stops early, then the main agent goes on", [{ stop: "A" }, { call: "Bash", args: { command: "npm test" } }]],
    ["the subagent stops early, then a new one starts unannounced", [{ stop: "A" }, { start: "B", type: "general-purpose" }, { call: "Write", args: { file_path: "x", content: "y" }, agentId: "B" }]],
  ])("%s: denied while the step's nested steps have not all run", (_name, events) => {
    const { outcomes, progress } = run(PLAN, events, running);
    const calls = outcomes.filter((o) => o.allow !== undefined);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((o) => o.allow === false)).toBe(true);
    expect(progress.cursor).toEqual(running.cursor);
    expect(progressDone(PLAN, progress)).toBe(false);
  });
});

/** Claude Code hook payloads as users report them (field names of the hooks reference), in the order they arrive. */
const RECORDED: Record<string, unknown>[] = [
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Read", tool_input: { file_path: "a" }, tool_use_id: "toolu_01" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Agent", tool_input: { description: "List and write", prompt: "list and write", subagent_type: "general-purpose" }, tool_use_id: "toolu_02" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", hook_event_name: "SubagentStart", agent_id: "a216198197bfc04c4", agent_type: "general-purpose" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls", description: "List files" }, tool_use_id: "toolu_03", agent_id: "a216198197bfc04c4", agent_type: "general-purpose" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: "ls" }, tool_response: { stdout: "a" }, agent_id: "a216198197bfc04c4" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Write", tool_input: { file_path: "x", content: "y" }, tool_use_id: "toolu_04", agent_id: "a216198197bfc04c4", agent_type: "general-purpose" },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "SubagentStop", agent_id: "a216198197bfc04c4", agent_type: "general-purpose", agent_transcript_path: "/t/s1/subagents/agent-a216198197bfc04c4.jsonl", stop_hook_active: false, last_assistant_message: "Done." },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PostToolUse", tool_name: "Agent", tool_input: AGENT_CALL.args, tool_response: {} },
  { session_id: "s1", transcript_path: "/t/s1.jsonl", cwd: "/w", permission_mode: "default", hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "npm test", description: "Run the tests" }, tool_use_id: "toolu_05" },
];

/** The incidental keys a host profile drops before matching (Bash.description, Agent.description). */
function identity(tool: string, input: Record<string, unknown>): Record<string, unknown> {
  const { description: _d, ...rest } = input;
  return tool === "Bash" || tool === "Agent" || tool === "Task" ? rest : input;
}

function replay(payloads: Record<string, unknown>[]): { decisions: string[]; progress: Progress } {
  let progress: Progress = { cursor: START };
  const decisions: string[] = [];
  for (const raw of payloads) {
    const agentId = typeof raw.agent_id === "string" ? raw.agent_id : undefined;
    const agentType = typeof raw.agent_type === "string" ? raw.agent_type : undefined;
    switch (raw.hook_event_name) {
      case "PreToolUse": {
        const tool = raw.tool_name as string;
        const r = decideProgress(PLAN, progress, { tool, args: identity(tool, raw.tool_input as Record<string, unknown>), ...(agentId === undefined ? {} : { agentId }) }, ctx, FREE);
        progress = r.progress;
        decisions.push(r.verdict.allow ? `allow ${r.parent === undefined ? "" : `${r.parent}.`}${r.verdict.step}` : `deny ${r.verdict.diagnostic.message}`);
        break;
      }
      case "SubagentStart": {
        const r = subagentStart(PLAN, progress, { agentId: agentId ?? null, ...(agentType === undefined ? {} : { agentType }) });
        progress = r.progress;
        decisions.push(r.diagnostic ? `start refused ${r.diagnostic.message}` : "start");
        break;
      }
      case "SubagentStop": {
        const r = subagentStop(PLAN, progress, { agentId: agentId ?? null });
        progress = r.progress;
        decisions.push(r.diagnostic ? `stop refused ${r.diagnostic.message}` : "stop");
        break;
      }
      default:
        decisions.push("-");
    }
  }
  return { decisions, progress };
}

describe("subagents: replay of recorded hook payloads", () => {
  it("a current host (PreToolUse on Agent, agent_id on the subagent's calls)", () => {
    const { decisions, progress } = replay(RECORDED);
    expect(decisions).toEqual(["allow 1", "allow 2", "start", "allow 2.1", "-", "allow 2.2", "stop", "-", "allow 3"]);
    expect(progressDone(PLAN, progress)).toBe(true);
  });

  it("an older host (tool named Task, no PreToolUse on it, no agent_id on calls)", () => {
    const old = RECORDED.filter((p) => !(p.hook_event_name === "PreToolUse" && p.tool_name === "Agent")).map((p) => {
      if (p.hook_event_name !== "PreToolUse" && p.hook_event_name !== "PostToolUse") return p;
      const { agent_id: _i, agent_type: _t, ...rest } = p;
      return rest.tool_name === "Agent" ? { ...rest, tool_name: "Task" } : rest;
    });
    const { decisions, progress } = replay(old);
    expect(decisions).toEqual(["allow 1", "start", "allow 2.1", "-", "allow 2.2", "stop", "-", "allow 3"]);
    expect(progressDone(PLAN, progress)).toBe(true);
  });

  it("the same recording with the subagent's Write replaced is denied, and the plan cannot resume", () => {
    const bad = RECORDED.map((p) => (p.tool_name === "Write" && p.hook_event_name === "PreToolUse" ? { ...p, tool_input: { file_path: "/etc/passwd", content: "y" } } : p));
    const { decisions } = replay(bad);
    expect(decisions[5]).toMatch(/^deny In the subagent of step 2: Step 2: the "Write" call differs .* in "file_path"/);
    expect(decisions[6]).toMatch(/^stop refused The subagent of step 2 stopped before its steps 2 ran/);
    expect(decisions[8]).toMatch(/^deny .*stopped before its steps 2 ran/);
  });
});

// ---------------------------------------------------------------------------------------------------------
// Property tests: random plans and random sequences of calls, starts and stops from several agents.

const TOOLS = ["Read", "Bash", "Write"] as const;
const AGENTS = ["A", "B", "C"] as const;

const argsArb = fc.record({ v: fc.integer({ min: 0, max: 2 }) });
const leafArb = (n: number): fc.Arbitrary<ExpectedCall> =>
  fc.record({ tool: fc.constantFrom(...TOOLS), args: argsArb, repeat: fc.integer({ min: 1, max: 2 }), optional: fc.boolean() }).map((s) => ({ step: n, confirm: false, ...s }));
const taskArb = (n: number): fc.Arbitrary<ExpectedCall> =>
  fc
    .record({
      tool: fc.constantFrom("Task", "Agent"),
      type: fc.constantFrom("general-purpose", "Explore", undefined),
      repeat: fc.integer({ min: 1, max: 2 }),
      optional: fc.boolean(),
      steps: fc.option(fc.array(fc.nat(), { maxLength: 3 }), { nil: undefined }),
    })
    .chain((t) =>
      (t.steps === undefined ? fc.constant(undefined) : fc.tuple(...t.steps.map((_x, i) => leafArb(i + 1)))).map((steps) => {
        const e: ExpectedCall = { step: n, tool: t.tool, args: t.type === undefined ? {} : { subagent_type: t.type }, repeat: t.repeat, optional: t.optional, confirm: false };
        if (steps !== undefined) e.steps = steps;
        return e;
      }),
    );
const planArb: fc.Arbitrary<ExpectedCall[]> = fc.array(fc.boolean(), { minLength: 1, maxLength: 5 }).chain((kinds) => fc.tuple(...kinds.map((task, i) => (task ? taskArb(i + 1) : leafArb(i + 1)))));

const eventArb: fc.Arbitrary<Event> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ call: fc.constantFrom(...TOOLS, "Task", "Agent", "Glob"), args: fc.oneof(argsArb, fc.record({ subagent_type: fc.constantFrom("general-purpose", "Explore") }), fc.constant({})), agentId: fc.option(fc.constantFrom(...AGENTS), { nil: undefined }) }).map((e) => (e.agentId === undefined ? { call: e.call, args: e.args } : e)) },
  { weight: 2, arbitrary: fc.record({ start: fc.constantFrom(...AGENTS), type: fc.constantFrom("general-purpose", "Explore") }) },
  { weight: 2, arbitrary: fc.record({ stop: fc.constantFrom(...AGENTS) }) },
);

/** Did the cursor move as `advance` may move it: stay, repeat the current step, or go forward over optional steps only? */
function legalMove(steps: readonly ExpectedCall[], from: Cursor, to: Cursor): boolean {
  if (to.index === from.index && to.count === from.count) return true;
  if (to.index === from.index) return to.count === from.count + 1 && to.count <= steps[to.index]!.repeat;
  if (to.index < from.index || to.count !== 1 || to.index >= steps.length) return false;
  for (let i = from.count > 0 ? from.index + 1 : from.index; i < to.index; i++) if (!steps[i]!.optional) return false;
  return true;
}

const isTaskTool = (t: string): boolean => TASK_TOOLS.has(t);

describe("subagents: properties", () => {
  it("no call is allowed unless it matches the step the model says is current; nothing runs out of order; stops resume where they left", () => {
    fc.assert(
      fc.property(planArb, fc.array(eventArb, { maxLength: 40 }), (plan, events) => {
        let p: Progress = { cursor: START };
        let cursorAtStart: Cursor | undefined;
        const uses = new Map<number, number>();
        for (const e of events) {
          const before = p;
          const stray = new Set((before.stray ?? []).map((s) => s.agentId));
          const active = before.sub && !before.sub.stopped ? before.sub : undefined;
          if ("call" in e) {
            const call = e.agentId === undefined ? { tool: e.call, args: e.args } : { tool: e.call, args: e.args, agentId: e.agentId };
            const r = decideProgress(plan, before, call, ctx, FREE);
            p = r.progress;
            if (r.verdict.allow && !r.free) {
              // The step it took is the one the model stood at (outer, or the active subagent's nested steps).
              const nested = r.parent !== undefined;
              const steps = nested ? plan[before.sub!.parent]!.steps! : plan;
              const want = steps[r.verdict.index]!;
              expect(want.tool === e.call || (isTaskTool(want.tool) && isTaskTool(e.call))).toBe(true);
              expect(differingKeys(want, { tool: want.tool, args: e.args }, ctx)).toEqual([]);
              if (nested) {
                expect(active).toBeDefined();
                expect(legalMove(steps, before.sub!.cursor, p.sub!.cursor)).toBe(true);
                expect(p.cursor).toEqual(before.cursor);
              } else {
                expect(legalMove(plan, before.cursor, p.cursor)).toBe(true);
                expect(active).toBeUndefined();
              }
            }
            if (r.verdict.allow && r.free) expect(FREE.free(e.call)).toBe(true);
            // Never allowed: a stray agent's call, another agent's call, an untagged call while a stray runs.
            if (e.agentId !== undefined && (stray.has(e.agentId) || active?.agentId !== e.agentId)) expect(r.verdict.allow).toBe(false);
            if (e.agentId === undefined && (stray.size > 0 || before.strayOverflow)) expect(r.verdict.allow).toBe(false);
            if (!r.verdict.allow) {
              // A denied call moves nothing (it may only record that the host tags calls or announces Task/Agent calls).
              expect(p.cursor).toEqual(before.cursor);
              expect(p.sub?.cursor).toEqual(before.sub?.cursor);
              expect(p.sub?.parent).toEqual(before.sub?.parent);
              expect(p.awaiting).toEqual(before.awaiting);
            }
          } else if ("start" in e) {
            const r = subagentStart(plan, before, { agentId: e.start, agentType: e.type }, { contextFor: ctx });
            p = r.progress;
            if (active) {
              // Two at once: the second is never attributed.
              expect(r.diagnostic).toBeDefined();
              expect(p.sub).toEqual(before.sub);
            }
            if (p.sub && p.sub !== before.sub && !r.diagnostic) {
              const parent = plan[p.sub.parent]!;
              expect(isTaskTool(parent.tool)).toBe(true);
              expect(p.sub.agentId).toBe(e.start);
              if (!before.sub) {
                // A fresh use of the step (a resumed one reuses its use): never more than its repeat.
                expect(legalMove(plan, before.cursor, p.cursor)).toBe(true);
                if (before.awaiting === undefined) expect(p.cursor).not.toEqual(before.cursor);
                const n = (uses.get(p.sub.parent) ?? 0) + 1;
                uses.set(p.sub.parent, n);
                expect(n).toBeLessThanOrEqual(parent.repeat);
                cursorAtStart = p.cursor;
              }
            } else {
              expect(p.cursor).toEqual(before.cursor);
            }
          } else {
            const r = subagentStop(plan, before, { agentId: e.stop });
            p = r.progress;
            expect(p.cursor).toEqual(before.cursor);
            if (active && active.agentId === e.stop && !stray.has(e.stop)) {
              const steps = plan[active.parent]!.steps ?? [];
              if (isDone(steps, active.cursor)) {
                expect(r.diagnostic).toBeUndefined();
                expect(p.sub).toBeUndefined();
                expect(p.cursor).toEqual(cursorAtStart);
              } else {
                expect(r.diagnostic).toBeDefined();
                expect(p.sub).toMatchObject({ stopped: true, cursor: active.cursor });
              }
            }
          }
          // The stored form is plain JSON.
          expect(JSON.parse(JSON.stringify(p))).toEqual(p);
          if (p.sub) expect(p.sub.parent).toBe(p.cursor.index);
          if (progressDone(plan, p)) expect(isDone(plan, p.cursor) && !p.sub && !p.stray).toBe(true);
        }
      }),
      { numRuns: 400 },
    );
  });

  it("an outer call never runs while a subagent is running, stopped early or awaited", () => {
    fc.assert(
      fc.property(planArb, fc.array(eventArb, { maxLength: 30 }), (plan, events) => {
        let p: Progress = { cursor: START };
        for (const e of events) {
          const before = p;
          if ("call" in e) {
            const r = decideProgress(plan, before, e.agentId === undefined ? { tool: e.call, args: e.args } : { tool: e.call, args: e.args, agentId: e.agentId }, ctx, FREE);
            p = r.progress;
            const blocked = before.sub !== undefined || before.awaiting !== undefined;
            if (blocked && r.verdict.allow && !r.free && r.parent === undefined) {
              // Only the same Task/Agent call again, which takes no new step.
              expect(isTaskTool(e.call)).toBe(true);
              expect(p.cursor).toEqual(before.cursor);
            }
          } else if ("start" in e) p = subagentStart(plan, before, { agentId: e.start, agentType: e.type }, { contextFor: ctx }).progress;
          else p = subagentStop(plan, before, { agentId: e.stop }).progress;
        }
      }),
      { numRuns: 300 },
    );
  });
});
