import { defineRule } from "../../core/rule.js";

/**
 * An "approval" rule: it judges each step of reading an approval: the file, its JSON, its envelope, its schema and its scope. The approval code (src/approval) reads, opens and verifies; this rule
 * decides on what it found. Always an error: the policy cannot lower an approval check.
 */
export default defineRule({
  meta: {
    id: "approval-invalid",
    input: "approval",
    defaultSeverity: "error",
    phase: "approval",
    messages: {
      fileUnreadable: { message: "The approval file {{file}} cannot be read ({{code}}).", hint: "check the --approval path" },
      notJson: { message: "The approval file is not valid JSON (or has duplicate keys).", hint: "pass the file `plangate approve` wrote, unmodified" },
      envelope: { message: "The approval envelope is malformed: {{problem}}.", hint: "pass the DSSE envelope `plangate approve --key` wrote, unmodified" },
      schema: { message: "The approval record does not match the approval schema: {{errors}}.", hint: "use the record `plangate approve` wrote, unmodified" },
      relativeScope: { message: "The approval's scope {{scope}} is not an absolute path.", hint: "approve the plan again; plangate writes the workspace's real path" },
    },
    summary: "The approval file is not an approval record plangate wrote.",
    docs: {
      description:
        "Reports an approval that is not valid JSON, has duplicate keys, is a malformed DSSE envelope (unknown member, wrong payloadType, non-canonical base64, more than 16 signatures), or whose record does not match the approval schema (missing or unknown fields, wrong status, a malformed hash or timestamp, a scope that is not an absolute path). Verification stops there. Like every approval check it is always an error: the policy's `rules:` cannot lower it (a policy edited to switch it off would itself be the attack).",
      rationale: "An approval is evidence; anything that is not exactly the record plangate issued could have been assembled by someone else, and a field added after signing must not ride along as an extra.",
      fix: "Pass the file `plangate approve` wrote, unmodified; approve the plan again if it was lost or edited.",
      bad: "{\"status\": \"approved\", \"plan_hash\": \"abc\"}",
      good: "{\"payloadType\": \"application/vnd.plangate.approval+json\", \"payload\": \"eyJzdGF0dXMiOiJhcHByb3ZlZCIs…\", \"signatures\": [{\"keyid\": \"…\", \"sig\": \"…\"}]}",
    },
  },
  check(input, ctx) {
    if (input.step === "envelope") {
      const u = input.unreadable;
      if (u?.kind === "file") ctx.report({ messageId: "fileUnreadable", data: { file: u.file, code: u.code } });
      else if (u?.kind === "json") ctx.report({ messageId: "notJson" });
      else if (u?.kind === "envelope") ctx.report({ messageId: "envelope", data: { problem: u.problem } });
    } else if (input.step === "record") {
      if (input.schemaErrors.length > 0) ctx.report({ messageId: "schema", data: { errors: input.schemaErrors.join("; ") } });
    } else if (input.step === "conditions") {
      // A relative scope would resolve against whatever folder the verifier runs in, and so match it.
      if (input.scopeReal === undefined) ctx.report({ messageId: "relativeScope", data: { scope: JSON.stringify(input.approved.scope) } });
    }
  },
});
