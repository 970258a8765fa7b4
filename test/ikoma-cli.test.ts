import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { RULES } from "../src/rules/index.js";
import { cli } from "./cli-io.js";

describe("rules and explain", () => {
  it("lists step-numbering for ikoma, in text and JSON", async () => {
    const text = await cli(["rules"]);
    expect(text.stdout).toMatch(/step-numbering\s+error\s+ikoma/);
    const json = JSON.parse((await cli(["rules", "--output", "json"])).stdout);
    expect(json.rules.find((r: { id: string }) => r.id === "step-numbering")).toMatchObject({ defaultSeverity: "error", dialects: ["ikoma"] });
    expect(json.rules.map((r: { id: string }) => r.id)).toEqual(RULES.map((r) => r.meta.id));
  });
  it("explains every rule, with a failing and a passing example", async () => {
    for (const r of RULES) {
      const out = await cli(["explain", r.meta.id]);
      expect(out.code).toBe(0);
      expect(out.stdout).toContain("Reported:");
      expect(out.stdout).toContain("Accepted:");
    }
  });
});

describe("validate --output sarif|feedback", () => {
  it("accepts the new formats and keeps exit codes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-ikoma-"));
    writeFileSync(join(dir, "p.json"), '{"plan": [{"step": 1, "tool_name": "a", "args": {}, "description": "d"}], "reasoning": "r"}');
    writeFileSync(join(dir, "bad.json"), '{"plan": [], "reasoning": "r"}');
    for (const output of ["sarif", "feedback"]) {
      expect((await cli(["validate", "p.json", "--output", output], { cwd: dir })).code).toBe(0);
      expect((await cli(["validate", "bad.json", "--output", output], { cwd: dir })).code).toBe(1);
    }
    expect((await cli(["validate", "p.json", "--output", "xml"], { cwd: dir })).code).toBe(2);
  });
});
