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
import type { MessageData } from "../../core/rule.js";
import { GUARD_DECISIONS, type GuardDecisionId, guardDecision } from "./decisions.js";

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
const RUN = "0123456789abcdef0123456789abcdef";
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
    {
      name: "runs that cannot be read beside the pending ones",
      input: fails({ kind: "runs-unreadable", count: 2, problem: "the run file /s/runs/x.json is not a plangate run" }),
      errors: [{ messageId: "runsUnreadable" }],
    },
    {
      name: "state another user could write",
      input: fails({ kind: "untrusted-place", problem: "the state directory /srv/s is writable by every user (mode 0777), who could rewrite it: chmod go-w /srv/s" }),
      errors: [{ messageId: "untrustedPlace", message: "The guard's own state is not private: the state directory /srv/s is writable by every user (mode 0777), who could rewrite it: chmod go-w /srv/s." }],
    },
    {
      name: "no per-user store of consumed approvals",
      input: fails({ kind: "no-consumed-store" }),
      errors: [
        {
          messageId: "noConsumedStore",
          hint: "set HOME or XDG_STATE_HOME (the store is then $XDG_STATE_HOME/plangate/consumed), or name the store of consumed approvals: PLANGATE_CONSUMED_DIR=DIR, or --consumed-dir DIR with a state directory",
        },
      ],
    },
    { name: "session bound", input: fails({ kind: "session-bound", session: "s1", run: "r1" }), errors: [{ messageId: "sessionBound", message: 'The session "s1" already has a run (r1).' }] },
    { name: "no session id", input: fails({ kind: "no-session" }), errors: [{ messageId: "noSession" }] },
    { name: "subagent event without a session id", input: fails({ kind: "no-session", event: "SubagentStart" }), errors: [{ messageId: "eventWithoutSession", message: "The SubagentStart input has no session_id." }] },
    { name: "cwd in the state directory", input: fails({ kind: "cwd-in-state-dir", cwd: "/s/x", root: "/s" }), errors: [{ messageId: "cwdInStateDir" }] },
    { name: "binding vanished", input: fails({ kind: "binding-vanished" }), errors: [{ messageId: "bindingVanished", hint: "call again" }] },
    { name: "two pending runs at once", input: fails({ kind: "same-time", runs: ["a", "b"], cwd: "/ws" }), errors: [{ messageId: "sameTime", message: "Two pending runs (a, b) were started at the same time for /ws; which one this session runs cannot be decided." }] },
    { name: "never claimed", input: fails({ kind: "never-claimed", run: "r1", status: "stopped" }), errors: [{ messageId: "neverClaimed", message: "The run r1 is stopped and was never claimed." }] },
    { name: "claimed by another session", input: fails({ kind: "claimed-by-other", run: "r1" }), errors: [{ messageId: "claimedByOther" }] },
    { name: "stopped", input: fails({ kind: "stopped", run: "r1" }), errors: [{ messageId: "stopped", message: "The run r1 was stopped; no call runs in it." }] },
    {
      name: "a call ran that the guard did not allow",
      input: fails({ kind: "ran-unallowed", run: "r1", tool: "Bash", event: "PostToolUse" }),
      errors: [
        {
          messageId: "ranUnallowed",
          message:
            'The "Bash" call that ran (PostToolUse) is not a call the guard allowed in the run r1: its input is not the one the guard decided on (another hook rewrote it after the guard allowed it, with updatedInput), or the guard never saw it. The call has run; the run is stopped and every later call is denied.',
          hint: "check what the call did, remove the hook that rewrites tool inputs beside the guard (or keep its matcher off the tools a run guards), then approve the plan again and run `plangate guard start`",
        },
      ],
    },
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
    { name: "a --timeout that is no number", input: fails({ kind: "bad-timeout", value: "5s" }), errors: [{ messageId: "badTimeout", message: '--timeout must be a positive whole number of milliseconds up to 2147483647, not "5s"' }] },
    { name: "no decision in time", input: fails({ kind: "timeout", ms: 5000 }), errors: [{ messageId: "timeout", message: "no decision within 5000 ms" }] },
    { name: "a subagent's plan", input: fails({ kind: "plan-not-accepted", why: "agent", agent: "a1" }), errors: [{ messageId: "planAcceptedInAgent" }] },
    { name: "an agent's plan (isAgent)", input: fails({ kind: "plan-not-accepted", why: "response-agent" }), errors: [{ messageId: "planAcceptedAsAgent" }] },
    { name: "a plan awaiting a team lead", input: fails({ kind: "plan-not-accepted", why: "leader" }), errors: [{ messageId: "planAwaitsLeader" }] },
    { name: "another plan accepted than the one checked", input: fails({ kind: "plan-not-accepted", why: "other-plan" }), errors: [{ messageId: "planNotTheOneShown" }] },
    { name: "a decision reached after the host was answered", input: fails({ kind: "answered" }), errors: [{ messageId: "answered", message: "the call was already denied (no decision in time), so the decision reached after it takes nothing" }] },
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
    // The guard's state and its stores: each the text the guard wrote before its words moved here.
    ...(
      [
        [{ kind: "state-unreadable", path: "/g/s.json", code: "ENOENT" }, "stateMissing", "the guard state /g/s.json does not exist; run `plangate guard start` first"],
        [{ kind: "state-unreadable", path: "/g/s.json", code: "EACCES" }, "stateUnreadable", "the guard state /g/s.json cannot be read (EACCES)"],
        [{ kind: "not-a-state", path: "/g/s.json" }, "notAState", "the guard state /g/s.json is not a plangate guard state"],
        [{ kind: "keyless-state", path: "/g/s.json" }, "keylessState", "the guard state /g/s.json was written by plangate 0.1 and has no audit key; approve the plan again and run `plangate guard start`"],
        [{ kind: "locked", lock: "/g/s.json.lock" }, "locked", "the guard state is locked by /g/s.json.lock; if no guard is running (a crash), remove that file"],
        [{ kind: "not-an-id", what: "run", value: "../x" }, "notARunId", 'not a run id: "../x" (32 hex digits, as `plangate guard status` lists them)'],
        [{ kind: "not-an-id", what: "run", value: "y".repeat(100) }, "notARunId", `not a run id: "${"y".repeat(80)}" (32 hex digits, as \`plangate guard status\` lists them)`],
        [{ kind: "not-an-id", what: "nonce", value: "../x" }, "notANonce", 'not a nonce: "../x"'],
        [{ kind: "not-an-id", what: "plan-hash", value: "z".repeat(90) }, "notAPlanHash", `not a plan hash: "${"z".repeat(80)}"`],
        [{ kind: "run-not-found", run: RUN, location: "/s" }, "runNotFound", `the run ${RUN} does not exist in /s`],
        [{ kind: "session-without-run", session: "s1", location: "/s" }, "sessionWithoutRun", 'the session "s1" has no run in /s'],
        [{ kind: "run-unreadable", path: "/s/runs/r.json", code: "EISDIR" }, "runUnreadable", "the run /s/runs/r.json cannot be read (EISDIR)"],
        [{ kind: "not-a-run", path: "/s/runs/r.json" }, "notARun", "the run file /s/runs/r.json is not a plangate run"],
        [{ kind: "bad-run-row", run: RUN, location: "postgres://db/x", problem: "json" }, "runRowNotJson", `the run ${RUN} in postgres://db/x is not JSON`],
        [{ kind: "bad-run-row", run: RUN, location: "postgres://db/x", problem: "calls" }, "runRowCalls", `the run ${RUN} in postgres://db/x holds calls that are not compiled calls`],
        [{ kind: "bad-run-row", run: RUN, location: "postgres://db/x", problem: "run" }, "runRowNotRun", `the run ${RUN} in postgres://db/x is not a plangate run`],
        [{ kind: "damaged-calls", file: "/s/runs/r.calls", problem: "short" }, "callsShort", "the run's calls file /s/runs/r.calls is shorter than its index"],
        [{ kind: "damaged-calls", file: "/s/runs/r.calls.idx", problem: "index" }, "callsIndex", "the run's calls index /s/runs/r.calls.idx is damaged"],
        [{ kind: "damaged-calls", file: "/s/runs/r.calls", problem: "json", call: 2 }, "callNotJson", "the run's call 2 in /s/runs/r.calls is not JSON"],
        [{ kind: "damaged-calls", file: "/s/runs/r.calls", problem: "not-a-call", call: 3 }, "callNotCompiled", "the run's call 3 in /s/runs/r.calls is not a compiled call"],
        [{ kind: "calls-read-only" }, "callsReadOnly", "a run's compiled calls are read-only"],
        [{ kind: "binding-unreadable", code: "EACCES" }, "bindingUnreadable", "the session binding cannot be read (EACCES)"],
        [{ kind: "binding-not-a-run", key: "abc" }, "bindingNotARun", "the session binding abc does not name a run"],
        [{ kind: "not-a-key", file: "/s/audit.key" }, "dirKeyNotAKey", "the state directory's key /s/audit.key is not a key"],
        [{ kind: "not-a-key", location: "postgres://db/x" }, "storeKeyNotAKey", "the store's no-run audit key in postgres://db/x is not a key"],
        [{ kind: "trail-broken", error: "line 2 is not JSON" }, "trailBroken", "the audit trail is broken: line 2 is not JSON"],
        [{ kind: "trail-broken", error: "line 2 is not JSON", noRunFile: "/s/audit/no-run-k.jsonl" }, "noRunTrailBroken", "the no-run audit trail /s/audit/no-run-k.jsonl is broken: line 2 is not JSON"],
        [{ kind: "trail-end", run: RUN, error: "The trail is longer.", then: "repair" }, "trailEnd", `the audit trail of run ${RUN} does not end where the run says: The trail is longer. If a guard was interrupted, run \`plangate guard repair ${RUN}\``],
        [{ kind: "trail-end", run: RUN, error: "The trail is longer.", then: "repair-to-stop" }, "trailEndRepairToStop", `the audit trail of run ${RUN} does not end where the run says: The trail is longer. run \`plangate guard repair ${RUN}\` to stop it`],
        [{ kind: "trail-end", run: RUN, error: "The trail is longer.", then: "repair-first" }, "trailEndRepairFirst", `the audit trail of run ${RUN} does not end where the run says: The trail is longer. Run \`plangate guard repair ${RUN}\` first`],
        [{ kind: "trail-end", run: RUN, error: "The trail is longer.", then: { hint: "Ask the operator." } }, "trailEndHint", `the audit trail of run ${RUN} does not end where the run says: The trail is longer. Ask the operator.`],
        [{ kind: "trail-end", run: RUN, then: "repair-to-stop" }, "trailChanged", `the audit trail of run ${RUN} does not end where the run says (it was changed outside the guard). run \`plangate guard repair ${RUN}\` to stop it`],
        [{ kind: "trail-end", run: RUN, then: "repair-first" }, "trailChangedRepairFirst", `the audit trail of run ${RUN} does not end where the run says (it was changed outside the guard). Run \`plangate guard repair ${RUN}\` first`],
        [{ kind: "trail-end", run: RUN, then: { hint: "Ask the operator." } }, "trailChangedHint", `the audit trail of run ${RUN} does not end where the run says (it was changed outside the guard). Ask the operator.`],
        [{ kind: "trail-unreadable", path: "/l/audit.jsonl", run: RUN, code: "too-large" }, "trailUnreadable", `the audit trail /l/audit.jsonl of run ${RUN} cannot be read (too-large)`],
        [{ kind: "plan-bytes-hash" }, "planBytesHash", "the plan's bytes do not match their SHA-256"],
        [{ kind: "kept-plans-not-a-folder", dir: "/s/plans" }, "keptPlansNotAFolder", "/s/plans is not a folder (a symlink?): plans sent as text are kept in a folder of the state directory"],
        [{ kind: "consumed-dir-with-store", location: "postgres://db/x" }, "consumedDirWithStore", "a consumed-approval folder (--consumed-dir) goes with a file store; postgres://db/x records consumed approvals itself"],
        ...(
          [
            ["42P01", "storeNoSchema", "it has no plangate schema, or an older one: run `plangate store migrate --store URL`"],
            ["42703", "storeNoSchema", "it has no plangate schema, or an older one: run `plangate store migrate --store URL`"],
            ["28P01", "storeLoginRefused", "the login was refused"],
            ["28000", "storeLoginRefused", "the login was refused"],
            ["3D000", "storeNoDatabase", "the database does not exist"],
            ["55P03", "storeRowLocked", "a run's row stayed locked (lock_timeout): another guard holds it"],
            ["08006", "storeUnavailable", "it cannot be reached or used"],
          ] as const
        ).map(
          ([code, messageId, why]) =>
            [
              { kind: "store-unavailable", location: "postgres://db/x", code, error: "boom" },
              messageId,
              `the store postgres://db/x is unavailable: ${why} (${code}: boom); every call that needs it is denied until it is back`,
            ] as const,
        ),
        [{ kind: "store-unavailable", location: "postgres://db/x", code: "", error: "connect ECONNREFUSED" }, "storeUnavailable", "the store postgres://db/x is unavailable: it cannot be reached or used (connect ECONNREFUSED); every call that needs it is denied until it is back"],
      ] as const
    ).map(([failure, messageId, message]) => ({ name: `${failure.kind}: ${messageId}`, input: fails(failure as GuardFailureFacts), errors: [{ messageId, message, hint: undefined }] })),
  ],
});

