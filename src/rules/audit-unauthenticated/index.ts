import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges the audit trail step of the approval input: an intact chain whose
 * MACs could not be checked against the run's key. Always an error: the policy cannot lower an
 * approval check.
 */
export default defineRule({
  meta: {
    id: "audit-unauthenticated",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      unauthenticated: {
        message: "The chain is intact but not authenticated: {{why}}; anyone who can write the log could have rewritten it and recomputed the chain.",
        hint: "give --state STATE to check the MACs, or --chain-only to accept the hash chain alone",
      },
      unauthenticatedWithState: {
        message: "The chain is intact but not authenticated: {{why}}; anyone who can write the log could have rewritten it and recomputed the chain.",
        hint: "pass --chain-only to accept the hash chain alone",
      },
    },
    summary: "The audit trail's hash chain is intact, but nothing proves the guard wrote it.",
    docs: {
      description:
        "Reported by `plangate audit verify LOG` when the chain checks out but the lines' MACs could not be checked: no `--state` was given, or the state was written by plangate 0.1 and holds no audit key (0.1 logs have no MACs). A hash chain alone proves nothing against someone who can write the log: they can rewrite a deny as an allow and recompute every `prev`. Each line the guard writes carries an HMAC-SHA256 under a per-run secret kept only in the guard's state (mode 0600, outside the workspace); with `--state` the MACs are checked and such a rewrite is `audit-chain-broken`. `--chain-only` accepts the weaker proof explicitly (exit 0, and the output still says the log is not authenticated). Like every approval check it is always an error: the policy's `rules:` cannot lower it.",
      rationale: "A verifier that says \"intact\" for a log anyone could have recomputed gives false assurance; it must say what it proved.",
      fix: "Run `plangate audit verify LOG --state STATE` with the guard's state file; or pass `--chain-only` where the hash chain is all you need.",
      bad: "plangate audit verify run.audit.jsonl   # exit 1: chain intact; not authenticated",
      good: "plangate audit verify run.audit.jsonl --state run.json",
    },
  },
  check(input, ctx) {
    if (input.step !== "audit" || !input.unauthenticated) return;
    const u = input.unauthenticated;
    const why =
      u.keylessState !== undefined
        ? `the state ${u.keylessState} was written by plangate 0.1 and holds no audit key (0.1 logs carry no MACs)`
        : "no --state was given, so the MACs cannot be checked";
    ctx.report({ messageId: u.stateGiven ? "unauthenticatedWithState" : "unauthenticated", data: { why } });
  },
});
