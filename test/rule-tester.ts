import { posix } from "node:path";
import { describe, expect, it } from "vitest";
import type { Diagnostic, Severity } from "../src/core/diagnostic.js";
import type { FileProbe } from "../src/core/file-probe.js";
import type { ValidateOptions } from "../src/engine.js";
import { validatePlan } from "../src/node/validate-plan.js";
import { RULES } from "../src/rules/index.js";
import type { InputKind, RuleInputs } from "../src/core/rule.js";
import { findingsToDiagnostics, runRules } from "../src/core/run-rules.js";
import { LineIndex } from "../src/core/source.js";
import { NOW } from "./helpers.js";
import type { Policy } from "../src/core/policy.js";
import { defaultPolicy } from "../src/policy/defaults.js";

/*
 * A rule's test as a table, in the manner of ESLint's RuleTester: `valid` cases the rule accepts (no
 * diagnostic of it) and `invalid` cases with each diagnostic it must report, by position (line, column,
 * and end when given), pointer, step, severity and message. Only the rule under test is looked at: the
 * other rules' diagnostics on the same input are not its business. File-system rules run against an
 * in-memory file system (`files`), so a case says exactly which entries exist.
 */

/** An in-memory tree: a path (absolute, or relative to the workspace) → file content, "dir", `{ link }`, or `{ other }` (a FIFO, socket or device). */
export type Tree = Record<string, string | { dir: true } | { link: string } | { file: string; nlink: number } | { other: true }>;

export interface Case {
  /** Shown as the test's name (default: the code, shortened). */
  name?: string;
  /** The plan's text. */
  code: string;
  /** The plan's file name, which picks the reader (default plan.json). */
  file?: string;
  /** Entries of the workspace's file system; without it the real file system is not consulted (an empty tree). */
  files?: Tree;
  /** Anything else validation takes (policy, tools, dialect, host…); workspace defaults to /ws, the clock to NOW. */
  options?: ValidateOptions;
}

export interface Expected {
  line?: number;
  column?: number;
  endLine?: number;
  endColumn?: number;
  pointer?: string;
  step?: number;
  severity?: Severity;
  /** The id of the rule's message (`meta.messages`) it was reported with. */
  messageId?: string;
  /** The message, whole (a string) or in part (a RegExp). */
  message?: string | RegExp;
  hint?: string | RegExp;
  /** The diagnostic's `expected` and `actual` values, compared deeply. */
  expected?: unknown;
  actual?: unknown;
}

export interface InvalidCase extends Case {
  /** Each diagnostic of the rule, in report order; a number: only how many. */
  errors: readonly Expected[] | number;
}

export const WORKSPACE = "/ws";

/** An in-memory FileProbe: parents of every entry are folders; links are followed as the kernel does (40 hops at most). */
export function memoryFiles(tree: Tree, workspace = WORKSPACE): FileProbe {
  const entries = new Map<string, Tree[string]>();
  const abs = (p: string) => posix.normalize(posix.isAbsolute(p) ? p : posix.join(workspace, p));
  const addParents = (p: string) => {
    for (let d = posix.dirname(p); ; d = posix.dirname(d)) {
      if (!entries.has(d)) entries.set(d, { dir: true });
      if (d === "/") break;
    }
  };
  addParents(posix.join(workspace, "x"));
  for (const [p, e] of Object.entries(tree)) {
    const a = abs(p);
    entries.set(a, e);
    addParents(a);
  }
  /** The real path of `p` (every link followed), or undefined when a component is missing or links loop. */
  const real = (p: string, hops = 0): string | undefined => {
    if (hops > 40) return undefined;
    const parts = p.split("/").filter(Boolean);
    let at = "/";
    for (let i = 0; i < parts.length; i++) {
      const next = posix.join(at, parts[i]!);
      const e = entries.get(next);
      if (e === undefined) return undefined;
      if (typeof e === "object" && "link" in e) {
        const target = real(posix.resolve(at, e.link), hops + 1);
        if (target === undefined) return undefined;
        at = target;
      } else at = next;
    }
    return at;
  };
  const fileAt = (p: string) => {
    const r = real(abs(p));
    const e = r === undefined ? undefined : entries.get(r);
    if (typeof e === "string") return { text: e, nlink: 1 };
    if (e && typeof e === "object" && "file" in e) return { text: e.file, nlink: e.nlink };
    return undefined;
  };
  return {
    kind: (p) => {
      const e = entries.get(abs(p));
      if (e === undefined) return "missing";
      if (typeof e === "string" || "file" in e) return "file";
      if ("other" in e) return "other";
      return "link" in e ? "symlink" : "dir";
    },
    size: (p) => {
      const f = fileAt(p);
      return f === undefined ? undefined : Buffer.byteLength(f.text);
    },
    realpath: (p) => real(abs(p)),
    readlink: (p) => {
      const e = entries.get(abs(p));
      return e && typeof e === "object" && "link" in e ? e.link : undefined;
    },
    readText: (p) => fileAt(p)?.text,
    readBytes: (p) => {
      const f = fileAt(p);
      return f === undefined ? undefined : Buffer.from(f.text);
    },
    nlink: (p) => fileAt(p)?.nlink,
    list: (dir) => {
      const d = abs(dir);
      if (entries.get(d) === undefined || kindOf(entries.get(d)!) !== "dir") return undefined;
      const out = new Map<string, "file" | "dir" | "symlink" | "other" | undefined>();
      for (const [p, e] of entries) if (p !== d && posix.dirname(p) === d) out.set(posix.basename(p), kindOf(e));
      return out;
    },
  };
}

