import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

// The layer check is lint configuration (eslint.layers.js): these cases lint deliberate violations, as if
// written at a path in src/, and expect the repository's own config to report them.
const root = fileURLToPath(new URL("..", import.meta.url));
const eslint = new ESLint({ cwd: root });
const LAYER_RULES = new Set(["no-restricted-imports", "no-restricted-syntax", "no-restricted-globals"]);

async function layerProblems(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("layering", () => {
  it.each([
    ["core imports policy types", "src/core/fixture.ts", 'import type { PolicyFile } from "../policy/schema.js";\nexport type X = PolicyFile;\n', /core is below/],
    ["core names a policy type through import()", "src/core/fixture.ts", 'export type X = import("../policy/schema.js").PolicyFile;\n', /core is below/],
    ["core imports syntax", "src/core/canonical/fixture.ts", 'import { MAX_ISSUES } from "../../syntax/unsafe.js";\nexport const n = MAX_ISSUES;\n', /core is below/],
    ["core imports node:path", "src/core/fixture.ts", 'import { join } from "node:path";\nexport const j = join;\n', /only node:crypto/],
    ["the engine imports node/ at run time", "src/engine.ts", 'export async function f() {\n  return (await import("./node/file-probe.js")).createFileProbe();\n}\n', /engine is below/],
    ["the engine reads the clock", "src/engine.ts", "export const t = () => new Date();\n", /reads no clock/],
    ["a formatter imports the engine", "src/formatters/fixture.ts", 'import type { ValidateOptions } from "../engine.js";\nexport type X = ValidateOptions;\n', /formatters is below/],
    ["a rule imports TeDDy internals", "src/rules/fixture/index.ts", 'import { headingWord } from "../../dialects/teddy/action.js";\nexport const h = headingWord;\n', /rules is below/],
    ["a rule reads the file system", "src/rules/fixture/index.ts", 'import { readFileSync } from "node:fs";\nexport const r = readFileSync;\n', /does no I\/O/],
    ["a rule reads the file system (bare name)", "src/rules/fixture/index.ts", 'import { readFileSync } from "fs";\nexport const r = readFileSync;\n', /does no I\/O/],
    ["a dialect touches the process", "src/dialects/fixture.ts", "export const cwd = () => process.cwd();\n", /does not touch the process/],
    ["syntax reads the clock", "src/syntax/fixture.ts", "export const t = () => Date.now();\n", /reads no clock/],
    ["approval imports the CLI", "src/approval/fixture.ts", 'import { EXIT } from "../cli/io.js";\nexport const e = EXIT;\n', /approval is below/],
    ["an exception stays bounded", "src/core/regex.ts", 'import { FileStore } from "../store/file.js";\nexport const s = FileStore;\n', /core is below/],
    ["a host profile reads a file", "src/host/fixture.ts", 'import { readFileSync } from "node:fs";\nexport const r = readFileSync;\n', /does no I\/O/],
    ["a relative import that is not normalised", "src/core/fixture.ts", 'import { escapeToken } from "./../core/pointer.js";\nexport const e = escapeToken;\n', /normalised/],
  ])("reports %s", async (_name, file, code, expected) => {
    const problems = await layerProblems(file, code);
    expect(problems.some((p) => expected.test(p)), problems.join("\n")).toBe(true);
  });

  it.each([
    ["core within core", "src/core/fixture.ts", 'import { escapeToken } from "./pointer.js";\nimport { createHash } from "node:crypto";\nexport const x = [escapeToken, createHash];\n'],
    ["a rule reading core and commands", "src/rules/fixture/index.ts", 'import { actionOf } from "../../core/step-extra.js";\nimport { describeCommand } from "../../commands/plan.js";\nexport const x = [actionOf, describeCommand];\n'],
    ["node/ doing I/O", "src/node/fixture.ts", 'import { readFileSync } from "node:fs";\nexport const r = () => [readFileSync, process.cwd(), Date.now()];\n'],
    ["the CLI importing anything", "src/cli/fixture.ts", 'import { FileStore } from "../store/file.js";\nimport { validatePlan } from "../node/validate-plan.js";\nexport const x = [FileStore, validatePlan];\n'],
  ])("allows %s", async (_name, file, code) => {
    expect(await layerProblems(file, code)).toEqual([]);
  });

  it("lists only exceptions for files that exist (a stale entry would let a new file at that path break the layers)", async () => {
    const layers = new URL("../eslint.layers.js", import.meta.url).href;
    const { EXCEPTIONS } = (await import(layers)) as { EXCEPTIONS: { files: string[] }[] };
    expect(EXCEPTIONS.length).toBeGreaterThan(0);
    for (const e of EXCEPTIONS) for (const f of e.files) expect(existsSync(join(root, f)), f).toBe(true);
  });

  it("finds no violation in src/", async () => {
    const results = await eslint.lintFiles(["src"]);
    const problems = results.flatMap((r) => r.messages.filter((m) => m.ruleId !== null && LAYER_RULES.has(m.ruleId)).map((m) => `${r.filePath}:${m.line} ${m.message}`));
    expect(problems).toEqual([]);
  }, 120_000);
});
