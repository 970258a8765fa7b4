import { describe, expect, it } from "vitest";
import { checkDelegation } from "../../orchestration/delegation.js";
import { NOW } from "../../../test/helpers.js";
import { rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { delegationInput } from "../../../test/kind-inputs.js";

const check = (path: string[], extra: Partial<Parameters<typeof checkDelegation>[0]> = {}) =>
  checkDelegation({ target: "worker", path, now: NOW, ...extra });

describe("delegation-depth", () => {
  it("refuses the child of orchestrator,a,b,c (depth 4 > 3)", () => {
    const r = check(["orchestrator", "a", "b", "c"]);
    expect(rules(r)).toEqual(["delegation-depth"]);
    expect(r.depth).toBe(4);
    expect(r.diagnostics[0]!.message).toBe('Delegation to "worker" would reach depth 4, over the maximum of 3.');
  });
  it("accepts the child of orchestrator,a,b (depth 3)", () => {
    const r = check(["orchestrator", "a", "b"]);
    expect(r.valid).toBe(true);
    expect(r.depth).toBe(3);
  });
  it("lets --depth win over the path's count", () => {
    expect(rules(check(["orchestrator"], { depth: 5 }))).toEqual(["delegation-depth"]);
    expect(rules(check(["orchestrator", "a", "b", "c", "d"], { depth: 2 }))).toEqual([]);
  });
  it("takes the maximum from the options, then the policy", () => {
    expect(rules(check(["orchestrator", "a"], { maxDepth: 1 }))).toEqual(["delegation-depth"]);
    expect(rules(check(["orchestrator", "a"], { policy: { delegation: { maxDepth: 1, sessionTtlSeconds: 60 } } }))).toEqual([
      "delegation-depth",
    ]);
    expect(rules(check(["o", "a", "b", "c", "d"], { policy: { delegation: { maxDepth: 5, sessionTtlSeconds: 60 } } }))).toEqual([]);
  });
});

kindRuleTester("delegation-depth", "delegation", {
  valid: [{ name: "at the maximum", input: delegationInput("implementer", ["orchestrator", "plan", "planner"]) }],
  invalid: [
    {
      name: "over the maximum",
      input: delegationInput("implementer", ["orchestrator", "plan", "planner", "helper"]),
      errors: [{ messageId: "tooDeep", message: 'Delegation to "implementer" would reach depth 4, over the maximum of 3.', expected: "<= 3", actual: 4 }],
    },
    { name: "the depth the orchestrator tracks wins", input: delegationInput("x", ["orchestrator"], { depth: 5, maxDepth: 2 }), errors: [{ messageId: "tooDeep", actual: 5 }] },
  ],
});
