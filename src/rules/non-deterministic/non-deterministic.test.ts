import { describe, expect, it } from "vitest";
import { diagnosticsOf } from "../../../test/helpers.js";
import { defaultPolicy } from "../../policy/defaults.js";

const plan = (step: Record<string, unknown>) => JSON.stringify({ steps: [{ tool: "t", arguments: {}, intent: "do it", ...step }] });

describe("non-deterministic", () => {
  it("reports a branching key on the step, at the key", async () => {
    const d = await diagnosticsOf("non-deterministic", '{"steps": [{"tool": "t", "arguments": {}, "intent": "x", "if": "exists(a)"}]}');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ step: 1, pointer: "/steps/0/if", line: 1, column: 58 });
  });
  it("reports branching keys nested in the arguments", async () => {
    const d = await diagnosticsOf("non-deterministic", plan({ arguments: { mode: 1, options: { when: "monday" } } }));
    expect(d.map((x) => x.pointer)).toEqual(["/steps/0/arguments/options/when"]);
  });
  it("accepts branches when the policy allows conditionals", async () => {
    const policy = defaultPolicy("/workspace");
    policy.plan.allowConditionals = true;
    expect(await diagnosticsOf("non-deterministic", plan({ condition: "x" }), { policy })).toEqual([]);
  });
  it.each([
    { path: "out/run-$RANDOM.txt" },
    { name: "job-$" + "{RANDOM}" },
    { id: "uuid4()" },
    { stamp: "$(date +%s)" },
    { stamp: "`date`" },
    { at: "now()" },
    { label: "{{ timestamp }}" },
    { seed: "/dev/urandom" },
  ])("reports the run-time value %j", async (args) => {
    expect(await diagnosticsOf("non-deterministic", plan({ arguments: args }))).toHaveLength(1);
  });
  it("reports keys that leave the order open", async () => {
    expect(await diagnosticsOf("non-deterministic", plan({ arguments: { parallel: true } }))).toHaveLength(1);
    expect(await diagnosticsOf("non-deterministic", plan({ arguments: { depends_on: [2] } }))).toHaveLength(1);
    expect(await diagnosticsOf("non-deterministic", plan({ arguments: { parallel: false, background: "no" } }))).toEqual([]);
  });
  it("accepts fixed values, and code that mentions randomness inside file content", async () => {
    const args = { branch: "main", after: "line 3", dependencies: ["numpy"], path: "out/run-42.txt", content: "import random\nx = random.random()\nprint(datetime.now())", date: "2026-01-01" };
    expect(await diagnosticsOf("non-deterministic", plan({ arguments: args }))).toEqual([]);
  });
  it("applies to scQC steps", async () => {
    expect(await diagnosticsOf("non-deterministic", '[{"tool": "a", "params": {"seed": "$RANDOM"}}]')).toHaveLength(1);
  });
});
