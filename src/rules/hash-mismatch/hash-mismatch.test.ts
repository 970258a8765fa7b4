import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { planHash } from "../../ops/hash.js";
import { diagnosticsOf } from "../../../test/helpers.js";

describe("hash-mismatch", () => {
  const text = '[{"tool": "a", "params": {"x": 1}}]';
  it("reports a plan whose hash differs", async () => {
    const d = await diagnosticsOf("hash-mismatch", text, { expectedHash: "sha256:" + "0".repeat(64) });
    expect(d).toHaveLength(1);
    expect(d[0]!.actual).toBe(await planHash(text));
  });
  it("accepts the plan hash or the raw file's SHA-256", async () => {
    expect(await diagnosticsOf("hash-mismatch", text, { expectedHash: (await planHash(text))! })).toHaveLength(0);
    const raw = createHash("sha256").update(text).digest("hex");
    expect(await diagnosticsOf("hash-mismatch", text, { expectedHash: raw })).toHaveLength(0);
  });
});
