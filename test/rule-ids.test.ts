import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";

const root = join(import.meta.dirname, "..");
const folders = readdirSync(join(root, "src/rules"), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

describe("isRuleId", () => {
  // This file imports no rule before this test: the catalogue is not loaded yet.
  it("knows no id before the rule catalogue is loaded, then exactly its ids", async () => {
    const { isRuleId, registerRuleIds } = await import("../src/core/rule-ids.js");
    expect(isRuleId("parse-error")).toBe(false);
    expect(isRuleId("pars-error")).toBe(false);
    const { RULES } = await import("../src/rules/index.js");
    expect(RULES.map((r) => r.meta.id).sort()).toEqual(folders);
    for (const id of folders) expect(isRuleId(id), id).toBe(true);
    expect(isRuleId("pars-error")).toBe(false);
    // The same catalogue again changes nothing; a different one is a bug, not a second truth.
    registerRuleIds(RULES.map((r) => r.meta.id));
    expect(() => registerRuleIds(["parse-error"])).toThrow(/registered twice/);
    expect(isRuleId("missing-intent")).toBe(true);
  });
});

// A consumer folder whose node_modules/plangate is this checkout, compiled against the published
// declarations (dist/, written by npm run build before the tests).
const consumer = mkdtempSync(join(tmpdir(), "plangate-types-"));
mkdirSync(join(consumer, "node_modules"));
symlinkSync(root, join(consumer, "node_modules", "plangate"), "dir");
afterAll(() => rmSync(consumer, { recursive: true, force: true }));

describe("the published declarations", () => {
  it("type a diagnostic's rule as the union of the rule folders' names", () => {
    const file = join(consumer, "use.ts");
    writeFileSync(
      file,
      [
        'import type { Diagnostic } from "plangate";',
        'export type Id = Diagnostic["rule"];',
        'export const known: Id = "parse-error";',
        "// @ts-expect-error a misspelt id",
        'export const misspelt: Id = "pars-error";',
        "",
      ].join("\n"),
    );
    const program = ts.createProgram([file], {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      types: ["node"],
      typeRoots: [join(root, "node_modules/@types")],
    });
    const problems = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    expect(problems).toEqual([]);
    const source = program.getSourceFile(file)!;
    const alias = source.statements.find(ts.isTypeAliasDeclaration)!;
    const type = program.getTypeChecker().getTypeAtLocation(alias.name);
    const members = (type.isUnion() ? type.types : [type]).map((t) => (t.isStringLiteral() ? t.value : program.getTypeChecker().typeToString(t)));
    expect(members.sort()).toEqual(folders);
  });
});
