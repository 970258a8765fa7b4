import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { checkSchemas, writeSchemas } from "../src/node/schema-files.js";
import { SCHEMAS, findSchema, publishedSchema } from "../src/schemas/index.js";
import { cli } from "./cli-io.js";

const committed = join(import.meta.dirname, "../schemas");
const ajv = () => new Ajv2020({ strict: false, allErrors: true });

describe("published schemas", () => {
  it("has one entry per format SPEC §5 lists that this build reads or writes", () => {
    expect(SCHEMAS.map((s) => s.name)).toEqual(expect.arrayContaining(["scqc-legacy", "scqc-envelope", "ikoma", "policy", "report"]));
    expect(new Set(SCHEMAS.map((s) => s.file)).size).toBe(SCHEMAS.length);
  });
  for (const e of SCHEMAS) {
    it(`${e.name}: draft 2020-12 with $id, title, description and examples that validate`, () => {
      const doc = publishedSchema(e);
      expect(doc.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
      expect(doc.$id).toBe(`urn:plangate:schema:${e.name}`);
      expect(e.file).toBe(`${e.name}.schema.json`);
      expect(typeof doc.title).toBe("string");
      expect(String(doc.description).length).toBeGreaterThan(20);
      const examples = doc.examples as unknown[];
      expect(examples.length).toBeGreaterThan(0);
      const validate = ajv().compile(doc);
      for (const ex of examples) expect(validate(ex), JSON.stringify(validate.errors)).toBe(true);
      expect(validate({ surely: "not this format" })).toBe(false);
    });
  }
});

describe("schema drift", () => {
  it("the committed schemas/ folder matches what plangate publishes (run `plangate schema --out schemas`)", () => {
    expect(checkSchemas(committed)).toEqual([]);
  });
  it("the standalone validators in src/generated/ are compiled from the committed schemas (run `node scripts/gen-validators.mjs`)", async () => {
    const { VALIDATED, generate, moduleName } = await import("../scripts/gen-validators.mjs");
    const { readFileSync } = await import("node:fs");
    for (const name of VALIDATED) expect(readFileSync(new URL(`../src/generated/${moduleName(name)}`, import.meta.url), "utf8"), name).toBe(generate(name));
  });

  it("the run-time validators refuse what the published schema refuses, keywords the old checker skipped included", async () => {
    const { schemaErrors } = await import("../src/core/schema-errors.js");
    const validatePolicy = (await import("../src/generated/validate-policy.js")).default as Parameters<typeof schemaErrors>[0];
    const none = () => ({});
    expect(schemaErrors(validatePolicy, {}, none)).toEqual([]);
    expect(schemaErrors(validatePolicy, { workspace: 3 }, none)[0]).toMatchObject({ instancePath: "/workspace", keyword: "type", message: "must be string" });
    expect(schemaErrors(validatePolicy, { tools: { allow: "x" } }, none)[0]).toMatchObject({ instancePath: "/tools/allow", message: "must be array" });
    expect(schemaErrors(validatePolicy, { bogus: 1 }, none)[0]).toMatchObject({ keyword: "additionalProperties", params: { additionalProperty: "bogus" } });
    // maxItems and uniqueItems: skipped by the hand-written checker plangate used before.
    expect(schemaErrors(validatePolicy, { guard: { free: Array.from({ length: 201 }, (_, i) => `t${i}`) } }, none)[0]).toMatchObject({ instancePath: "/guard/free", message: "must have at most 200 items" });
    const validateProfile = (await import("../src/generated/validate-host-profile.js")).default as Parameters<typeof schemaErrors>[0];
    expect(schemaErrors(validateProfile, { name: "x", tools: { Bash: { paths: ["a", "a"] } }, free: [] }, none)[0]).toMatchObject({ instancePath: "/tools/Bash/paths", keyword: "uniqueItems" });
  });

  it("ignores formatting but reports a missing, changed, broken or unexpected file", () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-schemas-"));
    try {
      writeSchemas(dir);
      const [a, b, c] = SCHEMAS;
      writeFileSync(join(dir, a!.file), JSON.stringify(publishedSchema(a!)));
      expect(checkSchemas(dir)).toEqual([]);
      rmSync(join(dir, a!.file));
      const changed = { ...publishedSchema(b!), title: "edited by hand" };
      writeFileSync(join(dir, b!.file), JSON.stringify(changed));
      writeFileSync(join(dir, c!.file), "{");
      writeFileSync(join(dir, "old.schema.json"), "{}");
      expect(checkSchemas(dir).map((d) => [d.file, d.problem])).toEqual([
        [a!.file, "missing"],
        [b!.file, "differs"],
        [c!.file, "not-json"],
        ["old.schema.json", "unexpected"],
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("plangate schema --out writes, --check passes, then fails with exit 1 after an edit", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-schemas-"));
    try {
      expect((await cli(["schema", "--out", "s"], { cwd: dir })).code).toBe(0);
      expect((await cli(["schema", "--check", "s"], { cwd: dir })).code).toBe(0);
      const file = join(dir, "s", "ikoma.schema.json");
      const doc = JSON.parse(readFileSync(file, "utf8"));
      doc.properties.plan.minItems = 0;
      writeFileSync(file, JSON.stringify(doc));
      const r = await cli(["schema", "--check", "s"], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("s/ikoma.schema.json differs");
      const j = await cli(["schema", "--check", "s", "--output", "json"], { cwd: dir });
      expect(JSON.parse(j.stdout)).toMatchObject({ upToDate: false, drift: [{ file: "ikoma.schema.json", problem: "differs" }] });
      expect((await cli(["schema", "--check", "nowhere"], { cwd: dir })).code).toBe(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  it("prints one schema by name; an unknown name or two modes at once is a usage error", async () => {
    const r = await cli(["schema", "ikoma"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(publishedSchema(findSchema("ikoma")!));
    const bad = await cli(["schema", "ikomo"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('did you mean "ikoma"');
    expect((await cli(["schema", "ikoma", "--out", "x"])).code).toBe(2);
  });
});

describe("report schema", () => {
  it("accepts what validate --output json prints, for valid, rejected and unreadable plans", async () => {
    const dir = mkdtempSync(join(tmpdir(), "plangate-report-"));
    try {
      writeFileSync(join(dir, "ok.json"), '[{"tool": "a"}]');
      writeFileSync(join(dir, "bad.json"), '{"plan": [{"step": 2, "tool_name": 1}], "reasoning": "r", "x": 1}');
      writeFileSync(join(dir, "broken.json"), "{");
      const r = await cli(["validate", "ok.json", "bad.json", "broken.json", "missing.json", "--output", "json"], { cwd: dir });
      const doc = JSON.parse(r.stdout);
      const validate = ajv().compile(publishedSchema(findSchema("report")!));
      expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
      expect(doc.results.map((x: { valid: boolean }) => x.valid)).toEqual([true, false, false, false]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
