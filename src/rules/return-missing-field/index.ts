import { defineRule } from "../../core/rule.js";
import { escapeToken } from "../../core/pointer.js";
import { quoteList } from "../../core/quote-list.js";
import { isObject, typeName } from "../../core/type-name.js";
import { has, place, returnObject } from "../returns.js";

/** A "return" rule: it judges a subagent's return as src/orchestration/return.ts reads it, outside plan validation. */
export default defineRule({
  meta: {
    id: "return-missing-field",
    input: "return",
    defaultSeverity: "error",
    phase: "orchestration",
    messages: {
      wrongType: "`{{name}}` must be {{want}}, not {{actual}}.",
      metadataSessionId: "`metadata.session_id` must be a string.",
      missing: { message: "The subagent return has no `{{name}}`{{where}}{{alternative}}; it is required.", hint: "required fields: {{required}} (returns.requiredFields)" },
      bareArtifact: { message: "Artifact {{n}} is a bare path; this policy wants objects with {{fields}}.", hint: 'write {"type": "…", "path": "{{path}}"} (returns.artifactFields)' },
      artifactField: "Artifact {{n}} has no `{{field}}`; it is required.",
      badArtifact: "Artifact {{n}} must be a path or an object with a string `path`, not {{actual}}{{without}}.",
    },
    summary: "A required field of the return is absent or has the wrong type.",
    docs: {
      description:
        "Reports a return without one of `returns.requiredFields` (default the orchestrator validation strategy's five: `status`, `summary`, `artifacts`, `metadata`, `session_id`; `session_id` may sit in `metadata.session_id`; dotted paths such as `metadata.delegation_path` reach into objects), a field of the wrong type (`artifacts` not an array, `summary` not a string…), and, when `returns.artifactFields` is set, artifacts that are bare paths or lack those fields. A null field counts as absent.",
      rationale: "The orchestrator's next stage reads these fields; a missing one turns into a crash or a silent default later (the orchestrator validation strategy: \"Required fields present\").",
      fix: "Add the field to the subagent's return, or change returns.requiredFields if your protocol differs.",
      bad: "{\"status\": \"completed\", \"summary\": \"…\", \"metadata\": {}}",
      good: "{\"status\": \"completed\", \"summary\": \"…\", \"artifacts\": [\"a.md\"], \"metadata\": {\"session_id\": \"sess_1\"}}",
    },
  },
  check(input, ctx) {
    const value = returnObject(input);
    if (!value) return;
    const expect = input.expect;
    const meta = isObject(value.metadata) ? value.metadata : undefined;

    // Types of the fields the orchestrator validation strategy defines, whenever present: a field of the wrong type is as good as absent.
    const wrongType = (name: string, want: string) =>
      ctx.report({ messageId: "wrongType", data: { name, want, actual: typeName(value[name], { integers: false }) }, ...place(input, `/${name}`) });
    for (const k of ["status", "summary", "session_id"]) if (has(value, k) && typeof value[k] !== "string") wrongType(k, "a string");
    if (has(value, "metadata") && !meta) wrongType("metadata", "an object");
    if (has(value, "artifacts") && !Array.isArray(value.artifacts)) wrongType("artifacts", "an array of paths or {path} objects");
    if (has(value, "errors") && !Array.isArray(value.errors)) wrongType("errors", "an array");
    if (has(value, "next_steps") && typeof value.next_steps !== "string" && !isStrings(value.next_steps)) wrongType("next_steps", "a string or a list of strings");
    if (meta && has(meta, "session_id") && typeof meta.session_id !== "string") ctx.report({ messageId: "metadataSessionId", ...place(input, "/metadata/session_id") });

    for (const field of expect.requiredFields) {
      if (present(value, field)) continue;
      const parts = field.split(".");
      const parent = `/${parts.slice(0, -1).map(escapeToken).join("/")}`.replace(/\/$/, "");
      ctx.report({
        messageId: "missing",
        data: {
          name: parts[parts.length - 1]!,
          where: parts.length > 1 ? ` in \`${parts.slice(0, -1).join(".")}\`` : "",
          alternative: field === "session_id" ? " (nor metadata.session_id)" : "",
          required: expect.requiredFields.join(", "),
        },
        expected: field,
        ...place(input, parent),
      });
    }

    const artifacts = Array.isArray(value.artifacts) ? value.artifacts : [];
    artifacts.forEach((a, i) => {
      const pointer = `/artifacts/${i}`;
      if (typeof a === "string") {
        if (expect.artifactFields?.length)
          ctx.report({ messageId: "bareArtifact", data: { n: i + 1, fields: quoteList(expect.artifactFields, "and"), path: a }, ...place(input, pointer) });
      } else if (isObject(a) && typeof a.path === "string") {
        for (const f of expect.artifactFields ?? []) if (!has(a, f)) ctx.report({ messageId: "artifactField", data: { n: i + 1, field: f }, ...place(input, pointer) });
      } else {
        ctx.report({ messageId: "badArtifact", data: { n: i + 1, actual: typeName(a, { integers: false }), without: isObject(a) ? " without one" : "" }, ...place(input, pointer) });
      }
    });
  },
});

function isStrings(v: unknown): boolean {
  return Array.isArray(v) && v.every((x) => typeof x === "string");
}

/** Is the dotted field present (not null)? `session_id` may also be given as `metadata.session_id`. */
function present(o: Record<string, unknown>, field: string): boolean {
  if (field === "session_id") return has(o, "session_id") || (isObject(o.metadata) && has(o.metadata, "session_id"));
  let cur: unknown = o;
  for (const part of field.split(".")) {
    if (!isObject(cur) || !has(cur, part)) return false;
    cur = cur[part];
  }
  return true;
}
