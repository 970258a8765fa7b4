import { describe, expect, it } from "vitest";
import { copyFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadTrustedKeys } from "../../node/keys.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { VERIFIED, envelopeInput } from "../../../test/kind-inputs.js";

describe("approval-key-in-workspace", () => {
  it("reports a trusted key inside the workspace, also through a symlink", async () => {
    const k = approvalKit();
    const inside = join(k.workspace, "trusted.pub");
    copyFileSync(k.keys.publicFile, inside);
    expect(rulesOf(await k.verify(k.sign(await k.record()), { trustedKeys: loadTrustedKeys(inside) }))).toEqual(["approval-key-in-workspace"]);
    // A link from outside into the workspace is still a key the plan could rewrite.
    const link = join(k.root, "link.pub");
    symlinkSync(inside, link);
    expect(rulesOf(await k.verify(k.sign(await k.record()), { trustedKeys: loadTrustedKeys(link) }))).toEqual(["approval-key-in-workspace"]);
  });
  it("accepts a key outside the workspace", async () => {
    const k = approvalKit();
    expect(rulesOf(await k.verify(k.sign(await k.record())))).toEqual([]);
  });
});

kindRuleTester("approval-key-in-workspace", "approval", {
  valid: [
    { name: "a trusted key outside the workspace", input: envelopeInput() },
    { name: "a signing key outside the workspace", input: { step: "signing", key: "/keys/k.pem" } },
  ],
  invalid: [
    {
      name: "the trusted key lives in the workspace",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/ws/keys/k.pub", workspace: "/ws" } }),
      errors: [{ messageId: "trustedKey", message: "The trusted key /ws/keys/k.pub lives inside the workspace /ws, which the plan may write: an agent could replace it with its own." }],
    },
    {
      name: "the trusted key lives in the repository holding the workspace, outside it",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/repo/evil.pub", project: "/repo" } }),
      errors: [{ messageId: "trustedKeyInProject", message: "The trusted key /repo/evil.pub lives inside the repository /repo that holds the workspace: whoever writes the project (its policy file included) could replace it with their own." }],
    },
    {
      name: "the signing key lives in the repository holding the workspace, outside it",
      input: { step: "signing", key: "/repo/k.pem", project: "/repo" },
      errors: [{ messageId: "signingKeyInProject", hint: "move the key outside every repository (plangate keygen --out ~/.config/plangate)" }],
    },
    {
      name: "the signing key lives in the workspace",
      input: { step: "signing", key: "/ws/k.pem", workspace: "/ws" },
      errors: [{ messageId: "signingKey", hint: "move the key outside the workspace (plangate keygen --out ~/.config/plangate)" }],
    },
  ],
});