function kindOf(e: Tree[string]): "file" | "dir" | "symlink" | "other" {
  if (typeof e === "string" || "file" in e) return "file";
  if ("other" in e) return "other";
  return "link" in e ? "symlink" : "dir";
}

/** The rule's diagnostics for one case. */
export async function diagnosticsFor(id: string, c: Case): Promise<Diagnostic[]> {
  const report = await validatePlan(c.code, {
    file: c.file ?? "plan.json",
    now: NOW,
    workspace: WORKSPACE,
    files: memoryFiles(c.files ?? {}, c.options?.workspace ?? WORKSPACE),
    ...c.options,
  });
  if (report.internalErrors?.length) throw new Error(`a check failed: ${JSON.stringify(report.internalErrors)}`);
  return report.diagnostics.filter((d) => d.rule === id);
}

const label = (c: Case) => c.name ?? (c.code.length > 70 ? `${c.code.slice(0, 67)}…` : c.code).replace(/\n/g, "⏎");

function expectation(e: Expected): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of ["line", "column", "endLine", "endColumn", "pointer", "step", "severity", "messageId", "expected", "actual"] as const) if (e[k] !== undefined) out[k] = e[k];
  if (e.message !== undefined) out.message = typeof e.message === "string" ? e.message : expect.stringMatching(e.message);
  if (e.hint !== undefined) out.hint = typeof e.hint === "string" ? e.hint : expect.stringMatching(e.hint);
  return out;
}

/**
 * Registers the rule's table: one test per case. The rule's own doc examples run too, when `docs` says
 * how (the file name they are read under, and any options): the bad example must be reported, the good
 * one accepted.
 */
export function ruleTester(
  id: string,
  table: {
    valid: readonly (Case | string)[];
    invalid: readonly InvalidCase[];
    /** How the doc's examples run: their file name and options, and `wrap` for an example that is a fragment of a plan. */
    docs?: Omit<Case, "code" | "name"> & { wrap?: (example: string) => string };
  },
): void {
  const rule = RULES.find((r) => r.meta.id === id);
  describe(`${id} (rule table)`, () => {
    it("is a registered rule", () => expect(rule, `${id} is not in src/rules/index.ts`).toBeDefined());
    for (const v of table.valid) {
      const c = typeof v === "string" ? { code: v } : v;
      it(`valid: ${label(c)}`, async () => {
        expect(await diagnosticsFor(id, c)).toEqual([]);
      });
    }
    for (const c of table.invalid) {
      it(`invalid: ${label(c)}`, async () => {
        const got = await diagnosticsFor(id, c);
        if (typeof c.errors === "number") {
          expect(got, JSON.stringify(got, null, 2)).toHaveLength(c.errors);
          return;
        }
        expect(got.length, JSON.stringify(got, null, 2)).toBe(c.errors.length);
        c.errors.forEach((e, i) => expect(got[i], `diagnostic ${i + 1}`).toMatchObject(expectation(e)));
      });
    }
    if (table.docs) {
      const { wrap = (x: string) => x, ...docs } = table.docs;
      it("reports its doc's bad example and accepts its good one", async () => {
        const { bad, good } = rule!.meta.docs;
        expect(bad, "docs.bad").toBeTruthy();
        expect(good, "docs.good").toBeTruthy();
        expect((await diagnosticsFor(id, { ...docs, code: wrap(bad!) })).length, `bad example:\n${bad}`).toBeGreaterThan(0);
        expect(await diagnosticsFor(id, { ...docs, code: wrap(good!) }), `good example:\n${good}`).toEqual([]);
      });
    }
  });
}

