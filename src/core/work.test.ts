import { describe, expect, it } from "vitest";
import { PlanWork, readingUnits, WORK_LIMITS } from "./work.js";

describe("PlanWork", () => {
  it("takes units while they are left, then refuses the work that would pass the bound and all after it", () => {
    const work = new PlanWork({ pathReadings: 10 });
    expect(work.spend("pathReadings", 6, { step: 1, at: "/steps/0" })).toBe(true);
    expect(work.spend("pathReadings", 4, { step: 2, at: "/steps/1" })).toBe(true);
    expect(work.spend("pathReadings", 1, { step: 3, at: "/steps/2" })).toBe(false);
    // Once out, even work that would fit is not done: the rest of the kind is not judged.
    expect(work.spend("pathReadings", 0, { step: 4, at: "/steps/3" })).toBe(false);
    expect(work.spent("pathReadings")).toBe(true);
    expect(work.spent("derivedValues")).toBe(false);
    expect(work.exceeded()).toEqual([{ kind: "pathReadings", place: { step: 3, at: "/steps/2" }, max: 10 }]);
  });

  it("keeps the first place a live meter went below zero, and makes the place only then", () => {
    const work = new PlanWork({ diskNames: 5 });
    const meter = work.meter("diskNames");
    meter.left -= 3;
    let made = 0;
    const place = () => (made++, { step: 2, at: "/steps/1/arguments/command" });
    expect(work.overrun("diskNames", place)).toBe(false);
    meter.left -= 3;
    expect(work.overrun("diskNames", place)).toBe(true);
    expect(work.overrun("diskNames", { step: 9, at: "/steps/8" })).toBe(true);
    expect(made).toBe(1);
    expect(work.exceeded()).toEqual([{ kind: "diskNames", place: { step: 2, at: "/steps/1/arguments/command" }, max: 5 }]);
  });

  it("is stopped from outside (the path service's walks), and lists kinds in the order they ran out", () => {
    const work = new PlanWork();
    work.stop("linkNames", { at: "/steps" });
    work.stop("linkNames", { step: 5, at: "/steps/4" });
    expect(work.spend("derivedValues", WORK_LIMITS.derivedValues + 1, { step: 7, at: "/steps/6" })).toBe(false);
    expect(work.exceeded().map((e) => [e.kind, e.place])).toEqual([
      ["linkNames", { at: "/steps" }],
      ["derivedValues", { step: 7, at: "/steps/6" }],
    ]);
  });

  it("counts a text one unit, and one more per 256 characters", () => {
    expect([0, 1, 255, 256, 511, 512, 4096].map(readingUnits)).toEqual([1, 1, 1, 2, 2, 3, 17]);
  });
});
