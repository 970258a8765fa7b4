import { defineRule } from "../../core/rule.js";

/** A "delegation" rule: it judges a delegation as src/orchestration/delegation.ts describes it, outside plan validation. */
export default defineRule({
  meta: {
    id: "session-id-reused",
    input: "delegation",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      malformed: { message: 'Session id "{{id}}" cannot be checked against the active registry: {{problem}}.', hint: "use an id such as sess_1735460684_a1b2c3" },
      blocked: {
        message: 'Session id "{{id}}" is blocked: {{why}}.',
        hint: "remove that entry from the session registry folder (a session entry is a small JSON file), or use a fresh session id",
      },
      active: {
        message: 'Session id "{{id}}" is already active{{held}}; give the new delegation a fresh session id.',
        hint: "generate a new id per delegation; release finished sessions with `plangate check-delegation --release`",
      },
    },
    summary: "The session id is already active in the shared registry.",
    docs: {
      description:
        "Reports a `--session-id` that has a live entry in the active-session registry (a folder of one file per id, default `.plangate/sessions/` in the workspace, shared by every process), and with `--register` an id another orchestrator registered first. Entries expire after `delegation.sessionTtlSeconds` (default 86400). Ids that could not be stored safely (path separators, `..`, over 128 characters, characters outside letters, digits, `.`, `_`, `:`, `-`) are refused too.",
      rationale: "Two delegations under one session id mix their returns: an orchestrator could accept a stale or foreign result as its own (the orchestrator validation strategy: \"session_id is unique\").",
      fix: "Generate a fresh id per delegation; release finished sessions with `plangate check-delegation --release --session-id ID`.",
      bad: "plangate check-delegation … --session-id sess_1  # sess_1 registered and not expired",
      good: "plangate check-delegation … --session-id sess_2 --register",
    },
  },
  check(input, ctx) {
    const id = input.sessionId;
    if (id === undefined) return;
    // A malformed id cannot be compared safely, so it is refused rather than skipped.
    if (input.sessionIdProblem !== undefined) {
      ctx.report({ messageId: "malformed", data: { id, problem: input.sessionIdProblem }, actual: id });
      return;
    }
    const entry = input.active;
    if (!entry) return;
    if (entry.unreadable) {
      ctx.report({ messageId: "blocked", data: { id, why: entry.unreadable }, actual: id });
      return;
    }
    const held = [entry.agent ? `delegated to "${entry.agent}"` : "", entry.expiresAt ? `expires ${entry.expiresAt}` : ""].filter(Boolean);
    ctx.report({ messageId: "active", data: { id, held: held.length ? ` (${held.join(", ")})` : "" }, actual: id });
  },
});