/** A case of a rule that runs on another kind of input than a plan: the input itself. */
export interface KindCase<K extends Exclude<InputKind, "plan">> {
  name?: string;
  input: RuleInputs[K];
}

export interface KindInvalidCase<K extends Exclude<InputKind, "plan">> extends KindCase<K> {
  errors: readonly Expected[] | number;
}

/**
 * The table of a rule whose input is not a plan (read issues, a return, a delegation, a task reference,
 * an approval record), in the manner of `ruleTester`: the rule runs alone on each case's input, at its
 * default severity, and `text` gives the text its offsets point into, for line and column.
 */
export function kindRuleTester<K extends Exclude<InputKind, "plan">>(
  id: string,
  kind: K,
  table: { valid: readonly KindCase<K>[]; invalid: readonly KindInvalidCase<K>[]; text?: (input: RuleInputs[K]) => string | undefined },
): void {
  const rule = RULES.find((r) => r.meta.id === id);
  const run = (input: RuleInputs[K]) => {
    const text = table.text?.(input);
    return findingsToDiagnostics(runRules([rule!], kind, input), () => rule!.meta.defaultSeverity, undefined, text === undefined ? undefined : new LineIndex(text));
  };
  describe(`${id} (rule table)`, () => {
    it("is a registered rule of this kind", () => {
      expect(rule, `${id} is not in src/rules/index.ts`).toBeDefined();
      expect(rule!.meta.input).toBe(kind);
    });
    table.valid.forEach((c, i) => it(`valid: ${c.name ?? i + 1}`, () => expect(run(c.input)).toEqual([])));
    table.invalid.forEach((c, i) =>
      it(`invalid: ${c.name ?? i + 1}`, () => {
        const got = run(c.input);
        if (typeof c.errors === "number") {
          expect(got, JSON.stringify(got, null, 2)).toHaveLength(c.errors);
          return;
        }
        expect(got.length, JSON.stringify(got, null, 2)).toBe(c.errors.length);
        c.errors.forEach((e, j) => expect(got[j], `diagnostic ${j + 1}`).toMatchObject(expectation(e)));
      }),
    );
  });
}

/** The text a read rule's facts point into in its table: three lines. */
export const READ_TEXT = "line one\nline two\nline three\n";

/**
 * The table of a read rule run alone on facts (`kindRuleTester` with kind "read"): it reports nothing
 * without facts or for another rule's fact, and each invalid case's facts as listed, with positions in
 * READ_TEXT.
 */
export function readRuleTester(id: string, table: { invalid: readonly KindInvalidCase<"read">[] }): void {
  const other = id === "md-title" ? { rule: "parse-error" as const, messageId: "jsonEmpty" } : { rule: "md-title" as const, messageId: "missing" };
  kindRuleTester(id, "read", {
    text: () => READ_TEXT,
    valid: [
      { name: "no facts", input: { facts: [] } },
      { name: "a fact of another rule", input: { facts: [{ ...other, start: 0, end: 4 }] } },
    ],
    invalid: table.invalid,
  });
}

/**
 * An invalid case of a command rule: a step whose `command` argument the rule reports once, with the
 * finding's message id, its clause (the text after `the command in "command"`) and hint.
 */
export function commandCase(name: string, args: Record<string, unknown>, messageId: string, clause: string, hint: string, commands?: Partial<Policy["commands"]>): InvalidCase {
  const policy = defaultPolicy(WORKSPACE);
  if (commands) policy.commands = { ...policy.commands, ...commands };
  return {
    name,
    code: JSON.stringify({ steps: [{ tool: "run_command", arguments: args, intent: "run" }] }),
    options: { policy },
    errors: [{ step: 1, pointer: "/steps/0/arguments/command", messageId, message: `Step 1: the command in "command" ${clause}.`, hint }],
  };
}
