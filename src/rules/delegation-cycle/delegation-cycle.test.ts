import { describe, expect, it } from "vitest";
import { checkDelegation, normaliseAgent } from "../../orchestration/delegation.js";
import { NOW } from "../../../test/helpers.js";
import { rules } from "../../../test/orchestration/fixtures.js";

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
