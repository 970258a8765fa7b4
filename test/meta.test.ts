import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../src/dialects/index.js";
import { RULES } from "../src/rules/index.js";
import { RULE_IDS } from "../src/core/rule-ids.js";
import { SPEC_FILE } from "./real-plans.js";
import { ruleReadme } from "../src/rules/readme.js";

const rulesDir = join(import.meta.dirname, "../src/rules");
const folders = readdirSync(rulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("rule catalogue", () => {
  it("registers every rule folder, and every folder is a registered rule", () => {
    const ids = RULES.map((r) => r.meta.id);
    for (const f of folders) expect(ids, `folder ${f} not registered in rules/index.ts`).toContain(f);
  });
  it("RULE_IDS (the RuleId type) lists exactly the registered rules, in their order", () => {
    expect([...RULE_IDS]).toEqual(RULES.map((r) => r.meta.id));
  });
  it("has unique kebab-case ids", () => {
    const ids = RULES.map((r) => r.meta.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z]+(-[a-z0-9]+)*$/);
  });
  for (const rule of RULES) {
    const id = rule.meta.id;
    const dir = join(rulesDir, id);
    if (!existsSync(dir)) continue;
    it(`${id}: has tests and an up-to-date README (npm run docs)`, () => {
      expect(existsSync(join(dir, `${id}.test.ts`)), `${id}.test.ts`).toBe(true);
      const readme = join(dir, "README.md");
      expect(existsSync(readme), "README.md").toBe(true);
      expect(readFileSync(readme, "utf8")).toBe(ruleReadme(rule.meta));
      expect(rule.meta.docs.description.length).toBeGreaterThan(20);
      expect(rule.meta.docs.fix.length).toBeGreaterThan(5);
    });
    it(`${id}: its doc has a failing and a passing example`, () => {
      expect(rule.meta.docs.bad?.trim(), "docs.bad").toBeTruthy();
      expect(rule.meta.docs.good?.trim(), "docs.good").toBeTruthy();
      expect(rule.meta.docs.bad).not.toBe(rule.meta.docs.good);
    });
  }
  // A plan rule's test is its RuleTester table, and runs the rule's doc examples. file-not-found alone has none:
  // its examples are a path that does not exist, which no plan text can show.
  const PLAN_PHASES = new Set(["read", "structure", "integrity", "age", "step"]);
  for (const rule of RULES.filter((r) => PLAN_PHASES.has(r.meta.phase))) {
    const id = rule.meta.id;
    it(`${id}: its test is a RuleTester table${id === "file-not-found" ? "" : " that runs its doc examples"}`, () => {
      const file = join(rulesDir, id, `${id}.test.ts`);
      const text = existsSync(file) ? readFileSync(file, "utf8") : "";
      const table = text.slice(text.indexOf(`ruleTester(${JSON.stringify(id)},`));
      expect(text, `${id}.test.ts calls ruleTester("${id}", …)`).toContain(`ruleTester(${JSON.stringify(id)},`);
      if (id !== "file-not-found") expect(table, `${id}'s table has docs`).toMatch(/^\s+docs: /m);
    });
  }
  it("names only known dialects", () => {
    const known = DIALECTS.map((d) => d.id);
    for (const r of RULES) for (const d of r.meta.dialects ?? []) expect(known).toContain(d);
  });
});

describe("SPEC.md catalogue", () => {
  const spec = SPEC_FILE;
  it.skipIf(!existsSync(spec))("every rule id in SPEC §3 has a rule", () => {
    const text = readFileSync(spec, "utf8");
    const section = text.slice(text.indexOf("## 3. Rules"), text.indexOf("## 4. Diagnostic"));
    const ids = [...section.matchAll(/^\| `([a-z0-9-]+)` \| (error|warning|info) \|/gm)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(40);
    const have = new Set<string>(RULES.map((r) => r.meta.id));
    const missing = ids.filter((id) => !have.has(id));
    expect(missing).toEqual([]);
  });
});

/**
 * Where a reader writes text of its own for a rule: a `message:` or `hint:` property holding a string, a
 * template or a value computed from one (the shape of a report), rather than a rule's message id and its
 * data. A property that holds a flag (`message: true`) or a type (`message: boolean`) is not text.
 */
function messageTexts(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const found: string[] = [];
  for (const m of code.matchAll(/(?<![.\w$])(message|hint)\??\s*:\s*([^,;}\n]*)/g)) {
    const value = m[2]!.trim();
    if (/^(true|false|boolean|string|undefined)\b/.test(value) || value === "") continue;
    found.push(m[0]);
  }
  // A report-like object that takes its text from a variable of the same name: { rule, message, start }.
  for (const m of code.matchAll(/\{[^{}]*\brule\b[^{}]*?[{,]\s*(message|hint)\s*[,}][^{}]*\}?/g)) found.push(m[0]);
  return found;
}

/** The .ts files (tests aside) of a folder of src/, `skip` naming subfolders left out. */
function sources(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return skip.includes(e.name) ? [] : sources(p, skip);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

describe("read rules", () => {
  const src = join(import.meta.dirname, "../src");
  const read = RULES.filter((r) => r.meta.input === "read");
  it("are the reading, shape and integrity rules", () => {
    expect(read.map((r) => r.meta.id).sort()).toEqual(
      ["duplicate-key", "empty-plan", "file-not-found", "hash-mismatch", "invalid-type", "limit-exceeded", "md-action-heading", "md-action-separator", "md-missing-section", "md-title", "missing-field", "parse-error", "step-numbering", "unknown-format", "unknown-key", "unsafe-value"],
    );
  });
  for (const rule of read) {
    it(`${rule.meta.id}: has a check and its messages (meta.messages), each with text`, () => {
      expect(typeof rule.check, "check").toBe("function");
      const messages = Object.entries(rule.meta.messages ?? {});
      expect(messages.length, "meta.messages").toBeGreaterThan(0);
      for (const [id, m] of messages) {
        const text = typeof m === "string" ? m : m.message;
        expect(text.trim(), `${rule.meta.id}.${id}`).not.toBe("");
      }
    });
  }
  // The command analysis (src/syntax/shell) words the problems of a command line for the command rules, which
  // are plan rules: its text is theirs, not a reader's.
  const readers = [...sources(join(src, "syntax"), ["shell"]), ...sources(join(src, "dialects"))];
  it("the readers (src/syntax, src/dialects) write no message text: they record message ids and data", () => {
    expect(readers.length).toBeGreaterThan(10);
    const offenders = readers.flatMap((f) => messageTexts(readFileSync(f, "utf8")).map((t) => `${f.slice(src.length + 1)}: ${t}`));
    expect(offenders).toEqual([]);
  });
  it("the scan finds text written as a report's message or hint, and nothing else", () => {
    for (const written of [
      'ctx.report({ rule: "md-title", at: "", message: "The plan has no title." });',
      "issues.push({ rule, message: `nesting is deeper than ${max} levels`, start, end });",
      'addIssue(issues, { rule: "parse-error", message, start: 0, end: 0 });',
      'addIssue(issues, { rule: "parse-error", messageId: "x", start: 0, end: 0, hint: "fix it" });',
      "const f = { message: describe(x) };",
      "out.push({ rule, message, start, end });",
    ])
      expect(messageTexts(written), written).not.toEqual([]);
    for (const clean of [
      'ctx.report({ rule: "md-title", messageId: "missing", at: "" });',
      "return { ok: true, message: false, actions };",
      "type T = { message: boolean };",
      "const reason = e instanceof Error ? e.message : String(e);",
    ])
      expect(messageTexts(clean), clean).toEqual([]);
  });
});
