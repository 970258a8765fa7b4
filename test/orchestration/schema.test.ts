import Value from "typebox/value";
import { describe, expect, it } from "vitest";
import { SubagentReturnSchema } from "../../src/schemas/subagent-return.js";
import { goodReturn } from "./fixtures.js";

describe("SubagentReturnSchema", () => {
  it("accepts the orchestrator validation strategy's return, with the session id at the top or in metadata", () => {
    expect(Value.Check(SubagentReturnSchema, goodReturn())).toBe(true);
    const inMeta = goodReturn();
    delete inMeta.session_id;
    expect(Value.Check(SubagentReturnSchema, inMeta)).toBe(true);
    expect(Value.Check(SubagentReturnSchema, goodReturn({ artifacts: ["a.md", { path: "b.md", type: "plan" }], next_steps: ["x"] }))).toBe(true);
  });
  it("rejects a return without any session id, or with a missing field", () => {
    const none = goodReturn();
    delete none.session_id;
    (none.metadata as Record<string, unknown>).session_id = undefined;
    expect(Value.Check(SubagentReturnSchema, JSON.parse(JSON.stringify(none)))).toBe(false);
    const noSummary = goodReturn();
    delete noSummary.summary;
    expect(Value.Check(SubagentReturnSchema, noSummary)).toBe(false);
    expect(Value.Check(SubagentReturnSchema, goodReturn({ artifacts: [{ type: "plan" }] }))).toBe(false);
  });
  it("has an id for the schema files", () => {
    expect((SubagentReturnSchema as { $id?: string }).$id).toBe("urn:plangate:schema:subagent-return");
  });
});
