import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { advance, type CallInput, type ContextFor, type Cursor, differingKeys, type ExpectedCall, isDone, match, matchesCall, START } from "./match.js";
import { cpuBound } from "../../test/cpu-time.js";

const plain: ContextFor = () => ({});
const paths: ContextFor = (_tool, key) => ({ path: key === "file_path" });

function step(step: number, tool: string, args: Record<string, unknown>, more: Partial<ExpectedCall> = {}): ExpectedCall {
  return { step, tool, args, repeat: 1, optional: false, confirm: false, ...more };
}

/** Runs calls through advance from the start; the allowed steps, or the first refusal's message. */
function run(expected: ExpectedCall[], calls: CallInput[], ctx: ContextFor = plain): { steps: number[]; refused?: string; cursor: Cursor } {
  let cursor = START;
  const steps: number[] = [];
  for (const c of calls) {
    const v = advance(expected, cursor, c, ctx);
    if (!v.allow) return { steps, refused: v.diagnostic.message, cursor };
    steps.push(v.step);
    cursor = v.cursor;
  }
  return { steps, cursor };
}

const write = (file_path: string, content = "x"): CallInput => ({ tool: "Write", args: { file_path, content } });

describe("advance", () => {
  it("allows exactly the approved calls, in order", () => {
    const plan = [step(1, "Write", { file_path: "a", content: "x" }), step(2, "Write", { file_path: "b", content: "x" })];
    expect(run(plan, [write("a"), write("b")]).steps).toEqual([1, 2]);
    const r = run(plan, [write("b")]);
    expect(r.refused).toMatch(/Step 1: the "Write" call differs from the approved one in "file_path" \(file_path: expected "a", got "b"\)/);
  });

  it("names every differing key, a missing one and an extra one", () => {
    const plan = [step(1, "Edit", { file_path: "a", old_string: "1", new_string: "2" })];
    const r = run(plan, [{ tool: "Edit", args: { file_path: "a", old_string: "1", new_string: "3", replace_all: true } }]);
    expect(r.refused).toContain('in "new_string", "replace_all"');
    expect(r.refused).toContain("replace_all: expected (absent), got true");
  });

  it("clips long values in the message", () => {
    const plan = [step(1, "Write", { file_path: "a", content: "y".repeat(500) })];
    const r = run(plan, [write("a", "z".repeat(500))]);
    expect(r.refused!.length).toBeLessThan(400);
    expect(r.refused).toContain("…");
  });

  it("says when a call is a later step, not the next one", () => {
    const plan = [step(1, "Read", { file_path: "a" }), step(2, "Write", { file_path: "b", content: "x" })];
    const v = advance(plan, START, write("b"), plain);
    expect(v.allow).toBe(false);
    if (!v.allow) expect(v.diagnostic.hint).toMatch(/that call is step 2/);
  });

  it("lets a step with repeat: N take 1..N calls", () => {
    const plan = [step(1, "Bash", { command: { $glob: "pytest *" } }, { repeat: 3 }), step(2, "Write", { file_path: "b", content: "x" })];
    const bash = (command: string): CallInput => ({ tool: "Bash", args: { command } });
    expect(run(plan, [bash("pytest a"), bash("pytest b"), bash("pytest c"), write("b")]).steps).toEqual([1, 1, 1, 2]);
    expect(run(plan, [bash("pytest a"), write("b")]).steps).toEqual([1, 2]);
    expect(run(plan, [bash("pytest a"), bash("pytest b"), bash("pytest c"), bash("pytest d")]).refused).toMatch(/Step 2/);
    expect(run(plan, [write("b")]).refused).toMatch(/Step 1/);
  });

  it("skips optional steps that the call does not match, never required ones", () => {
    const plan = [step(1, "Read", { file_path: "a" }, { optional: true }), step(2, "Read", { file_path: "b" }, { optional: true }), step(3, "Write", { file_path: "c", content: "x" })];
    expect(run(plan, [write("c")]).steps).toEqual([3]);
    expect(run(plan, [{ tool: "Read", args: { file_path: "b" } }, write("c")]).steps).toEqual([2, 3]);
    // Once step 2 ran, step 1 is behind: no going back.
    expect(run(plan, [{ tool: "Read", args: { file_path: "b" } }, { tool: "Read", args: { file_path: "a" } }]).refused).toMatch(/Step 3/);
  });

  it("reports the end of the plan", () => {
    const plan = [step(1, "Read", { file_path: "a" })];
    expect(run(plan, [{ tool: "Read", args: { file_path: "a" } }, { tool: "Read", args: { file_path: "a" } }]).refused).toMatch(/All 1 approved steps have run/);
  });

  it("carries confirm to the verdict", () => {
    const v = advance([step(1, "Bash", { command: "make" }, { confirm: true })], START, { tool: "Bash", args: { command: "make" } }, plain);
    expect(v.allow && v.confirm).toBe(true);
  });

  it("matches path globs on path keys only", () => {
    const plan = [step(1, "Edit", { file_path: { $glob: "tests/**/*.py" }, old_string: { $any: true }, new_string: { $any: true } })];
    const edit = (file_path: string): CallInput => ({ tool: "Edit", args: { file_path, old_string: "a", new_string: "b" } });
    expect(run(plan, [edit("tests/unit/test_a.py")], paths).steps).toEqual([1]);
    expect(run(plan, [edit("src/a.py")], paths).refused).toContain('"file_path"');
    expect(run(plan, [edit("tests/a.pyc")], paths).refused).toBeDefined();
  });
});

