import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { ErrorObject } from "ajv";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../src/node/policy.js";
import { findSchema, publishedSchema } from "../src/schemas/index.js";
import { run } from "./helpers.js";

// The examples' plans checked twice, by the published JSON Schema and by plangate: both must give the
// same verdict on the shape, for the same reasons. Rules a schema cannot express (tool registry,
// checksums, ages, step order) are left out of the comparison.
const SHAPE_RULES = new Set(["unknown-key", "missing-field", "invalid-type", "empty-plan", "missing-intent"]);

/** The plangate rule a JSON Schema keyword failure corresponds to. */
function ruleOf(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return "unknown-key";
  // An absent or blank intake intent has a rule of its own (SPEC §1).
  if (e.keyword === "required" && (e.params as { missingProperty: string }).missingProperty === "intent") return "missing-intent";
  if ((e.keyword === "pattern" || e.keyword === "minLength") && e.instancePath.endsWith("/intent")) return "missing-intent";
  if (e.keyword === "required") return "missing-field";
  if (e.keyword === "minItems") return "empty-plan";
  return "invalid-type"; // type, minimum, const, pattern, minLength…
}

/** Where the fault is, as a pointer plangate would report it. */
function pointerOf(e: ErrorObject): string {
  if (e.keyword === "additionalProperties") return `${e.instancePath}/${(e.params as { additionalProperty: string }).additionalProperty}`;
  return e.instancePath;
}

const dir = join(import.meta.dirname, "../examples");
const files = readdirSync(dir).filter((f) => /\.(valid|invalid)\.json$/.test(f)).sort();
// The examples' own policy: its allow file (scQC, iKOMA tools) and MCP registry (intake tools).
const loaded = await loadPolicy({ file: join(dir, "plangate.yaml"), cwd: dir });

describe("schemas agree with plangate on the examples", () => {
  it("has ikoma and scQC examples of both kinds", () => {
    for (const d of ["ikoma", "scqc-legacy", "scqc-envelope"])
      for (const k of ["valid", "invalid"]) expect(files).toContain(`${d}.${k}.json`);
  });
  for (const file of files) {
    it(file, async () => {
      const text = readFileSync(join(dir, file), "utf8");
      const report = await run(text, { file, tools: loaded.tools, policy: loaded.policy, workspace: loaded.policy.workspace });
      const entry = findSchema(report.dialect!);
      expect(entry, `a published schema for ${report.dialect}`).toBeDefined();
      const validate = new Ajv2020({ strict: false, allErrors: true }).compile(publishedSchema(entry!));
      const schemaOk = validate(JSON.parse(text));
      const fromSchema = (validate.errors ?? []).map((e) => `${ruleOf(e)} ${pointerOf(e)}`);
      const fromPlangate = report.diagnostics.filter((d) => SHAPE_RULES.has(d.rule)).map((d) => `${d.rule} ${d.pointer}`);
      expect([...new Set(fromSchema)].sort()).toEqual([...new Set(fromPlangate)].sort());
      if (file.includes(".valid.")) {
        expect(report.valid).toBe(true);
        expect(schemaOk).toBe(true);
      } else {
        expect(report.valid).toBe(false);
        // A plan whose shape is right but whose checksum is wrong is something no schema can see.
        const shapeFaults = fromPlangate.length > 0;
        expect(schemaOk).toBe(!shapeFaults);
      }
    });
  }
});
