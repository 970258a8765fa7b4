import { defineRule } from "../../core/rule.js";

export default defineRule({
  meta: {
    id: "approval-invalid",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    summary: "The approval file is not an approval record plangate wrote.",
    docs: {
      description:
        "Reports an approval that is not valid JSON, has duplicate keys, is a malformed DSSE envelope (unknown member, wrong payloadType, non-canonical base64), or whose record does not match the approval schema (missing or unknown fields, wrong status, a malformed hash or timestamp, a scope that is not an absolute path). Verification stops there. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "An approval is evidence; anything that is not exactly the record plangate issued could have been assembled by someone else, and a field added after signing must not ride along as an extra.",
      fix: "Pass the file `plangate approve` wrote, unmodified; approve the plan again if it was lost or edited.",
      bad: "{\"status\": \"approved\", \"plan_hash\": \"abc\"}",
      good: "{\"payloadType\": \"application/vnd.plangate.approval+json\", \"payload\": \"eyJzdGF0dXMiOiJhcHByb3ZlZCIs…\", \"signatures\": [{\"keyid\": \"…\", \"sig\": \"…\"}]}",
    },
  },
});
