import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";

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
