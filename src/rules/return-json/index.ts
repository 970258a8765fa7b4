import { defineRule } from "../../core/rule.js";

/** Reported by the orchestration checks (src/orchestration), not by plan validation. */
export default defineRule({
  meta: {
    id: "return-json",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
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
});
