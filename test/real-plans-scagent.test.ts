import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadToolsFile } from "../src/node/tools-file.js";
import { validateFile } from "../src/node/validate-file.js";
import { NOW } from "./helpers.js";
import { REAL_PLANS, realPlansPresent } from "./real-plans.js";

/** Plans written by scAgent's own code (../shared/real-plans): read only when present, never copied. */
const base = REAL_PLANS;
const present = realPlansPresent;

interface Row {
  file: string;
  kind: string;
  source_valid: boolean | null;
  dialect: string | null;
}

describe.skipIf(!present)("real scAgent plans", () => {
  const rows = present
    ? (JSON.parse(readFileSync(join(base, "provenance.json"), "utf8")) as Row[]).filter((r) => r.file.startsWith("scagent/") && r.kind === "plan")
    : [];
  const tools = present ? loadToolsFile(join(base, "scagent/tools.txt")) : undefined;
  it("has the plans", () => {
    expect(rows.length).toBeGreaterThanOrEqual(10);
  });
  for (const row of rows) {
    it(`${row.file}: ${row.source_valid ? "valid" : "invalid"} as scAgent says, read as ${row.dialect ?? "unknown-format"}`, async () => {
      const report = await validateFile(join(base, row.file), { tools, now: NOW, workspace: base });
      expect(report.valid).toBe(row.source_valid);
      if (row.dialect) expect(report.dialect).toBe(row.dialect);
      else expect(report.diagnostics.map((d) => d.rule)).toContain("unknown-format");
      // created_at is old in every envelope: a warning, never an error.
      for (const d of report.diagnostics.filter((x) => x.rule === "stale-plan")) expect(d.severity).toBe("warning");
    });
  }
  it("agrees with scAgent on why the invalid ones fail", async () => {
    const why: Record<string, string> = {
      "scagent/modified_plan.json": "checksum-mismatch",
      "scagent/invalid_tool_plan.json": "unknown-tool",
      "scagent/empty_plan.json": "empty-plan",
      "scagent/missing_tool_plan.json": "missing-field",
      "scagent/malformed_plan.json": "unknown-format",
      "scagent/phase8__multi_tool_plan.json": "unknown-tool",
    };
    for (const [file, rule] of Object.entries(why)) {
      const report = await validateFile(join(base, file), { tools, now: NOW, workspace: base });
      const errors = report.diagnostics.filter((d) => d.severity === "error").map((d) => d.rule);
      expect(errors, file).toContain(rule);
    }
  });
});
