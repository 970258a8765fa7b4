import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "audit-unauthenticated",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
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
});
