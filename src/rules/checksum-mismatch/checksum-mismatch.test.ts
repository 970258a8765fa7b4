import { describe, expect, it } from "vitest";
import { pythonChecksum } from "../../core/canonical/python-json.js";
import { diagnosticsOf, envelope } from "../../../test/helpers.js";

describe("checksum-mismatch", () => {
  it("reports a plan edited after sealing, with expected (stored) and actual (computed)", async () => {
    const plan = [{ tool: "a", params: { x: 1 } }];
    const stored = pythonChecksum(plan);
    const edited = [...plan, { tool: "b" }];
    const text = JSON.stringify({ version: "1.0", created_at: "2026-11-20T10:00:00", checksum: stored, plan: edited }, null, 2);
    const d = await diagnosticsOf("checksum-mismatch", text);
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ pointer: "/checksum", expected: stored, actual: pythonChecksum(edited), line: 4 });
  });
  it("accepts the Python checksum, with or without a sha256: prefix in any case", async () => {
    const plan = [{ tool: "a", params: { ratio: 1.0, big: 12345678901234567890n.toString() } }];
    expect(await diagnosticsOf("checksum-mismatch", await envelope(plan))).toHaveLength(0);
    const prefixed = await envelope(plan, { checksum: "SHA256:" + pythonChecksum(plan).toUpperCase() });
    expect(await diagnosticsOf("checksum-mismatch", prefixed)).toHaveLength(0);
  });
  it("hashes number lexemes as Python reads them (1.0 is a float, not 1)", async () => {
    const asInt = pythonChecksum([{ tool: "a", params: { x: 1 } }]);
    const text = `{"version": "1.0", "checksum": "${asInt}", "plan": [{"tool": "a", "params": {"x": 1.0}}]}`;
    expect(await diagnosticsOf("checksum-mismatch", text)).toHaveLength(1);
  });
});
