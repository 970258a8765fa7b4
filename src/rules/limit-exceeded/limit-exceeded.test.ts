import { describe, expect, it } from "vitest";
import { defaultPolicy } from "../../policy/defaults.js";
import { diagnosticsOf } from "../../../test/helpers.js";

describe("limit-exceeded", () => {
  it("reports nesting deeper than the limit", async () => {
    const text = "[".repeat(100_000) + "]".repeat(100_000);
    expect(await diagnosticsOf("limit-exceeded", text)).toHaveLength(1);
  });
  it("reports a file over the size limit", async () => {
    const policy = defaultPolicy("/workspace");
    policy.limits.maxFileBytes = 10;
    expect(await diagnosticsOf("limit-exceeded", '[{"tool": "plot_qc"}]', { policy })).toHaveLength(1);
  });
  it("reports more steps than the limit", async () => {
    const policy = defaultPolicy("/workspace");
    policy.limits.maxSteps = 1;
    expect(await diagnosticsOf("limit-exceeded", '[{"tool": "a"}, {"tool": "b"}]', { policy })).toHaveLength(1);
  });
  it("accepts a plan within the limits", async () => {
    expect(await diagnosticsOf("limit-exceeded", '[{"tool": "a"}, {"tool": "b"}]')).toHaveLength(0);
  });
});
