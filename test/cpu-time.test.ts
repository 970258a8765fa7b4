import { describe, expect, it } from "vitest";
import { cpuBound, cpuTimed, machineScale } from "./cpu-time.js";

describe("CPU-time bounds", () => {
  it("are scaled by how slow this machine runs the reference work, never tightened and at most four times", () => {
    const scale = machineScale();
    expect(scale).toBeGreaterThanOrEqual(1);
    expect(scale).toBeLessThanOrEqual(4);
    expect(machineScale()).toBe(scale);
    expect(cpuBound(1000)).toBe(1000 * scale);
  });

  it("count the CPU time of the work measured", () => {
    const { value, ms } = cpuTimed(() => {
      let x = 0;
      for (let i = 0; i < 2e7; i++) x = (x + i) % 1_000_003;
      return x;
    });
    expect(value).toBeGreaterThanOrEqual(0);
    expect(ms).toBeGreaterThan(0);
  });
});
