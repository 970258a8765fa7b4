import { describe, expect, it } from "vitest";
import { defaultPolicy } from "../../policy/defaults.js";
import { diagnosticsOf, envelope, run } from "../../../test/helpers.js";

describe("checksum-missing", () => {
  it("warns about an envelope without checksum; the plan stays valid", async () => {
    const text = '{"version": "1.0", "created_at": "2026-11-20T10:00:00", "plan": [{"tool": "a"}]}';
    const d = await diagnosticsOf("checksum-missing", text);
    expect(d).toHaveLength(1);
    expect(d[0]!.severity).toBe("warning");
  });
  it("warns about an empty or null checksum", async () => {
    expect(await diagnosticsOf("checksum-missing", await envelope([{ tool: "a" }], { checksum: "" }))).toHaveLength(1);
    expect(await diagnosticsOf("checksum-missing", await envelope([{ tool: "a" }], { checksum: null }))).toHaveLength(1);
  });
  it("is an error with plan.requireChecksum", async () => {
    const policy = defaultPolicy("/workspace");
    policy.plan.requireChecksum = true;
    const r = await run('{"version": "1.0", "plan": [{"tool": "a"}]}', { policy });
    expect(r.diagnostics.find((d) => d.rule === "checksum-missing")?.severity).toBe("error");
    expect(r.valid).toBe(false);
  });
  it("an explicit rules: entry wins over requireChecksum", async () => {
    const policy = defaultPolicy("/workspace");
    policy.plan.requireChecksum = true;
    policy.rules["checksum-missing"] = "warning";
    const r = await run('{"version": "1.0", "plan": [{"tool": "a"}]}', { policy });
    expect(r.valid).toBe(true);
  });
  it("accepts a sealed envelope", async () => {
    expect(await diagnosticsOf("checksum-missing", await envelope([{ tool: "a" }]))).toHaveLength(0);
  });
});
