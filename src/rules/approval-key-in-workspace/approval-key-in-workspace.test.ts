import { describe, expect, it } from "vitest";
import { copyFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { loadTrustedKeys } from "../../approval/keys.js";
import { approvalKit, rulesOf } from "../../../test/approval-kit.js";

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
