import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseToolsText } from "../src/node/tools-file.js";
import { run } from "./helpers.js";

const registry = parseToolsText(
  JSON.stringify({ tools: [{ name: "read_file", inputSchema: { type: "object", properties: { path: { type: "string", format: "path" } }, required: ["path"] } }, { name: "write_file" }] }),
  "tools.json",
);
const word = fc.constantFrom("read_file", "write_file", "think", "r\u0435ad_file", "a && b", "", "..", "../x", "~/x", "%2e%2e/x", "/etc", "<path>", "$RANDOM", "x\u0000y", ".git/config", "if", "when", "parallel");
const value = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: "small" }, word, fc.string(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie("v"), { maxLength: 3 }), fc.dictionary(fc.oneof(word, fc.string()), tie("v"), { maxKeys: 4 })),
})).v;
const step = fc.record(
  { tool: fc.oneof(word, value), arguments: fc.oneof(fc.dictionary(fc.oneof(word, fc.constantFrom("path", "file_path", "command", "content", "cwd")), value, { maxKeys: 4 }), value), intent: fc.oneof(fc.string(), value), scope: value, timeout: value, continue_on_error: value },
  { requiredKeys: [] },
);
const plan = fc.record({ steps: fc.oneof(fc.array(step, { maxLength: 5 }), value), scope: fc.oneof(word, value) }, { requiredKeys: [] });

describe("intake validation on arbitrary input", () => {
  it("never throws and no rule ever fails on its input, in JSON and YAML", async () => {
    await fc.assert(
      fc.asyncProperty(plan, async (p) => {
        for (const [text, file] of [[JSON.stringify(p), "p.json"], [JSON.stringify(p, null, 1), "p.yaml"]] as const) {
          const r = await run(text, { file, tools: registry });
          for (const d of r.diagnostics) expect(d.message, JSON.stringify(d)).not.toContain("check failed on this input");
          expect(r.planHash ?? "").toMatch(/^(sha256:[0-9a-f]{64})?$/);
        }
      }),
      { numRuns: 300 },
    );
  });
});
