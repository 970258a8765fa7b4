import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIALECT_IDS } from "../src/core/plan.js";
import { DIALECTS } from "../src/dialects/index.js";
import { cli } from "./cli-io.js";

/*
 * The dialect catalogue, as test/meta.test.ts keeps the rule catalogue: every dialect is registered
 * under a declared id, ships a valid and an invalid example that validation reads as that dialect
 * without --dialect (detection finds it) and judges as named, and is described in the README.
 */

const root = join(import.meta.dirname, "..");
const examples = readdirSync(join(root, "examples"));
const readme = readFileSync(join(root, "README.md"), "utf8");
const section = readme.slice(readme.indexOf("## Plan dialects"), readme.indexOf("\n## ", readme.indexOf("## Plan dialects") + 3));
const built = existsSync(join(root, "dist/cli/main.js"));

describe("dialect catalogue", () => {
  it("registers every declared id once, and declares every registered dialect", () => {
    const ids = DIALECTS.map((d) => d.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual([...DIALECT_IDS].sort());
  });

  for (const d of DIALECTS) {
    it(`${d.id}: reads a known syntax and says its shape`, () => {
      expect(d.syntaxes.length).toBeGreaterThan(0);
      for (const s of d.syntaxes) expect(["json", "yaml", "markdown"]).toContain(s);
      expect(d.shape.length).toBeGreaterThan(10);
    });

    it(`${d.id}: is a row of the README's Plan dialects table`, () => {
      expect(section).toMatch(new RegExp(`^\\| \`${d.id}\` \\|`, "m"));
    });

    it.skipIf(!built)(`${d.id}: its examples are read as ${d.id} without --dialect, the valid one accepted and the invalid one rejected`, async () => {
      for (const kind of ["valid", "invalid"] as const) {
        const file = examples.find((f) => f.startsWith(`${d.id}.${kind}.`));
        expect(file, `examples/${d.id}.${kind}.<ext>`).toBeDefined();
        const r = await cli(["validate", "--policy", "examples/plangate.yaml", "--context", "examples/teddy.context.txt", `examples/${file}`, "-o", "json"], { cwd: root });
        const result = (JSON.parse(r.stdout) as { results: { dialect: string | null; valid: boolean }[] }).results[0]!;
        expect([result.dialect, result.valid], file).toEqual([d.id, kind === "valid"]);
      }
    });
  }
});