describe("isDone", () => {
  it("is true only when every remaining step is taken or optional", () => {
    const plan = [step(1, "A", {}), step(2, "B", {}, { optional: true })];
    expect(isDone(plan, START)).toBe(false);
    expect(isDone(plan, { index: 0, count: 1 })).toBe(true);
    expect(isDone(plan, { index: 1, count: 0 })).toBe(true);
  });
});

describe("advance, properties", () => {
  const arbPlan = fc.array(fc.record({ tool: fc.constantFrom("A", "B", "C"), repeat: fc.integer({ min: 1, max: 3 }), optional: fc.boolean() }), { minLength: 1, maxLength: 6 });
  it("allows a call only for a step at or after the cursor, never going back, never past a required step untaken", () => {
    fc.assert(
      fc.property(arbPlan, fc.array(fc.constantFrom("A", "B", "C"), { maxLength: 12 }), (spec, tools) => {
        const plan = spec.map((s, i) => step(i + 1, s.tool, {}, { repeat: s.repeat, optional: s.optional }));
        let cursor = START;
        for (const tool of tools) {
          const v = advance(plan, cursor, { tool, args: {} }, plain);
          if (!v.allow) continue;
          expect(v.index).toBeGreaterThanOrEqual(cursor.index);
          expect(plan[v.index]!.tool).toBe(tool);
          expect(v.cursor.count).toBeLessThanOrEqual(plan[v.index]!.repeat);
          // Every step skipped over was optional.
          const from = cursor.count > 0 ? cursor.index + 1 : cursor.index;
          for (let k = from; k < v.index; k++) expect(plan[k]!.optional).toBe(true);
          cursor = v.cursor;
        }
      }),
    );
  });
});

describe("matchesCall", () => {
  it("says a call is the step exactly when no argument differs (same tool), for any arguments", () => {
    const value = fc.oneof(fc.constantFrom("a", "b", "src/x.py", "./src/x.py"), fc.integer({ min: 0, max: 2 }), fc.constant({ $glob: "src/*.py" }));
    const args = fc.dictionary(fc.constantFrom("a", "b", "file_path", "c"), value, { maxKeys: 4 });
    fc.assert(
      fc.property(fc.constantFrom("t", "u"), args, fc.constantFrom("t", "u"), args, (wantTool, wantArgs, callTool, callArgs) => {
        const want = step(1, wantTool, wantArgs);
        const call = { tool: callTool, args: callArgs };
        expect(matchesCall(want, call, paths)).toBe(wantTool === callTool && differingKeys(want, call, paths).length === 0);
      }),
      { numRuns: 2000 },
    );
  });
  it("tries a call of 60,000 arguments against a run of 500 steps in linear time", () => {
    const expected = Array.from({ length: 500 }, (_, i) => step(i + 1, "read_file", { path: "in.txt" }));
    const args = Object.fromEntries(Array.from({ length: 60_000 }, (_, i) => [`k${i}`, "a/b"]));
    const t = process.cpuUsage();
    const m = match(expected, START, { tool: "read_file", args }, plain);
    const { user, system } = process.cpuUsage(t);
    expect(m.allow).toBe(false);
    // Each step sorted and listed the 60,000 names: 7.7 s.
    expect((user + system) / 1000).toBeLessThan(cpuBound(2000));
  });
});
