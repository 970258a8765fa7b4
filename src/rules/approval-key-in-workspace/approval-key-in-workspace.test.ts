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

const POLICY_FOLDER = { dir: "/p", anchor: "policy", repository: false } as const;
const CWD_FOLDER = { dir: "/p", anchor: "cwd", repository: false } as const;
const AT = { file: "/p/plangate.yaml", line: 3, column: 16 };

kindRuleTester("approval-key-in-workspace", "approval", {
  valid: [
    { name: "a trusted key outside the workspace", input: envelopeInput() },
    { name: "a signing key outside the workspace", input: { step: "signing", key: "/keys/k.pem" } },
    {
      name: "a trusted key in a project folder that is also in a per-user key folder",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/p/cfg/plangate/k.pub", folder: POLICY_FOLDER, userFolder: "/p/cfg/plangate" } }),
    },
    { name: "a trusted key in a project folder that another user owns and no one else may write", input: envelopeInput({ signature: { ...VERIFIED, file: "/p/k.pub", folder: POLICY_FOLDER, foreign: true } }) },
    { name: "a signing key in a per-user key folder", input: { step: "signing", key: "/home/me/.ssh/k.pem", folder: CWD_FOLDER, userFolder: "/home/me/.ssh" } },
    { name: "a key file with one name", input: envelopeInput({ signature: { ...VERIFIED, links: 1 } }) },
    {
      name: "a trusted key named by a policy the project may edit, in a per-user key folder",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/home/me/.ssh/k.pub", userFolder: "/home/me/.ssh", namedAt: AT, namedByProject: true } }),
    },
    { name: "a trusted key named by a policy the project may edit, another user's", input: envelopeInput({ signature: { ...VERIFIED, file: "/etc/plangate/k.pub", foreign: true, namedAt: AT, namedByProject: true } }) },
    { name: "a trusted key named by the user's own policy, anywhere outside the project", input: envelopeInput({ signature: { ...VERIFIED, file: "/srv/k.pub", namedAt: AT, namedByProject: false } }) },
    { name: "an envelope that did not open is not judged here", input: envelopeInput({ unreadable: { kind: "json" }, signature: { ...VERIFIED, links: 3 } }) },
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
    {
      name: "the trusted key lives beside the policy file, named there: reported at the setting",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/p/evil.pub", folder: POLICY_FOLDER, namedAt: { file: "/p/plangate.yaml", line: 3, column: 16 } } }),
      errors: [
        {
          messageId: "trustedKeyInFolder",
          message:
            "The trusted key /p/evil.pub lives inside /p, the folder of the policy file: whoever writes the project could plant their own key there (a policy they edit can name any key and move its workspace away).",
          hint: "keep trusted keys in ~/.config/plangate (or $XDG_CONFIG_HOME/plangate) or ~/.ssh, or in a file owned by another user that you cannot write (e.g. root's /etc/plangate), outside every project",
          line: 3,
          column: 16,
        },
      ],
    },
    {
      name: "the trusted key lives in the repository holding the folder plangate runs in",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/r/evil.pub", folder: { dir: "/r", anchor: "cwd", repository: true } } }),
      errors: [{ messageId: "trustedKeyInFolder", message: /lives inside \/r, the repository holding the folder plangate runs in:/ }],
    },
    {
      name: "a trusted key another user owns is still the plan's to replace when its group may write it (foreign is false)",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/p/k.pub", folder: { dir: "/p", anchor: "plan", repository: false }, foreign: false } }),
      errors: [{ messageId: "trustedKeyInFolder", message: /the folder of the plan:/ }],
    },
    {
      name: "a signing key another user owns is still readable from the project (owning is for trusted keys)",
      input: { step: "signing", key: "/p/k.pem", folder: CWD_FOLDER, foreign: true },
      errors: [
        {
          messageId: "signingKeyInFolder",
          message: "The signing key /p/k.pem lives inside /p, the folder plangate runs in: whoever writes the project could read it there and sign their own approvals.",
          hint: "keep the signing key in ~/.config/plangate (plangate keygen --out ~/.config/plangate) or ~/.ssh, outside every project",
        },
      ],
    },
    {
      name: "a trusted key outside every project folder, named by a policy the project may edit",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/tmp/evil.pub", namedAt: { file: "/p/plangate.yaml", line: 3, column: 16 }, namedByProject: true } }),
      errors: [
        {
          messageId: "trustedKeyNamedByProject",
          message:
            "The trusted key /tmp/evil.pub is named by /p/plangate.yaml, a policy file whoever writes the project may edit, and lies outside the per-user key folders: they could name a key of their own anywhere they can write (a temporary folder, another project).",
          hint: /; or keep the policy there too \(--policy ~\/\.config\/plangate\/plangate\.yaml\), or name the key yourself \(--trusted-keys\)$/,
          line: 3,
          column: 16,
        },
      ],
    },
    {
      name: "a signing key outside every project folder, named by a policy the project may edit",
      input: { step: "signing", key: "/tmp/k.pem", namedAt: { file: "/p/plangate.yaml", line: 5, column: 8 }, namedByProject: true },
      errors: [{ messageId: "signingKeyNamedByProject", message: /^The signing key \/tmp\/k\.pem is named by \/p\/plangate\.yaml, a policy file/, line: 5, column: 8 }],
    },
    {
      name: "a trusted key with two names (hard links)",
      input: envelopeInput({ signature: { ...VERIFIED, links: 2 } }),
      errors: [
        {
          messageId: "trustedKeyLinked",
          message: "The trusted key /keys/alice.pub has 2 names (hard links): a write through another name, perhaps inside the workspace, changes the key without touching this one.",
          hint: "give the key file a single name: copy it (cp, not ln) to a new file, point plangate at the copy, and delete the file with several names",
        },
      ],
    },
    {
      name: "a signing key with three names, in a per-user key folder",
      input: { step: "signing", key: "/home/me/.ssh/k.pem", userFolder: "/home/me/.ssh", links: 3 },
      errors: [{ messageId: "signingKeyLinked", message: /^The signing key \/home\/me\/\.ssh\/k\.pem has 3 names \(hard links\)/ }],
    },
    {
      name: "a key in the workspace with another name: both said",
      input: envelopeInput({ signature: { ...VERIFIED, file: "/ws/k.pub", workspace: "/ws", links: 2 } }),
      errors: [{ messageId: "trustedKey" }, { messageId: "trustedKeyLinked" }],
    },
  ],
});
