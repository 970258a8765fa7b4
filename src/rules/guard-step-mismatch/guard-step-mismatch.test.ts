import { describe, expect, it } from "vitest";
import { canonicalJson } from "../../core/canonical/jcs.js";
import { type ApprovedPlan, decideStep } from "../../approval/guard.js";
import { NOW } from "../../../test/helpers.js";
import { PLAN } from "../../../test/approval-kit.js";

describe("guard-step-mismatch", () => {
  const bytes = new TextEncoder().encode(JSON.stringify(PLAN));
  const approved = async (): Promise<ApprovedPlan> => {
    const { planHash } = await import("../../ops/hash.js");
    return { file: "plan.json", planHash: (await planHash(bytes, { file: "plan.json" }))!, rawHash: "", steps: PLAN.map((s) => ({ tool: s.tool, args: canonicalJson(s.params) })) };
  };
  it("reports another tool, other arguments, a step out of order and a call after the last step", async () => {
    const ap = await approved();
    const d1 = await decideStep(ap, 0, bytes, "write_file", PLAN[0]!.params, NOW);
    expect(d1.allow || d1.diagnostic.rule).toBe("guard-step-mismatch");
    const d2 = await decideStep(ap, 1, bytes, "write_file", { path: "out.txt", content: "evil" }, NOW);
    expect(d2.allow ? undefined : d2.diagnostic.message).toMatch(/^Step 2: the arguments/);
    const d3 = await decideStep(ap, 0, bytes, "write_file", PLAN[1]!.params, NOW);
    expect(d3.allow ? undefined : d3.diagnostic.hint).toMatch(/step 2/);
    const d4 = await decideStep(ap, 3, bytes, "read_file", PLAN[0]!.params, NOW);
    expect(d4.allow ? undefined : d4.diagnostic.rule).toBe("guard-step-mismatch");
  });
  it("allows exactly the next step, whatever the key order of its arguments", async () => {
    const ap = await approved();
    expect(await decideStep(ap, 1, bytes, "write_file", { content: "ok", path: "out.txt" }, NOW)).toEqual({ allow: true, step: 2 });
  });
});
