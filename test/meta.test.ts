import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { DIALECTS } from "../src/dialects/index.js";
import { RULES } from "../src/rules/index.js";
import { APPROVAL_RULES } from "../src/rules/approval.js";
import { QUOTED_RULES } from "../src/rules/quoted.js";
import { isRuleId } from "../src/core/rule-ids.js";
import type { Rule } from "../src/core/rule.js";
import { SPEC_FILE } from "./real-plans.js";
import { ruleReadme } from "../src/rules/readme.js";

const rulesDir = join(import.meta.dirname, "../src/rules");
const folders = readdirSync(rulesDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);

describe("rule catalogue", () => {
  // src/rules/index.ts is the catalogue: the RuleId type and isRuleId are derived from its list, so a folder
  // without its line there is a rule no one runs and no id names.
  it("registers every rule folder, and every folder is a registered rule", () => {
    const ids = RULES.map((r) => r.meta.id);
    for (const f of folders) expect(ids, `folder ${f} not registered in rules/index.ts`).toContain(f);
    expect([...ids].sort()).toEqual([...folders].sort());
  });
  it("each folder's rule is the one registered, under the folder's name", async () => {
    for (const f of folders) {
      const rule = ((await import(/* @vite-ignore */ pathToFileURL(join(rulesDir, f, "index.ts")).href)) as { default: Rule }).default;
      expect(rule.meta.id, `src/rules/${f}/index.ts`).toBe(f);
      expect(RULES.includes(rule), `src/rules/${f} registered in rules/index.ts`).toBe(true);
    }
  });
  it("isRuleId knows exactly the registered ids", () => {
    for (const r of RULES) expect(isRuleId(r.meta.id), r.meta.id).toBe(true);
    for (const id of ["pars-error", "Parse-error", "parse-error ", "", "toString", "__proto__", "constructor", "explain", "index"]) expect(isRuleId(id), id).toBe(false);
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

/** The message ids a `messageId` expression can take: its string literals, through conditionals and `as const`. */
function messageIdsOf(e: ts.Expression, out: Set<string>): void {
  if (ts.isStringLiteralLike(e)) out.add(e.text);
  else if (ts.isConditionalExpression(e)) {
    messageIdsOf(e.whenTrue, out);
    messageIdsOf(e.whenFalse, out);
  } else if (ts.isParenthesizedExpression(e) || ts.isAsExpression(e) || ts.isSatisfiesExpression(e)) messageIdsOf(e.expression, out);
}

/** The message ids a source file reports (`messageId: …` properties and `messageId` variables), and its reports with a literal `message`. */
function messageUse(file: string): { ids: Set<string>; literal: string[] } {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const ids = new Set<string>();
  const literal: string[] = [];
  const visit = (node: ts.Node): void => {
    if ((ts.isPropertyAssignment(node) || ts.isVariableDeclaration(node)) && node.name.getText(source) === "messageId" && node.initializer) messageIdsOf(node.initializer, ids);
    if (ts.isCallExpression(node) && /(^|\.)report$/.test(node.expression.getText(source)))
      for (const arg of node.arguments)
        if (ts.isObjectLiteralExpression(arg) && arg.properties.some((p) => p.name?.getText(source) === "message")) literal.push(`${file}:${source.getLineAndCharacterOfPosition(arg.getStart()).line + 1}`);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { ids, literal };
}

/** The .ts files (tests aside) of a folder of src/, `skip` naming subfolders left out. */
function sources(dir: string, skip: readonly string[] = []): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return skip.includes(e.name) ? [] : sources(p, skip);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

/**
 * The messages code outside a rule's folder reports for it by name: `ruleDiagnostic("rule", "messageId", …)`
 * and `ruleText("rule", "messageId", …)` calls with both written out (src/rules/read-text.ts), by rule id, each
 * with the files that name it.
 */
function messagesNamedOutside(): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const file of sources(join(import.meta.dirname, "../src"))) {
    const text = readFileSync(file, "utf8");
    if (!/\brule(Diagnostic|Text)\(/.test(text)) continue;
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && /^rule(Diagnostic|Text)$/.test(node.expression.getText(source))) {
        const [rule, messageId] = node.arguments;
        if (rule && messageId && ts.isStringLiteralLike(rule)) {
          const ids = new Set<string>();
          messageIdsOf(messageId, ids);
          const byId = out.get(rule.text) ?? new Map<string, string[]>();
          for (const id of ids) byId.set(id, [...(byId.get(id) ?? []), file]);
          out.set(rule.text, byId);
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return out;
}

/** The project modules a source file imports by a relative path. */
function relativeImports(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
  return source.statements
    .filter(ts.isImportDeclaration)
    .map((d) => (d.moduleSpecifier as ts.StringLiteral).text)
    .filter((m) => m.startsWith("."))
    .map((m) => resolve(dirname(file), m.replace(/\.js$/, ".ts")))
    .filter((f) => existsSync(f));
}

describe("plan rules' messages", () => {
  const outside = messagesNamedOutside();
  it("the messages named outside the rules' folders (ruleDiagnostic, ruleText) are their rules' own", () => {
    expect(outside.size).toBeGreaterThan(2);
    const unknown: string[] = [];
    for (const [id, byId] of outside) {
      const rule = RULES.find((r) => r.meta.id === id);
      for (const [m, files] of byId) if (!rule || !Object.hasOwn(rule.meta.messages ?? {}, m)) unknown.push(`${id}.${m} (${files.join(", ")})`);
    }
    expect(unknown).toEqual([]);
  });
  for (const rule of RULES.filter((r) => r.meta.input === "plan")) {
    const id = rule.meta.id;
    it(`${id}: declares meta.messages, reports only those, by messageId, and reports every one`, () => {
      const declared = Object.keys(rule.meta.messages ?? {});
      expect(declared.length, `${id} declares meta.messages`).toBeGreaterThan(0);
      for (const m of declared) expect(m, "message ids are lowerCamelCase").toMatch(/^[a-z][a-zA-Z0-9]*$/);
      // The rule's own folder: every id it names is declared, and no report has a literal message.
      const dir = join(rulesDir, id);
      const own = readdirSync(dir)
        .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
        .map((f) => join(dir, f));
      const used = new Set<string>();
      for (const f of own) {
        const u = messageUse(f);
        expect(u.literal, "reports with a literal message").toEqual([]);
        for (const m of u.ids) {
          expect(declared, `${f} reports messageId "${m}"`).toContain(m);
          used.add(m);
        }
      }
      // A helper the rule imports may name some of its messages for it (command findings, constraint problems),
      // and code that checks what reaches the guard (a host's shell call) may report some by name.
      for (const f of new Set(own.flatMap(relativeImports))) for (const m of messageUse(f).ids) used.add(m);
      for (const m of outside.get(id)?.keys() ?? []) used.add(m);
      for (const m of declared) expect(used.has(m), `${id} declares "${m}" but never reports it`).toBe(true);
    });
    it(`${id}: its tests name every message it declares`, () => {
      const file = join(rulesDir, id, `${id}.test.ts`);
      const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, false);
      const strings = new Set<string>();
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteralLike(node)) strings.add(node.text);
        ts.forEachChild(node, visit);
      };
      visit(source);
      for (const m of Object.keys(rule.meta.messages ?? {})) expect(strings.has(m), `${id}.test.ts asserts messageId "${m}"`).toBe(true);
    });
  }
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

/** Every .ts file under a folder of src/, tests excluded. */
function layerSources(dir: string): string[] {
  return readdirSync(join(import.meta.dirname, "../src", dir), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".test.ts"))
    .map((f) => join("src", dir, f));
}

// The rules outside plan validation: each decides in its own folder, on the input its entry point builds.
const DECISION_KINDS = new Set(["return", "delegation", "task", "approval"]);

describe("rules of the orchestration and approval kinds", () => {
  const rules = RULES.filter((r) => DECISION_KINDS.has(r.meta.input));
  it("the approval rules the guard runs (rules/approval.ts) are every rule of the approval kind, in the catalogue's order", () => {
    expect(APPROVAL_RULES.map((r) => r.meta.id)).toEqual(RULES.filter((r) => r.meta.input === "approval").map((r) => r.meta.id));
  });
  it("the rules whose messages are quoted outside a validation (rules/quoted.ts) are the catalogue's own modules, every rule of the readers' facts among them", () => {
    for (const r of QUOTED_RULES) expect(RULES.includes(r), r.meta.id).toBe(true);
    const quoted = QUOTED_RULES.map((r) => r.meta.id as string);
    expect(RULES.filter((r) => r.meta.input === "read").map((r) => r.meta.id).filter((id) => !quoted.includes(id))).toEqual([]);
  });
  it("are the rules of the orchestration and approval phases", () => {
    const byPhase = RULES.filter((r) => r.meta.phase === "orchestration" || r.meta.phase === "approval").map((r) => r.meta.id);
    expect(RULES.filter((r) => DECISION_KINDS.has(r.meta.input)).map((r) => r.meta.id)).toEqual(byPhase);
  });
  for (const rule of rules) {
    const id = rule.meta.id;
    it(`${id}: has a check and its messages, and its test is a kindRuleTester table`, () => {
      expect(rule.check, "check").toBeTypeOf("function");
      expect(Object.keys(rule.meta.messages ?? {}).length, "meta.messages").toBeGreaterThan(0);
      const test = readFileSync(join(rulesDir, id, `${id}.test.ts`), "utf8");
      expect(test).toContain(`kindRuleTester(${JSON.stringify(id)}, ${JSON.stringify(rule.meta.input)},`);
    });
  }
  // Their entry points build inputs; the rules alone word what is wrong. A quoted rule id in one of those
  // files is a diagnostic made by hand.
  it("are reported by no code outside their folders: their ids are not written in the decision layers", () => {
    const found: string[] = [];
    for (const file of ["orchestration", "approval", "cli", "service", "host", "node", "store"].flatMap(layerSources)) {
      const text = readFileSync(join(import.meta.dirname, "..", file), "utf8");
      for (const r of rules) if (new RegExp(`["'\`]${r.meta.id}["'\`]`).test(text)) found.push(`${file}: ${r.meta.id}`);
    }
    expect(found).toEqual([]);
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
  // A rule id with words beside it, a diagnostic made by hand: fail("missing-field", 'The envelope has no "plan".'),
  // new Error(`the input is over ${max} bytes`, "limit-exceeded"). A message id beside a rule id is one word:
  // ruleDiagnostic("missing-field", "envelopeNoPlan").
  const literal = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + "`(?:[^`\\\\]|\\\\.)*`";
  const id = String.raw`"[a-z]+(?:-[a-z0-9]+)+"|'[a-z]+(?:-[a-z0-9]+)+'|` + "`[a-z]+(?:-[a-z0-9]+)+`";
  for (const m of code.matchAll(new RegExp(`(?:${id})\\s*,\\s*(${literal})|(${literal})\\s*,\\s*(?:${id})`, "g"))) if (/\s/.test(m[1] ?? m[2]!)) found.push(m[0]);
  return found;
}

/**
 * Where the guard's code writes words of its own where it refuses or decides: a GuardStateError (or its
 * RunNotFoundError, StoreUnavailableError) made from a string or a template, and an answer's or an audit
 * line's `reason:` written as text (words, not a code such as "too-large"). Those words are guard-failure's
 * messages and the guard's decisions (src/rules/guard-failure/decisions.ts), named by id and data.
 */
function guardTexts(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`\\])\/\/.*$/gm, "$1");
  const literal = String.raw`"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|` + "`(?:[^`\\\\]|\\\\.)*`";
  const found: string[] = [];
  for (const m of code.matchAll(new RegExp(String.raw`\bnew\s+(?:GuardStateError|RunNotFoundError|StoreUnavailableError)\s*\(\s*(?:${literal})`, "g"))) found.push(m[0]);
  // A template's own text: its substitutions left out (and one cut short by a nested template, from its start).
  const words = (lit: string) => /[A-Za-z]{2,}\s+\S|\S\s+[A-Za-z]{2,}/.test(lit.slice(1, -1).replace(/\$\{[^{}]*\}/g, "").replace(/\$\{.*$/s, ""));
  for (const m of code.matchAll(new RegExp(String.raw`(?<![.\w$])reason\s*:\s*(${literal})`, "g"))) if (words(m[1]!)) found.push(m[0]);
  return found;
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
  // The shell reader (src/syntax/shell) and the command analysis (src/commands) record what they find in a
  // command line as message ids and data too: the command rules word them in their folders.
  const readers = [...sources(join(src, "syntax")), ...sources(join(src, "dialects")), ...sources(join(src, "commands"))];
  it("the readers (src/syntax, src/dialects) and the command analysis (src/commands) write no message text: they record message ids and data", () => {
    expect(readers.length).toBeGreaterThan(10);
    for (const folder of ["syntax/shell", "commands"]) expect(readers.some((f) => f.startsWith(join(src, folder))), folder).toBe(true);
    const offenders = readers.flatMap((f) => messageTexts(readFileSync(f, "utf8")).map((t) => `${f.slice(src.length + 1)}: ${t}`));
    expect(offenders).toEqual([]);
  });
  // The guard, the approval checks (src/approval, and the guard's I/O in src/node and src/store), the file
  // operations (src/ops) and the host profiles (src/host) refuse with their rules' messages too, by id and data (ruleDiagnostic, guardFailure…):
  // the words are in the rules' folders.
  const GUARD_IO = ["node/guard.ts", "node/hook.ts", "node/guard-state.ts", "node/audit.ts", "node/keys.ts", "node/sign.ts", "node/verify.ts", "store/runs.ts"];
  it("the guard and approval code (src/approval, the guard's I/O), the operations (src/ops) and the host profiles (src/host) write no message text: they name rules' messages", () => {
    for (const f of GUARD_IO) expect(existsSync(join(src, f)), f).toBe(true);
    const deciders = [...sources(join(src, "approval")), ...sources(join(src, "ops")), ...sources(join(src, "host")), ...GUARD_IO.map((f) => join(src, f))];
    expect(deciders.length).toBeGreaterThan(10);
    const offenders = deciders.flatMap((f) => messageTexts(readFileSync(f, "utf8")).map((t) => `${f.slice(src.length + 1)}: ${t}`));
    expect(offenders).toEqual([]);
  });
  // The guard's I/O (src/node, src/store) refuses with guard-failure's messages and answers with the guard's
  // decisions: no GuardStateError, and no answer's or audit line's reason, is written there as text. The
  // delegation session registry's outcome reasons (RegisterOutcome.reason, returned to the library as they
  // are) are no guard decision.
  const NOT_GUARD = ["store/file-registry.ts"];
  it("the guard's I/O (src/node, src/store) writes no refusal or decision of its own: GuardStateError and reasons name guard-failure's messages and the guard's decisions", () => {
    const io = [...sources(join(src, "node")), ...sources(join(src, "store"))].filter((f) => !NOT_GUARD.includes(f.slice(src.length + 1)));
    for (const f of ["node/guard-state.ts", "node/hook.ts", "store/file.ts", "store/postgres.ts", "store/runs.ts"]) expect(io, f).toContain(join(src, f));
    const offenders = io.flatMap((f) => guardTexts(readFileSync(f, "utf8")).map((t) => `${f.slice(src.length + 1)}: ${t}`));
    expect(offenders).toEqual([]);
  });
  it("the guard scan finds a GuardStateError or a reason written as text, and nothing else", () => {
    for (const written of [
      "throw new GuardStateError(`the run ${path} cannot be read (${code})`);",
      'throw new GuardStateError("a run\'s compiled calls are read-only");',
      "if (r[0] === undefined) throw new RunNotFoundError(`the run ${id} does not exist in ${this.location}`);",
      "return new StoreUnavailableError(\n    `the store ${location} is unavailable`,\n  );",
      'return { decision: "allow", reason: "the next approved step" };',
      "return { decision: \"allow\", reason: `${input.tool} is free (guard.free): no step taken`, run: id };",
      "await audit.append({ ...base, event: \"claim\", session, reason: `claimed by the session's first call, from ${input.cwd ?? \"(no cwd)\"}` });",
    ])
      expect(guardTexts(written), written).not.toEqual([]);
    for (const clean of [
      'throw new GuardStateError(guardFailure({ kind: "not-a-state", path }).message);',
      "throw new RunNotFoundError(guardFailure({ kind: \"run-not-found\", run: id, location: root }).message);",
      'return { decision: "allow", reason: guardDecision("allowNext") };',
      'return { ok: false, reason: "too-large", size: st.size };',
      "const a: Answer = { decision: \"deny\", reason: `${d.message}${d.hint ? ` (${d.hint})` : \"\"}`, rule: d.rule };",
      'await audit.append({ ...base, event: "deny", rule: d.rule, reason: d.message });',
      "// reason: `not a run id: ${id}`",
    ])
      expect(guardTexts(clean), clean).toEqual([]);
  });
  it("the scan finds text written as a report's message or hint, and nothing else", () => {
    for (const written of [
      'ctx.report({ rule: "md-title", at: "", message: "The plan has no title." });',
      "issues.push({ rule, message: `nesting is deeper than ${max} levels`, start, end });",
      'addIssue(issues, { rule: "parse-error", message, start: 0, end: 0 });',
      'addIssue(issues, { rule: "parse-error", messageId: "x", start: 0, end: 0, hint: "fix it" });',
      'return fail("missing-field", \'The envelope has no "plan".\');',
      "return fail(\"parse-error\", `The ${tool} command names \"${p.text}\".`, \"use paths inside the workspace\");",
      "throw new HookInputError(`the hook input is over ${max} bytes`, 'limit-exceeded');",
      "const f = { message: describe(x) };",
      "out.push({ rule, message, start, end });",
    ])
      expect(messageTexts(written), written).not.toEqual([]);
    for (const clean of [
      'ctx.report({ rule: "md-title", messageId: "missing", at: "" });',
      "return { ok: true, message: false, actions };",
      "type T = { message: boolean };",
      "const reason = e instanceof Error ? e.message : String(e);",
      'return ruleDiagnostic("missing-field", "envelopeNoPlan", undefined);',
      'throw new HookInputError(ruleDiagnostic("limit-exceeded", "hookInputTooLarge", { max }));',
      'const { message, hint } = ruleText("parse-error", "unreadable");',
    ])
      expect(messageTexts(clean), clean).toEqual([]);
  });
});
