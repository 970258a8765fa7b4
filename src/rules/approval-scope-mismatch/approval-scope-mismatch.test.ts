import { describe, expect, it } from "vitest";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { conditionsInput } from "../../../test/kind-inputs.js";

describe("approval-scope-mismatch", () => {
  it("reports an approval for another workspace", async () => {
    const k = approvalKit();
    const other = join(k.root, "other");
    mkdirSync(other);
    expect(rulesOf(await k.verify(k.sign(await k.record()), { workspace: other }))).toEqual(["approval-scope-mismatch"]);
  });
  it("accepts the approved workspace, also through a symlink", async () => {
    const k = approvalKit();
    const link = join(k.root, "ws-link");
    symlinkSync(k.workspace, link);
    expect(rulesOf(await k.verify(k.sign(await k.record()), { workspace: link }))).toEqual([]);
  });
});

kindRuleTester("approval-scope-mismatch", "approval", {
  valid: [
    { name: "the approved workspace", input: conditionsInput() },
    { name: "a relative scope: approval-invalid's", input: conditionsInput({ scope: "ws" }, { scopeReal: undefined }) },
  ],
  invalid: [
    {
      name: "another workspace",
      input: conditionsInput({ scope: "/other" }, { scopeReal: "/other" }),
      errors: [{ messageId: "otherWorkspace", message: "The approval is for workspace /other, not /ws.", expected: "/other", actual: "/ws" }],
    },
  ],
});
