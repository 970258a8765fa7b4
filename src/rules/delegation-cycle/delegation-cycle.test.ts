import { describe, expect, it } from "vitest";
import { checkDelegation, normaliseAgent } from "../../orchestration/delegation.js";
import { NOW } from "../../../test/helpers.js";
import { rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { delegationInput } from "../../../test/kind-inputs.js";

const check = (target: string, path: string[]) => checkDelegation({ target, path, now: NOW });

describe("delegation-cycle", () => {
  it("refuses a target already in the path, naming the chain", () => {
    const r = check("planner", ["orchestrator", "planner", "researcher"]);
    expect(rules(r)).toEqual(["delegation-cycle"]);
    expect(r.diagnostics[0]!.message).toContain("orchestrator → planner → researcher → planner");
  });
  it.each([
    ["Planner", "planner"],
    [" planner ", "planner"],
    ["planner_agent", "planner-agent"],
    ["@planner", "planner"],
    ["ｐｌａｎｎｅｒ", "planner"],
    ["plan\u200Bner", "planner"],
    ["Orchestrator", "orchestrator"],
  ])("compares %j with %j after normalising", (target, inPath) => {
    expect(rules(check(target, ["orchestrator", inPath].slice(inPath === "orchestrator" ? 1 : 0)))).toContain("delegation-cycle");
  });
  it("accepts a new agent", () => {
    expect(rules(check("implementer", ["orchestrator", "planner"]))).toEqual([]);
    expect(normaliseAgent("lean-research-agent")).not.toBe(normaliseAgent("lean-implementation-agent"));
  });
});

kindRuleTester("delegation-cycle", "delegation", {
  valid: [{ name: "a new agent", input: delegationInput("implementer", ["orchestrator", "planner"]) }],
  invalid: [
    {
      name: "an agent already in the path, in another spelling",
      input: delegationInput("Planner", ["orchestrator", "planner", "researcher"]),
      errors: [
        {
          messageId: "cycle",
          message: 'Delegation to "Planner" would form a cycle: orchestrator → planner → researcher → Planner ("planner" is already at position 2 of the path).',
          actual: "orchestrator → planner → researcher → Planner",
        },
      ],
    },
    { name: "separators and a leading @ do not matter", input: delegationInput("@planner_agent", ["orchestrator", "Planner-Agent"]), errors: 1 },
  ],
});
