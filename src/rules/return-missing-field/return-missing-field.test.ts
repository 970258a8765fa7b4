import { describe, expect, it } from "vitest";
import { goodReturn, ret, rules } from "../../../test/orchestration/fixtures.js";
import { kindRuleTester } from "../../../test/rule-tester.js";
import { good, returnInput } from "../../../test/kind-inputs.js";

const without = (...keys: string[]) => {
  const v = goodReturn();
  for (const k of keys) delete v[k];
  return v;
};

describe("return-missing-field", () => {
  it.each(["status", "summary", "artifacts", "metadata"])("reports a return without %s", async (field) => {
    const r = await ret(without(field));
    expect(rules(r)).toContain("return-missing-field");
    expect(r.diagnostics.find((d) => d.rule === "return-missing-field")!.message).toContain(`\`${field}\``);
  });
  it("reports a return with no session id anywhere", async () => {
    const v = without("session_id");
    (v.metadata as Record<string, unknown>).session_id = undefined;
    const r = await ret(v);
    expect(rules(r)).toEqual(["return-missing-field"]);
    expect(r.diagnostics[0]!.message).toContain("nor metadata.session_id");
  });
  it("accepts session_id in metadata only, as real orchestrators write it", async () => {
    expect(rules(await ret(without("session_id")))).toEqual([]);
  });
  it("counts null as absent and reports wrong types", async () => {
    expect(rules(await ret(goodReturn({ summary: null })))).toEqual(["return-missing-field"]);
    const r = await ret(goodReturn({ artifacts: "reports/r.md", metadata: [], status: 1, next_steps: 3 }));
    expect(rules(r).filter((x) => x === "return-missing-field")).toHaveLength(4);
    expect(r.diagnostics.map((d) => d.message)).toContain("`artifacts` must be an array of paths or {path} objects, not a string.");
  });
  it("reports an artifact that is neither a path nor an object with a path", async () => {
    const r = await ret(goodReturn({ artifacts: [{ type: "report" }, 3] }));
    expect(rules(r)).toEqual(["return-missing-field", "return-missing-field"]);
    expect(r.diagnostics[0]!.pointer).toBe("/artifacts/0");
  });
  it("takes required fields from the policy, with dotted paths", async () => {
    const returns = {
      statuses: ["completed"],
      successStatuses: ["completed"],
      maxSummaryTokens: 100,
      encoding: "o200k_base",
      requiredFields: ["status", "artifacts", "metadata.delegation_path"],
    };
    expect(rules(await ret(without("summary"), { policy: { returns } }))).toEqual([]);
    const v = goodReturn();
    delete (v.metadata as Record<string, unknown>).delegation_path;
    const r = await ret(v, { policy: { returns } });
    expect(rules(r)).toEqual(["return-missing-field"]);
    expect(r.diagnostics[0]).toMatchObject({ pointer: "/metadata", expected: "metadata.delegation_path" });
  });
  it("requires artifact objects when returns.artifactFields is set", async () => {
    const returns = {
      statuses: ["completed"],
      successStatuses: ["completed"],
      maxSummaryTokens: 100,
      encoding: "o200k_base",
      requiredFields: ["status"],
      artifactFields: ["type", "path"],
    };
    const bare = await ret(goodReturn({ artifacts: ["reports/r.md"] }), { policy: { returns } });
    expect(rules(bare)).toEqual(["return-missing-field"]);
    expect(bare.diagnostics[0]!.message).toContain("bare path");
    const untyped = await ret(goodReturn({ artifacts: [{ path: "reports/r.md" }] }), { policy: { returns } });
    expect(untyped.diagnostics[0]!.message).toBe("Artifact 1 has no `type`; it is required.");
    expect(rules(await ret(goodReturn(), { policy: { returns } }))).toEqual([]);
  });
});

kindRuleTester("return-missing-field", "return", {
  text: (input) => input.text,
  valid: [
    { name: "every field", input: returnInput(good()) },
    { name: "session_id only in metadata", input: returnInput(good({ session_id: undefined })) },
    { name: "not an object: return-json's", input: returnInput("[]") },
  ],
  invalid: [
    {
      name: "a field of the wrong type",
      input: returnInput(good({ status: 3 })),
      errors: [{ messageId: "wrongType", pointer: "/status", line: 2, column: 3, message: /^`status` must be a string, not / }],
    },
    {
      name: "required fields missing, reported at their parent",
      input: returnInput({ status: "completed" }),
      errors: [
        { messageId: "missing", pointer: "", line: 1, column: 1, expected: "summary", message: "The subagent return has no `summary`; it is required." },
        { messageId: "missing", expected: "artifacts" },
        { messageId: "missing", expected: "metadata" },
        {
          messageId: "missing",
          expected: "session_id",
          message: "The subagent return has no `session_id` (nor metadata.session_id); it is required.",
          hint: "required fields: status, summary, artifacts, metadata, session_id (returns.requiredFields)",
        },
      ],
    },
    {
      name: "a dotted required field",
      input: returnInput(good(), { expect: { requiredFields: ["metadata.agent_type"] } }),
      errors: [{ messageId: "missing", pointer: "/metadata", line: 10, column: 3, message: "The subagent return has no `agent_type` in `metadata`; it is required." }],
    },
    {
      name: "metadata.session_id not a string",
      input: returnInput(good({ metadata: { session_id: 3 } })),
      errors: [{ messageId: "metadataSessionId", pointer: "/metadata/session_id", line: 11, column: 5 }],
    },
    {
      name: "a bare artifact path where the policy wants objects",
      input: returnInput(good({ artifacts: ["reports/r.md"] }), { expect: { artifactFields: ["type", "path"] } }),
      errors: [{ messageId: "bareArtifact", pointer: "/artifacts/0", line: 5, column: 5, hint: 'write {"type": "…", "path": "reports/r.md"} (returns.artifactFields)' }],
    },
    {
      name: "an artifact object without a wanted member",
      input: returnInput(good({ artifacts: [{ path: "reports/r.md" }] }), { expect: { artifactFields: ["type"] } }),
      errors: [{ messageId: "artifactField", pointer: "/artifacts/0", message: "Artifact 1 has no `type`; it is required." }],
    },
    {
      name: "an artifact that is neither a path nor an object with one",
      input: returnInput(good({ artifacts: [{ name: "x" }] })),
      errors: [{ messageId: "badArtifact", pointer: "/artifacts/0", message: "Artifact 1 must be a path or an object with a string `path`, not an object without one." }],
    },
  ],
});
