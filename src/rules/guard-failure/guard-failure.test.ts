import { describe, expect, it } from "vitest";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { cli } from "../../../test/cli-io.js";
import { ExecutionGuard, GuardRefusal } from "../../node/guard.js";
import { NOW } from "../../../test/helpers.js";
import { approvalKit, DEFAULT_POLICY_HASH } from "../../../test/approval-kit.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { guardInput, recordInput } from "../../../test/kind-inputs.js";
import type { GuardFailureFacts } from "../../core/input/approval.js";

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

const fails = (failure: GuardFailureFacts) => guardInput({ failure });
const DAMAGED = "run `plangate guard repair`, or approve a new plan and start a new run";

kindRuleTester("guard-failure", "approval", {
  valid: [
    { name: "a guard step with nothing that stops it", input: guardInput({}) },
    { name: "another approval step", input: recordInput() },
  ],
  invalid: [
    { name: "host profile", input: fails({ kind: "host-profile", from: "options", error: "no such host" }), errors: [{ messageId: "hostProfile", message: "The host profile cannot be used: no such host." }] },
    { name: "policy's host profile", input: fails({ kind: "host-profile", from: "policy", error: "bad" }), errors: [{ messageId: "policyHostProfile", hint: "fix the policy's host:" }] },
    {
      name: "guard file inside the workspace",
      input: fails({ kind: "inside-workspace", file: "consumed", path: "/ws/c", workspace: "/ws" }),
      errors: [{ messageId: "insideWorkspace", message: "The consumed-approval store /ws/c is inside the workspace /ws, where the plan's steps could rewrite it." }],
    },
    { name: "step without a tool", input: fails({ kind: "step-without-tool" }), errors: [{ messageId: "stepWithoutTool" }] },
    { name: "trail not a file", input: fails({ kind: "audit-not-a-file" }), errors: [{ messageId: "auditNotAFile" }] },
    {
      name: "state directory overlaps",
      input: fails({ kind: "state-dir-overlaps", root: "/ws/s", workspace: "/ws" }),
      errors: [{ messageId: "stateDirOverlaps", message: "The state directory /ws/s and the workspace /ws overlap, so the plan's steps could rewrite the guard's runs; keep the state directory outside the workspace." }],
    },
    { name: "state exists", input: fails({ kind: "state-exists", path: "/g/s.json" }), errors: [{ messageId: "stateExists" }] },
    { name: "session bound", input: fails({ kind: "session-bound", session: "s1", run: "r1" }), errors: [{ messageId: "sessionBound", message: 'The session "s1" already has a run (r1).' }] },
    { name: "no session id", input: fails({ kind: "no-session" }), errors: [{ messageId: "noSession" }] },
    { name: "subagent event without a session id", input: fails({ kind: "no-session", event: "SubagentStart" }), errors: [{ messageId: "eventWithoutSession", message: "The SubagentStart input has no session_id." }] },
    { name: "cwd in the state directory", input: fails({ kind: "cwd-in-state-dir", cwd: "/s/x", root: "/s" }), errors: [{ messageId: "cwdInStateDir" }] },
    { name: "binding vanished", input: fails({ kind: "binding-vanished" }), errors: [{ messageId: "bindingVanished", hint: "call again" }] },
    { name: "two pending runs at once", input: fails({ kind: "same-time", runs: ["a", "b"], cwd: "/ws" }), errors: [{ messageId: "sameTime", message: "Two pending runs (a, b) were started at the same time for /ws; which one this session runs cannot be decided." }] },
    { name: "never claimed", input: fails({ kind: "never-claimed", run: "r1", status: "stopped" }), errors: [{ messageId: "neverClaimed", message: "The run r1 is stopped and was never claimed." }] },
    { name: "claimed by another session", input: fails({ kind: "claimed-by-other", run: "r1" }), errors: [{ messageId: "claimedByOther" }] },
    { name: "stopped", input: fails({ kind: "stopped", run: "r1" }), errors: [{ messageId: "stopped", message: "The run r1 was stopped; no call runs in it." }] },
    { name: "stopped, with a reason", input: fails({ kind: "stopped", run: "r1", reason: "done" }), errors: [{ messageId: "stoppedBecause", message: "The run r1 was stopped (done); no call runs in it." }] },
    { name: "cannot ask", input: fails({ kind: "cannot-ask", step: 3 }), errors: [{ messageId: "cannotAsk", step: 3, message: "Step 3 asks the person to confirm it, and the exit-code answer cannot ask." }] },
    { name: "no run", input: fails({ kind: "no-run", why: "no cwd", ask: false }), errors: [{ messageId: "noRun", message: "No run for this session: no cwd." }] },
    { name: "no run, ask by exit code", input: fails({ kind: "no-run", why: "no cwd", ask: true }), errors: [{ messageId: "noRunCannotAsk" }] },
    {
      name: "damaged progress, a call",
      input: fails({ kind: "progress-damaged", damage: "bad cursor", event: { call: "Bash" } }),
      errors: [{ messageId: "damagedCall", message: 'The run\'s progress is damaged (bad cursor), so the call to "Bash" cannot be placed in the plan.', hint: DAMAGED }],
    },
    { name: "damaged progress, a start", input: fails({ kind: "progress-damaged", damage: "bad cursor", event: { start: "A" } }), errors: [{ messageId: "damagedStart" }] },
    { name: "damaged progress, a stop", input: fails({ kind: "progress-damaged", damage: "bad cursor", event: { stop: "A" } }), errors: [{ messageId: "damagedStop" }] },
    ...(
      [
        [{ kind: "not-object" }, "hookInputNotObject", "the hook input is not a JSON object"],
        [{ kind: "not-string", key: "session_id" }, "hookMemberNotString", "the hook input's session_id is not a string"],
        [{ kind: "not-event-name", value: "Pre Tool" }, "hookEventName", 'the hook input\'s hook_event_name "Pre Tool" is not an event name'],
        [{ kind: "relative-cwd", value: "rel/dir" }, "hookCwdRelative", 'the hook input\'s cwd "rel/dir" is not an absolute path'],
        [{ kind: "no-tool-name" }, "hookNoToolName", "the hook input has no tool_name"],
        [{ kind: "tool-input-not-object" }, "hookToolInputNotObject", "the hook input's tool_input is not an object"],
      ] as const
    ).map(([problem, messageId, message]) => ({ name: `hook input: ${problem.kind}`, input: fails({ kind: "hook-input", problem }), errors: [{ messageId, message, hint: undefined }] })),
    { name: "a --timeout that is no number", input: fails({ kind: "bad-timeout", value: "5s" }), errors: [{ messageId: "badTimeout", message: '--timeout must be a positive whole number of milliseconds, not "5s"' }] },
    { name: "no decision in time", input: fails({ kind: "timeout", ms: 5000 }), errors: [{ messageId: "timeout", message: "no decision within 5000 ms" }] },
    {
      name: "an event the guard decides nothing for",
      input: fails({ kind: "other-event", event: "Notification" }),
      errors: [{ messageId: "otherEvent", message: 'the guard answers PreToolUse hooks, not "Notification" (configure `plangate guard` under PreToolUse)' }],
    },
    {
      name: "a permission request",
      input: fails({ kind: "other-event", event: "PermissionRequest", tool: "Bash" }),
      errors: [{ messageId: "permissionRequest", message: "plangate does not grant permission requests (Bash): only approved steps run, decided at PreToolUse" }],
    },
    {
      name: "a permission request without a tool",
      input: fails({ kind: "other-event", event: "PermissionRequest" }),
      errors: [{ messageId: "permissionRequestNoTool", message: "plangate does not grant permission requests (no tool): only approved steps run, decided at PreToolUse" }],
    },
  ],
});
