import { describe, expect, it } from "vitest";
import { tools } from "../../../test/helpers.js";
import { toolsHash } from "../../approval/record.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { conditionsInput } from "../../../test/kind-inputs.js";

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

kindRuleTester("approval-policy-mismatch", "approval", {
  valid: [{ name: "the policy, registry and host approved", input: conditionsInput() }],
  invalid: [
    { name: "another policy", input: conditionsInput({ policyHash: "sha256:old" }), errors: [{ messageId: "policy", expected: "sha256:old", actual: "sha256:policy" }] },
    {
      name: "a tool registry where there was none",
      input: conditionsInput({}, { toolsHash: "sha256:tools" }),
      errors: [{ messageId: "tools", message: "The approval was made with tool registry (none), but the registry in force is sha256:tools.", expected: null, actual: "sha256:tools" }],
    },
    {
      name: "another host",
      input: conditionsInput({ host: { name: "claude-code", hash: "sha256:cc" } }),
      errors: [{ messageId: "host", hint: "run with --host claude-code, or approve the plan again for generic", expected: "claude-code", actual: "generic" }],
    },
    { name: "the host's profile changed", input: conditionsInput({ host: { name: "generic", hash: "sha256:old" } }), errors: [{ messageId: "profile", expected: "sha256:old", actual: "sha256:host" }] },
  ],
});
