import { defineRule } from "../../core/rule.js";

/**
 * The rule the hook and the service name when they refuse an input or a request they cannot decide on
 * (unreadable hook input, an internal error, a timeout): the answer's reason is then the error's own.
 */
export const GUARD_FAILURE = "guard-failure";

const REPAIR = "run `plangate guard repair`, or approve a new plan and start a new run";
const OWN_FILES = "keep the guard's files outside the workspace";
const PLAN_BY_PERSON = "have the person accept the plan in the main session's plan mode, or approve its file with `plangate approve PLAN --key KEY` and start it with `plangate guard start`";

/** The guard's own files, as its messages name them. */
const FILES = { audit: "audit trail", consumed: "consumed-approval store", state: "guard state" } as const;

/**
 * An "approval" rule: it reports that the execution guard cannot enforce an approval at all (its
 * state, its run, its host profile or its input unusable), so it belongs to the approval kind. The
 * guard's code (src/approval) records what stopped it as the guard step's `failure`; this rule words
 * it. Always an error.
 */
export default defineRule({
  meta: {
    id: "guard-failure",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      hostProfile: { message: "The host profile cannot be used: {{error}}.", hint: "pass a known host (claude-code, generic) or a valid profile file" },
      policyHostProfile: { message: "The policy's host profile cannot be used: {{error}}.", hint: "fix the policy's host:" },
      insideWorkspace: { message: "The {{what}} {{path}} is inside the workspace {{workspace}}, where the plan's steps could rewrite it.", hint: OWN_FILES },
      stepWithoutTool: { message: "The plan has a step without a tool, so no call can be matched to it.", hint: "give every step a tool" },
      auditNotAFile: { message: "The library guard writes its audit trail to a file.", hint: "pass `audit` (a file), not `auditChain`" },
      stateDirOverlaps: {
        message: "The state directory {{root}} and the workspace {{workspace}} overlap, so the plan's steps could rewrite the guard's runs; keep the state directory outside the workspace.",
        hint: "pass --state-dir DIR outside the workspace",
      },
      runsUnreadable: {
        message: "No run can be claimed for this session: {{count}} run file(s) of the state directory cannot be read, and one of them may be the oldest pending run of the session's folder, so claiming another would guess. The first: {{problem}}",
        hint: "run `plangate guard status` to see them, then repair (`plangate guard repair RUN`) or remove the damaged run, or bind the session with `guard start --session ID`",
      },
      untrustedPlace: {
        message: "The guard's own state is not private: {{problem}}.",
        hint: "keep the state directory and the store of consumed approvals in folders only you (or root) can write, such as the default ~/.local/state/plangate",
      },
      noConsumedStore: {
        message:
          "No per-user store of consumed approvals: neither HOME nor XDG_STATE_HOME is set, so a single-use approval used here could start another run from a fresh state directory or store.",
        hint: "set HOME or XDG_STATE_HOME (the store is then $XDG_STATE_HOME/plangate/consumed), or name the store of consumed approvals: PLANGATE_CONSUMED_DIR=DIR, or --consumed-dir DIR with a state directory",
      },
      stateExists: { message: "The guard state {{path}} already exists: a run is in progress or finished.", hint: "use a new state file for a new approval" },
      sessionBound: { message: "The session {{session}} already has a run ({{run}}).", hint: "stop it first with `plangate guard stop --session ID`, or start the run without --session" },
      noSession: { message: "The hook input has no session_id, so the call cannot be tied to a run.", hint: "run the guard as a Claude Code hook, or pass session_id" },
      eventWithoutSession: { message: "The {{event}} input has no session_id.", hint: "run the guard as a Claude Code hook" },
      cwdInStateDir: { message: "The session works in {{cwd}}, inside the state directory {{root}}.", hint: "keep the state directory outside the workspace" },
      bindingVanished: { message: "The session's binding vanished while it was being made.", hint: "call again" },
      sameTime: {
        message: "Two pending runs ({{first}}, {{second}}) were started at the same time for {{cwd}}; which one this session runs cannot be decided.",
        hint: "stop one (`plangate guard stop RUN`), or start runs with --session ID",
      },
      neverClaimed: { message: "The run {{run}} is {{status}} and was never claimed.", hint: "start a new run with `plangate guard start`" },
      claimedByOther: { message: "The run {{run}} was claimed by another session at the same moment.", hint: "call again: the session will claim the next pending run, if any" },
      stopped: { message: "The run {{run}} was stopped; no call runs in it.", hint: "approve the plan again and start a new run" },
      stoppedBecause: { message: "The run {{run}} was stopped ({{reason}}); no call runs in it.", hint: "approve the plan again and start a new run" },
      ranUnallowed: {
        message:
          "The {{tool}} call that ran ({{event}}) is not a call the guard allowed in the run {{run}}: its input is not the one the guard decided on (another hook rewrote it after the guard allowed it, with updatedInput), or the guard never saw it. The call has run; the run is stopped and every later call is denied.",
        hint: "check what the call did, remove the hook that rewrites tool inputs beside the guard (or keep its matcher off the tools a run guards), then approve the plan again and run `plangate guard start`",
      },
      cannotAsk: { message: "Step {{step}} asks the person to confirm it, and the exit-code answer cannot ask.", hint: "run the hook with --output claude" },
      noRun: { message: "No run for this session: {{why}}.", hint: "approve the plan and run `plangate guard start` (guard.noRun decides sessions without a run)" },
      noRunCannotAsk: { message: "No run for this session ({{why}}); guard.noRun is ask, and the exit-code answer cannot ask.", hint: "run the hook with --output claude, or start a run" },
      damagedCall: { message: "The run's progress is damaged ({{damage}}), so the call to \"{{tool}}\" cannot be placed in the plan.", hint: REPAIR },
      damagedStart: { message: "The run's progress is damaged ({{damage}}), so subagent {{agent}} cannot be placed in the plan; its calls are denied.", hint: REPAIR },
      damagedStop: { message: "The run's progress is damaged ({{damage}}), so the stop of subagent {{agent}} cannot be placed in the plan.", hint: REPAIR },
      // The hook's own answer (src/cli/hook-answer.ts, src/node/hook.ts): the reason of a deny, a clause.
      hookInputNotObject: "the hook input is not a JSON object",
      hookMemberNotString: "the hook input's {{key}} is not a string",
      hookEventName: "the hook input's hook_event_name {{value}} is not an event name",
      hookCwdRelative: "the hook input's cwd {{value}} is not an absolute path",
      hookNoToolName: "the hook input has no tool_name",
      hookToolInputNotObject: "the hook input's tool_input is not an object",
      badTimeout: '--timeout must be a positive whole number of milliseconds up to 2147483647, not "{{value}}"',
      timeout: "no decision within {{ms}} ms",
      answered: "the call was already denied (no decision in time), so the decision reached after it takes nothing",
      planAcceptedInAgent: {
        message: "The plan was accepted inside a subagent ({{agent}}), where Claude Code asks no person: plangate neither approves it nor starts a run for it.",
        hint: PLAN_BY_PERSON,
      },
      planAcceptedAsAgent: {
        message: "Claude Code reports the plan as accepted in an agent (tool_response.isAgent), where it asks no person: plangate neither approves it nor starts a run for it.",
        hint: PLAN_BY_PERSON,
      },
      planAwaitsLeader: {
        message: "The plan awaits a team lead's approval (tool_response.awaitingLeaderApproval), not the person's: plangate neither approves it nor starts a run for it.",
        hint: PLAN_BY_PERSON,
      },
      planNotTheOneShown: {
        message: "The plan Claude Code reports as accepted (tool_response.plan) is not the plan the hook was given (tool_input.plan), which is the one plangate checked: it may have been edited when it was accepted, so plangate neither approves it nor starts a run for it.",
        hint: PLAN_BY_PERSON,
      },
      otherEvent: "the guard answers PreToolUse hooks, not {{event}} (configure `plangate guard` under PreToolUse)",
      permissionRequest: "plangate does not grant permission requests ({{tool}}): only approved steps run, decided at PreToolUse",
      permissionRequestNoTool: "plangate does not grant permission requests (no tool): only approved steps run, decided at PreToolUse",
      // The guard's state and its store (src/node, src/store): the reason of a refusal, a clause.
      stateMissing: "the guard state {{path}} does not exist; run `plangate guard start` first",
      stateUnreadable: "the guard state {{path}} cannot be read ({{code}})",
      notAState: "the guard state {{path}} is not a plangate guard state",
      keylessState: "the guard state {{path}} was written by plangate 0.1 and has no audit key; approve the plan again and run `plangate guard start`",
      locked: "the guard state is locked by {{lock}}; if no guard is running (a crash), remove that file",
      notARunId: "not a run id: {{value}} (32 hex digits, as `plangate guard status` lists them)",
      notANonce: "not a nonce: {{value}}",
      notAPlanHash: "not a plan hash: {{value}}",
      runNotFound: "the run {{run}} does not exist in {{location}}",
      sessionWithoutRun: "the session {{session}} has no run in {{location}}",
      runUnreadable: "the run {{path}} cannot be read ({{code}})",
      notARun: "the run file {{path}} is not a plangate run",
      runRowNotJson: "the run {{run}} in {{location}} is not JSON",
      runRowCalls: "the run {{run}} in {{location}} holds calls that are not compiled calls",
      runRowNotRun: "the run {{run}} in {{location}} is not a plangate run",
      callsShort: "the run's calls file {{file}} is shorter than its index",
      callsIndex: "the run's calls index {{file}} is damaged",
      callNotJson: "the run's call {{call}} in {{file}} is not JSON",
      callNotCompiled: "the run's call {{call}} in {{file}} is not a compiled call",
      callsReadOnly: "a run's compiled calls are read-only",
      bindingUnreadable: "the session binding cannot be read ({{code}})",
      bindingNotARun: "the session binding {{key}} does not name a run",
      dirKeyNotAKey: "the state directory's key {{file}} is not a key",
      storeKeyNotAKey: "the store's no-run audit key in {{location}} is not a key",
      trailBroken: "the audit trail is broken: {{error}}",
      noRunTrailBroken: "the no-run audit trail {{file}} is broken: {{error}}",
      trailEnd: "the audit trail of run {{run}} does not end where the run says: {{error}} If a guard was interrupted, run `plangate guard repair {{run}}`",
      trailEndRepairToStop: "the audit trail of run {{run}} does not end where the run says: {{error}} run `plangate guard repair {{run}}` to stop it",
      trailEndRepairFirst: "the audit trail of run {{run}} does not end where the run says: {{error}} Run `plangate guard repair {{run}}` first",
      trailEndHint: "the audit trail of run {{run}} does not end where the run says: {{error}} {{hint}}",
      trailChanged: "the audit trail of run {{run}} does not end where the run says (it was changed outside the guard). run `plangate guard repair {{run}}` to stop it",
      trailChangedRepairFirst: "the audit trail of run {{run}} does not end where the run says (it was changed outside the guard). Run `plangate guard repair {{run}}` first",
      trailChangedHint: "the audit trail of run {{run}} does not end where the run says (it was changed outside the guard). {{hint}}",
      trailUnreadable: "the audit trail {{path}} of run {{run}} cannot be read ({{code}})",
      planBytesHash: "the plan's bytes do not match their SHA-256",
      keptPlansNotAFolder: "{{dir}} is not a folder (a symlink?): plans sent as text are kept in a folder of the state directory",
      consumedDirWithStore: "a consumed-approval folder (--consumed-dir) goes with a file store; {{location}} records consumed approvals itself",
      storeNoSchema: "the store {{location}} is unavailable: it has no plangate schema, or an older one: run `plangate store migrate --store URL` ({{detail}}); every call that needs it is denied until it is back",
      storeLoginRefused: "the store {{location}} is unavailable: the login was refused ({{detail}}); every call that needs it is denied until it is back",
      storeNoDatabase: "the store {{location}} is unavailable: the database does not exist ({{detail}}); every call that needs it is denied until it is back",
      storeRowLocked: "the store {{location}} is unavailable: a run's row stayed locked (lock_timeout): another guard holds it ({{detail}}); every call that needs it is denied until it is back",
      storeUnavailable: "the store {{location}} is unavailable: it cannot be reached or used ({{detail}}); every call that needs it is denied until it is back",
    },
    summary: "The guard could not decide, so the tool call is blocked.",
    docs: {
      description:
        "Reports what stops the guard from deciding: a missing or unreadable state file, hook input that is not a PreToolUse JSON object (unreadable, ambiguous or oversized input is blocked under `parse-error`, `duplicate-key`, `unsafe-value` or `limit-exceeded`), a state written by plangate 0.1 (no audit key), a lock held too long, a timeout, an internal error, guard files (audit trail, consumed store) inside the workspace, a `guard start` with no per-user store of consumed approvals (no HOME or XDG_STATE_HOME) and none named, a state file that already exists, a state directory, store of consumed approvals or state file that another user could write or replace (owned by another user, writable by others, or in a folder they can write), or a run, an audit trail or a store the guard cannot use (a damaged run file, a trail that does not end where the run says, a database that is down). The hook blocks the call (exit 2) in every such case. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "A security check that fails open is no check: a crash, a timeout or unreadable input must block, never read as allow.",
      fix: "Read the reason, fix the guard's setup (run `plangate guard start`, keep its files outside the workspace) and retry the call.",
      bad: "echo 'not json' | plangate guard --state state.json   # exit 2",
      good: "echo '{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"read_file\",\"tool_input\":{\"path\":\"in.txt\"}}' | plangate guard --state state.json",
    },
  },
  check(input, ctx) {
    if (input.step !== "guard" || !input.failure) return;
    const f = input.failure;
    switch (f.kind) {
      case "host-profile":
        return ctx.report({ messageId: f.from === "policy" ? "policyHostProfile" : "hostProfile", data: { error: f.error } });
      case "inside-workspace":
        return ctx.report({ messageId: "insideWorkspace", data: { what: FILES[f.file], path: f.path, workspace: f.workspace } });
      case "step-without-tool":
        return ctx.report({ messageId: "stepWithoutTool" });
      case "audit-not-a-file":
        return ctx.report({ messageId: "auditNotAFile" });
      case "state-dir-overlaps":
        return ctx.report({ messageId: "stateDirOverlaps", data: { root: f.root, workspace: f.workspace } });
      case "state-exists":
        return ctx.report({ messageId: "stateExists", data: { path: f.path } });
      case "runs-unreadable":
        return ctx.report({ messageId: "runsUnreadable", data: { count: f.count, problem: f.problem } });
      case "untrusted-place":
        return ctx.report({ messageId: "untrustedPlace", data: { problem: f.problem } });
      case "no-consumed-store":
        return ctx.report({ messageId: "noConsumedStore" });
      case "session-bound":
        return ctx.report({ messageId: "sessionBound", data: { session: JSON.stringify(f.session), run: String(f.run) } });
      case "no-session":
        return f.event === undefined ? ctx.report({ messageId: "noSession" }) : ctx.report({ messageId: "eventWithoutSession", data: { event: f.event } });
      case "cwd-in-state-dir":
        return ctx.report({ messageId: "cwdInStateDir", data: { cwd: f.cwd, root: f.root } });
      case "binding-vanished":
        return ctx.report({ messageId: "bindingVanished" });
      case "same-time":
        return ctx.report({ messageId: "sameTime", data: { first: f.runs[0], second: f.runs[1], cwd: f.cwd } });
      case "never-claimed":
        return ctx.report({ messageId: "neverClaimed", data: { run: f.run, status: f.status } });
      case "claimed-by-other":
        return ctx.report({ messageId: "claimedByOther", data: { run: f.run } });
      case "stopped":
        return f.reason ? ctx.report({ messageId: "stoppedBecause", data: { run: f.run, reason: f.reason } }) : ctx.report({ messageId: "stopped", data: { run: f.run } });
      case "ran-unallowed":
        return ctx.report({ messageId: "ranUnallowed", data: { tool: JSON.stringify(f.tool), event: f.event, run: f.run } });
      case "cannot-ask":
        return ctx.report({ messageId: "cannotAsk", data: { step: f.step }, step: f.step });
      case "no-run":
        return ctx.report({ messageId: f.ask ? "noRunCannotAsk" : "noRun", data: { why: f.why } });
      case "progress-damaged": {
        const e = f.event;
        if ("call" in e) return ctx.report({ messageId: "damagedCall", data: { damage: f.damage, tool: e.call } });
        if ("start" in e) return ctx.report({ messageId: "damagedStart", data: { damage: f.damage, agent: e.start } });
        return ctx.report({ messageId: "damagedStop", data: { damage: f.damage, agent: e.stop } });
      }
      case "hook-input": {
        const p = f.problem;
        switch (p.kind) {
          case "not-object":
            return ctx.report({ messageId: "hookInputNotObject" });
          case "not-string":
            return ctx.report({ messageId: "hookMemberNotString", data: { key: p.key } });
          case "not-event-name":
            return ctx.report({ messageId: "hookEventName", data: { value: JSON.stringify(p.value) } });
          case "relative-cwd":
            return ctx.report({ messageId: "hookCwdRelative", data: { value: JSON.stringify(p.value) } });
          case "no-tool-name":
            return ctx.report({ messageId: "hookNoToolName" });
          case "tool-input-not-object":
            return ctx.report({ messageId: "hookToolInputNotObject" });
        }
        return;
      }
      case "bad-timeout":
        return ctx.report({ messageId: "badTimeout", data: { value: f.value } });
      case "timeout":
        return ctx.report({ messageId: "timeout", data: { ms: f.ms } });
      case "answered":
        return ctx.report({ messageId: "answered" });
      case "plan-not-accepted": {
        const messageId = ({ agent: "planAcceptedInAgent", "response-agent": "planAcceptedAsAgent", leader: "planAwaitsLeader", "other-plan": "planNotTheOneShown" } as const)[f.why];
        return ctx.report({ messageId, data: { agent: JSON.stringify(f.agent ?? "") } });
      }
      case "other-event":
        if (f.event !== "PermissionRequest") return ctx.report({ messageId: "otherEvent", data: { event: JSON.stringify(f.event) } });
        return f.tool === undefined ? ctx.report({ messageId: "permissionRequestNoTool" }) : ctx.report({ messageId: "permissionRequest", data: { tool: f.tool } });
      case "state-unreadable":
        return ctx.report({ messageId: f.code === "ENOENT" ? "stateMissing" : "stateUnreadable", data: { path: f.path, code: f.code } });
      case "not-a-state":
        return ctx.report({ messageId: "notAState", data: { path: f.path } });
      case "keyless-state":
        return ctx.report({ messageId: "keylessState", data: { path: f.path } });
      case "locked":
        return ctx.report({ messageId: "locked", data: { lock: f.lock } });
      case "not-an-id":
        // A nonce is quoted whole; a run id or a plan hash, at most its first 80 characters.
        if (f.what === "nonce") return ctx.report({ messageId: "notANonce", data: { value: JSON.stringify(f.value) } });
        return ctx.report({ messageId: f.what === "run" ? "notARunId" : "notAPlanHash", data: { value: JSON.stringify(f.value.slice(0, 80)) } });
      case "run-not-found":
        return ctx.report({ messageId: "runNotFound", data: { run: f.run, location: f.location } });
      case "session-without-run":
        return ctx.report({ messageId: "sessionWithoutRun", data: { session: JSON.stringify(f.session), location: f.location } });
      case "run-unreadable":
        return ctx.report({ messageId: "runUnreadable", data: { path: f.path, code: f.code } });
      case "not-a-run":
        return ctx.report({ messageId: "notARun", data: { path: f.path } });
      case "bad-run-row":
        return ctx.report({ messageId: f.problem === "json" ? "runRowNotJson" : f.problem === "calls" ? "runRowCalls" : "runRowNotRun", data: { run: f.run, location: f.location } });
      case "damaged-calls":
        if (!("call" in f)) return ctx.report({ messageId: f.problem === "short" ? "callsShort" : "callsIndex", data: { file: f.file } });
        return ctx.report({ messageId: f.problem === "json" ? "callNotJson" : "callNotCompiled", data: { call: f.call, file: f.file } });
      case "calls-read-only":
        return ctx.report({ messageId: "callsReadOnly" });
      case "binding-unreadable":
        return ctx.report({ messageId: "bindingUnreadable", data: { code: f.code } });
      case "binding-not-a-run":
        return ctx.report({ messageId: "bindingNotARun", data: { key: f.key } });
      case "not-a-key":
        return "file" in f ? ctx.report({ messageId: "dirKeyNotAKey", data: { file: f.file } }) : ctx.report({ messageId: "storeKeyNotAKey", data: { location: f.location } });
      case "trail-broken":
        return f.noRunFile === undefined
          ? ctx.report({ messageId: "trailBroken", data: { error: f.error } })
          : ctx.report({ messageId: "noRunTrailBroken", data: { file: f.noRunFile, error: f.error } });
      case "trail-end": {
        const hint = typeof f.then === "object" ? f.then.hint : "";
        if (f.error === undefined) {
          const messageId = typeof f.then === "object" ? "trailChangedHint" : f.then === "repair-first" ? "trailChangedRepairFirst" : "trailChanged";
          return ctx.report({ messageId, data: { run: f.run, hint } });
        }
        const messageId = typeof f.then === "object" ? "trailEndHint" : f.then === "repair-first" ? "trailEndRepairFirst" : f.then === "repair-to-stop" ? "trailEndRepairToStop" : "trailEnd";
        return ctx.report({ messageId, data: { run: f.run, error: f.error, hint } });
      }
      case "trail-unreadable":
        return ctx.report({ messageId: "trailUnreadable", data: { path: f.path, run: f.run, code: f.code } });
      case "plan-bytes-hash":
        return ctx.report({ messageId: "planBytesHash" });
      case "kept-plans-not-a-folder":
        return ctx.report({ messageId: "keptPlansNotAFolder", data: { dir: f.dir } });
      case "consumed-dir-with-store":
        return ctx.report({ messageId: "consumedDirWithStore", data: { location: f.location } });
      case "store-unavailable": {
        const c = f.code;
        const messageId =
          c === "42P01" || c === "42703" ? "storeNoSchema" : c === "28P01" || c === "28000" ? "storeLoginRefused" : c === "3D000" ? "storeNoDatabase" : c === "55P03" ? "storeRowLocked" : "storeUnavailable";
        return ctx.report({ messageId, data: { location: f.location, detail: c ? `${c}: ${f.error}` : f.error } });
      }
    }
  },
});
