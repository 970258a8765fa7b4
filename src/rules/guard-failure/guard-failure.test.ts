import { describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cli } from "../../../test/cli-io.js";
import { ExecutionGuard, GuardRefusal } from "../../approval/guard.js";
import { NOW } from "../../../test/helpers.js";
import { approvalKit, DEFAULT_POLICY_HASH } from "../../../test/approval-kit.js";

describe("guard-failure", () => {
  it("blocks the hook (exit 2) on bad input or a missing state", async () => {
    const k = approvalKit();
    const state = join(k.guardDir, "missing.json");
    const call = '{"hook_event_name":"PreToolUse","tool_name":"read_file","tool_input":{"path":"in.txt"}}';
    for (const stdin of ["not json", "[]", '{"tool_name": 3}', call]) {
      const r = await cli(["guard", "--state", state], { stdin });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/blocked/);
    }
  });
  it("refuses guard files inside the workspace, and opens with them outside", async () => {
    const k = approvalKit();
    const approval = k.sign(await k.record());
    const base = { plan: k.planFile, approval, workspace: k.workspace, policyHash: DEFAULT_POLICY_HASH, tools: k.tools, trustedKeys: k.trustedKeys, now: () => NOW };
    mkdirSync(join(k.workspace, "g"));
    const refused = await ExecutionGuard.open({ ...base, audit: join(k.workspace, "g", "audit.log"), consumedDir: join(k.guardDir, "c") }).catch((e) => e);
    expect(refused).toBeInstanceOf(GuardRefusal);
    expect((refused as GuardRefusal).diagnostics.map((d) => d.rule)).toEqual(["guard-failure"]);
    const guard = await ExecutionGuard.open({ ...base, audit: join(k.guardDir, "audit.log"), consumedDir: join(k.guardDir, "c") });
    expect(guard.next).toBe(0);
  });
});
