import { describe, expect, it } from "vitest";
import { tools } from "../../../test/helpers.js";
import { toolsHash } from "../../approval/record.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

describe("approval-policy-mismatch", () => {
  it("reports another policy and another tool registry", async () => {
    const k = approvalKit();
    const approval = k.sign(await k.record());
    expect(rulesOf(await k.verify(approval, { policyHash: "sha256:" + "1".repeat(64) }))).toEqual(["approval-policy-mismatch"]);
    expect(rulesOf(await k.verify(approval, { toolsHash: toolsHash(tools("read_file")) }))).toEqual(["approval-policy-mismatch"]);
  });
  it("accepts the policy and registry it was approved with", async () => {
    const k = approvalKit();
    const th = toolsHash(tools("read_file", "write_file"));
    expect(rulesOf(await k.verify(k.sign(await k.record({ tools_hash: th })), { toolsHash: th }))).toEqual([]);
  });
});
