import { defineRule } from "../../core/rule.js";
import { isObject } from "../../core/type-name.js";
import { place, returnObject } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "return-session-mismatch",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      differ: 'session_id "{{top}}" and metadata.session_id "{{inMeta}}" differ; a return belongs to one session.',
      foreign: {
        message: 'Return session_id "{{id}}" does not match the delegated session "{{expected}}"; it may be a stale or foreign return.',
        hint: "discard the return and re-check the delegation; do not merge its artifacts",
      },
      none: 'The return carries no session id, so it cannot be matched to the delegated session "{{expected}}".',
    },
    summary: "The return's session id is not the delegated one.",
    docs: {
      description:
        "Reports a return whose `session_id` (or `metadata.session_id`) differs from `--session-id`, a return without any session id when one is expected, and a return whose `session_id` and `metadata.session_id` disagree.",
      rationale: "A return from another or an earlier session must not be merged into this one: it is how stale results and cross-talk between parallel subagents slip in (the orchestrator validation strategy: \"session_id matches expected\").",
      fix: "Discard the return and re-run the delegation; make the subagent echo the session id it was given.",
      bad: "plangate check-return r.json --session-id sess_2   # r.json says sess_1",
      good: "plangate check-return r.json --session-id sess_1",
    },
  },
  check(input, ctx) {
    const value = returnObject(input);
    if (!value) return;
    const meta = isObject(value.metadata) ? value.metadata : undefined;
    const top = typeof value.session_id === "string" ? value.session_id : undefined;
    const inMeta = typeof meta?.session_id === "string" ? meta.session_id : undefined;
    if (top !== undefined && inMeta !== undefined && top !== inMeta)
      ctx.report({ messageId: "differ", data: { top, inMeta }, expected: top, actual: inMeta, ...place(input, "/metadata/session_id") });
    const expected = input.expect.expectedSessionId;
    if (expected === undefined) return;
    for (const [id, pointer] of [
      [top, "/session_id"],
      [inMeta, "/metadata/session_id"],
    ] as const) {
      if (id !== undefined && id !== expected) ctx.report({ messageId: "foreign", data: { id, expected }, expected, actual: id, ...place(input, pointer) });
    }
    if (top === undefined && inMeta === undefined) ctx.report({ messageId: "none", data: { expected }, expected, ...place(input, "") });
  },
});