describe("the guard's decisions", () => {
  it("word each allow, ask, ignore and audit reason as the guard wrote it", () => {
    const cases: [GuardDecisionId, MessageData | undefined, string][] = [
      ["allowNext", undefined, "the next approved step"],
      ["allowRepeat", { step: 2 }, "Step 2 of the approved plan, again: its call had not taken effect"],
      ["auditRepeat", { step: 2 }, "step 2 again: the same call, which had not taken effect"],
      ["auditSuperseded", undefined, "superseded: the person accepted another plan for this session in plan mode"],
      ["allowFree", { tool: "Read" }, "Read is free (guard.free): no step taken"],
      ["allowFreeNoRun", { tool: "Read" }, "Read is free (guard.noRun: allow-free)"],
      ["askNoRun", { why: "no cwd" }, "plangate: no approved run for this session (no cwd); allow this call?"],
      ["ignoreSubagentEvent", { event: "SubagentStart" }, "plangate guard: the SubagentStart event is not handled yet; nothing was decided"],
      ["ignoreNoToolEvent", { event: "Stop" }, "plangate guard: the Stop event runs no tool and grants no permission; nothing was decided (the guard decides PreToolUse)"],
      ["noRunNoCwd", undefined, "the hook input has no cwd, so no run can be claimed for the session"],
      ["noRunNoPending", { cwd: "/ws" }, "the session has no run and no pending run's scope holds /ws"],
      ["auditOpen", { steps: 3 }, "3 steps approved"],
      ["auditClaim", { cwd: "/ws" }, "claimed by the session's first call, from /ws"],
      ["auditClaimNoCwd", undefined, "claimed by the session's first call, from (no cwd)"],
      ["auditFree", { tool: "Read" }, "Read is a free tool: no step taken"],
      ["auditFreeNoRun", { tool: "Read" }, "Read is a free tool (guard.noRun: allow-free)"],
      ["auditSubagentStep", { step: 2, parent: 1 }, "step 2 of step 1's subagent"],
      [
        "auditRanUnallowed",
        { tool: "Bash", event: "PostToolUse" },
        "the host ran a call of Bash (PostToolUse) that the guard did not allow: its input was rewritten after the guard decided (another hook's updatedInput), or the guard never saw it",
      ],
      ["auditRepairComplete", undefined, "completed by guard repair: the last step's line was written"],
    ];
    expect(cases.map(([id]) => id).sort()).toEqual(Object.keys(GUARD_DECISIONS).sort());
    for (const [id, data, text] of cases) expect(guardDecision(id, data), id).toBe(text);
  });
  it("leave a placeholder's value as it is, braces and all", () => {
    expect(guardDecision("allowFree", { tool: "{{why}}" })).toBe("{{why}} is free (guard.free): no step taken");
  });
});
