import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "audit-chain-broken",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The audit trail was edited, reordered or cut.",
    docs: {
      description:
        "Reports, for `plangate audit verify LOG`, a line that is not JSON, a sequence number out of order (a line deleted, inserted or moved), a `prev` that is not the SHA-256 of the line before (a line edited), an unterminated last line, and with `--state` a line of the run whose MAC does not verify under the run's secret key (a line edited with the chain recomputed, a MAC removed or made with another key, a log copied from another run) and a log that does not end where the guard last wrote (a cut tail, an appended line). The guard refuses to append to a broken trail. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "The intake protocol asks that the audit trail be preserved; a hash chain makes a silent edit or deletion visible.",
      fix: "Restore the log from a copy; never edit it. Investigate why it changed.",
      bad: "{\"seq\":0,…,\"prev\":null}\n{\"seq\":2,…}   # line 1 deleted",
      good: "{\"seq\":0,…,\"prev\":null}\n{\"seq\":1,…,\"prev\":\"sha256:<hash of line 0>\"}",
    },
  },
});
