import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

describe("return-session-mismatch", () => {
  it("reports a return from another session", async () => {
    const r = await ret(goodReturn(), { expectedSessionId: "sess_2" });
    expect(rules(r)).toEqual(["return-session-mismatch", "return-session-mismatch"]);
    expect(r.diagnostics[0]).toMatchObject({ expected: "sess_2", actual: "sess_1", pointer: "/metadata/session_id" });
  });
  it("reports session_id and metadata.session_id that disagree, even without an expected id", async () => {
    const r = await ret(goodReturn({ session_id: "sess_9" }));
    expect(rules(r)).toEqual(["return-session-mismatch"]);
  });
  it("reports a return without a session id when one is expected", async () => {
    const v = goodReturn();
    delete v.session_id;
    delete (v.metadata as Record<string, unknown>).session_id;
    const r = await ret(v, { expectedSessionId: "sess_1" });
    expect(rules(r)).toContain("return-session-mismatch");
  });
  it("accepts the expected id, top-level or in metadata", async () => {
    expect(rules(await ret(goodReturn(), { expectedSessionId: "sess_1" }))).toEqual([]);
    const v = goodReturn();
    delete v.session_id;
    expect(rules(await ret(v, { expectedSessionId: "sess_1" }))).toEqual([]);
  });
});

kindRuleTester("return-session-mismatch", "return", {
  text: (input) => input.text,
  valid: [
    { name: "one session id, nothing expected", input: returnInput(good()) },
    { name: "the delegated session", input: returnInput(good(), { expect: { expectedSessionId: "sess_1" } }) },
  ],
  invalid: [
    {
      name: "session_id and metadata.session_id differ",
      input: returnInput(good({ session_id: "sess_2" })),
      errors: [{ messageId: "differ", pointer: "/metadata/session_id", line: 11, column: 5, expected: "sess_2", actual: "sess_1" }],
    },
    {
      name: "another session than the delegated one",
      input: returnInput(good(), { expect: { expectedSessionId: "sess_9" } }),
      errors: [
        { messageId: "foreign", pointer: "/session_id", line: 13, column: 3, expected: "sess_9", actual: "sess_1" },
        { messageId: "foreign", pointer: "/metadata/session_id", line: 11, column: 5 },
      ],
    },
    {
      name: "no session id to compare",
      input: returnInput(good({ session_id: undefined, metadata: {} }), { expect: { expectedSessionId: "sess_9" } }),
      errors: [{ messageId: "none", pointer: "", line: 1, column: 1, message: 'The return carries no session id, so it cannot be matched to the delegated session "sess_9".' }],
    },
  ],
});
