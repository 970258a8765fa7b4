import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

describe("return-status", () => {
  it("reports a status outside the orchestrator validation strategy's four", async () => {
    const r = await ret(goodReturn({ status: "done" }));
    expect(rules(r)).toEqual(["return-status"]);
    expect(r.diagnostics[0]!.message).toBe('Return status "done" is not one of "completed", "partial", "failed" or "blocked".');
    expect(r.diagnostics[0]).toMatchObject({ pointer: "/status", line: 2, column: 3, actual: "done" });
  });
  it("compares exactly and suggests the allowed spelling", async () => {
    const r = await ret(goodReturn({ status: "COMPLETED" }));
    expect(rules(r)).toEqual(["return-status"]);
    expect(r.diagnostics[0]!.hint).toContain('"completed"');
  });
  it.each(["completed", "partial", "failed", "blocked"])("accepts %s", async (status) => {
    expect(rules(await ret(goodReturn({ status })))).toEqual([]);
  });
  it("takes the statuses from the policy", async () => {
    const returns = {
      statuses: ["researched", "partial"],
      successStatuses: ["researched"],
      maxSummaryTokens: 100,
      encoding: "o200k_base",
      requiredFields: ["status"],
    };
    expect(rules(await ret(goodReturn({ status: "researched" }), { policy: { returns } }))).toEqual([]);
    expect(rules(await ret(goodReturn({ status: "completed" }), { policy: { returns } }))).toEqual(["return-status"]);
  });
});

kindRuleTester("return-status", "return", {
  text: (input) => input.text,
  valid: [
    ...["completed", "partial", "failed", "blocked"].map((status) => ({ name: status, input: returnInput(good({ status })) })),
    { name: "a status of the policy's", input: returnInput(good({ status: "researched" }), { expect: { statuses: ["researched"] } }) },
    { name: "no status: return-missing-field's", input: returnInput(good({ status: undefined })) },
  ],
  invalid: [
    {
      name: "a status outside the allowed ones",
      input: returnInput(good({ status: "done" })),
      errors: [
        {
          messageId: "unknown",
          pointer: "/status",
          line: 2,
          column: 3,
          message: 'Return status "done" is not one of "completed", "partial", "failed" or "blocked".',
          hint: "returns.statuses lists the allowed values",
          actual: "done",
        },
      ],
    },
    {
      name: "compared exactly, with the near spelling suggested",
      input: returnInput(good({ status: "COMPLETED" })),
      errors: [{ messageId: "unknownNear", hint: 'did you mean "completed"? (returns.statuses lists the allowed values)' }],
    },
  ],
});
