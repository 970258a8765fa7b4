import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";

const step = (n: unknown, extra = "") => `{"step": ${JSON.stringify(n)}, "tool_name": "t", "args": {}, "description": "d"${extra}}`;
const plan = (...steps: string[]) => `{"plan": [${steps.join(", ")}], "reasoning": "r"}`;

describe("step-numbering", () => {
  it("accepts 1, 2, 3 in order", async () => {
    expect(await diagnosticsOf("step-numbering", plan(step(1), step(2), step(3)))).toEqual([]);
  });
  it("reports a duplicate number at the second step's \"step\"", async () => {
    const d = await diagnosticsOf("step-numbering", plan(step(1), step(1)));
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 2, pointer: "/plan/1/step", expected: 2, actual: 1, hint: 'set "step": 2' });
    expect(d[0]!.message).toContain("repeats step 1's number");
  });
  it("reports a gap and every step after it", async () => {
    const d = await diagnosticsOf("step-numbering", plan(step(1), step(3), step(4)));
    expect(d.map((x) => [x.step, x.actual])).toEqual([
      [2, 3],
      [3, 4],
    ]);
    expect(d[0]!.message).toContain("skips to 3");
  });
  it("reports steps out of order", async () => {
    const d = await diagnosticsOf("step-numbering", plan(step(2), step(1)));
    expect(d.map((x) => x.step)).toEqual([1, 2]);
    expect(d[1]!.message).toContain("out of order");
  });
  it("leaves numbers that are not positive integers to invalid-type", async () => {
    const text = plan(step(0), step(true), step("3"));
    expect(await diagnosticsOf("step-numbering", text)).toEqual([]);
    expect((await diagnosticsOf("invalid-type", text)).map((d) => d.pointer)).toEqual(["/plan/0/step", "/plan/1/step", "/plan/2/step"]);
  });
  it("checks the bare list iKOMA's agent falls back to", async () => {
    expect(await diagnosticsOf("step-numbering", `[${step(2)}]`)).toHaveLength(1);
  });
  it("does not apply to other dialects", async () => {
    expect(await diagnosticsOf("step-numbering", '[{"tool": "a"}]')).toEqual([]);
  });
});
