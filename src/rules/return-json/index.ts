import { defineRule } from "../../core/rule.js";
import { typeName } from "../../core/type-name.js";
import { returnObject } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "return-json",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      unreadable: { message: "Return file {{file}} cannot be read ({{reason}}).", hint: "check the path the subagent wrote its return to" },
      invalid: "The subagent return is not valid JSON: {{problem}}.",
      notObject: "The subagent return is {{kind}}, not a JSON object with status, summary, artifacts, metadata and session_id.",
    },
    summary: "The subagent return is not valid JSON or not an object.",
    docs: {
      description:
        "Reports a return that cannot be read as JSON (with the position of the fault), that contains duplicate keys or unsafe values (as in plans), or whose top level is not an object. The other return checks do not run.",
      rationale: "An orchestrator that guesses at a malformed return acts on data the subagent never meant (the orchestrator validation strategy: \"Return is valid JSON\").",
      fix: "Have the subagent print exactly one JSON object, without Markdown fences or commentary.",
      bad: "Here is my result: {\"status\": \"completed\"",
      good: "{\"status\": \"completed\", \"summary\": \"…\", \"artifacts\": [], \"metadata\": {}, \"session_id\": \"sess_1\"}",
    },
  },
  check(input, ctx) {
    for (const p of input.problems) {
      if (p.kind === "unreadable") ctx.report({ messageId: "unreadable", data: { file: p.file, reason: p.reason } });
      else
        ctx.report({
          messageId: "invalid",
          data: { problem: p.message },
          ...(p.hint ? { hint: p.hint } : {}),
          ...(p.start !== undefined ? { offsets: { start: p.start, end: p.end ?? p.start } } : {}),
        });
    }
    if (input.problems.length === 0 && !returnObject(input)) ctx.report({ messageId: "notObject", data: { kind: typeName(input.value, { integers: false }) }, offset: 0 });
  },
});
