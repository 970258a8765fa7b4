import { describe, expect, it } from "vitest";
import { findingsToDiagnostics, MAX_FINDINGS, runRules } from "./run-rules.js";
import { defineRule, formatMessage, reportText, type RuleMeta } from "./rule.js";
import { LineIndex } from "./source.js";

const meta = (messages: RuleMeta["messages"]): RuleMeta => ({
  id: "task-status",
  input: "task",
  defaultSeverity: "error",
  phase: "orchestration",
  summary: "s",
  docs: { description: "d", rationale: "r", fix: "f" },
  messages,
});

describe("messages", () => {
  it("fills {{placeholders}} from data, leaves unknown ones as written", () => {
    expect(formatMessage("Task {{ n }} is {{status}}; {{other}}.", { n: 3, status: "done" })).toBe("Task 3 is done; {{other}}.");
    expect(formatMessage("no data {{x}}", undefined)).toBe("no data {{x}}");
    // A value that looks like a placeholder is not expanded again.
    expect(formatMessage("{{a}}{{b}}", { a: "{{b}}", b: "x" })).toBe("{{b}}x");
    expect(formatMessage("{{constructor}}", {})).toBe("{{constructor}}");
  });
  it("resolves a messageId with its hint, and lets the report's hint win", () => {
    const m = meta({ bad: { message: "Task {{n}} is bad.", hint: "fix task {{n}}" }, plain: "Plain." });
    expect(reportText(m, { messageId: "bad", data: { n: 2 } })).toEqual({ message: "Task 2 is bad.", hint: "fix task 2" });
    expect(reportText(m, { messageId: "bad", data: { n: 2 }, hint: "other" })).toEqual({ message: "Task 2 is bad.", hint: "other" });
    expect(reportText(m, { messageId: "plain" })).toEqual({ message: "Plain." });
  });
  it("throws on a message the rule does not declare, or a report with no text", () => {
    const m = meta({ a: "A." });
    expect(() => reportText(m, { messageId: "b" })).toThrow(/no message "b"/);
    expect(() => reportText(m, { messageId: "toString" })).toThrow(/no message/);
    expect(() => reportText(m, {})).toThrow(/neither/);
  });
});

describe("runRules", () => {
  const task = (reference: string) => ({ reference, text: "", file: "TODO.md", sources: [], operations: {} });
  const NOTHING = { kind: () => "missing" as const, size: () => undefined, realpath: () => undefined, readlink: () => undefined, readText: () => undefined };
  const rule = defineRule({
    meta: { ...meta({ bad: { message: "Reference {{ref}} is bad.", hint: "write a number" } }), input: "task" as const },
    check(input, ctx) {
      if (input.reference === "boom") throw new Error("kaboom");
      if (input.reference !== "1") ctx.report({ messageId: "bad", data: { ref: input.reference }, offsets: { start: 0, end: input.reference.length } });
    },
  });
  it("runs the rules of the kind, resolves messages, and turns a crash into a finding of the rule", () => {
    expect(runRules([rule], "task", task("1"))).toEqual([]);
    const [f] = runRules([rule], "task", task("x2"));
    expect(f).toMatchObject({ rule: "task-status", report: { messageId: "bad", message: "Reference x2 is bad.", hint: "write a number" } });
    expect(runRules([rule], "task", task("boom"))[0]!.report.message).toMatch(/failed on this input \(kaboom\)/);
    expect(runRules([rule], "task", task("x2"), () => false)).toEqual([]);
    const ret = { text: "", problems: [], value: {}, locate: () => undefined, workspace: "/ws", files: NOTHING };
    expect(runRules([rule], "return", { ...ret, expect: { statuses: [], successStatuses: [], requiredFields: [], maxSummaryTokens: 0, encoding: "o200k_base" } })).toEqual([]);
  });
  it("keeps at most MAX_FINDINGS, then limit-exceeded's note (when the rules given hold it)", async () => {
    const { RULES } = await import("../rules/index.js");
    const flood = defineRule({
      meta: { ...meta({ bad: "Bad {{i}}." }), input: "task" as const },
      check(_input, ctx) {
        for (let i = 0; i < MAX_FINDINGS + 500; i++) ctx.report({ messageId: "bad", data: { i } });
      },
    });
    const limit = RULES.find((r) => r.meta.id === "limit-exceeded")!;
    const found = runRules([flood, limit], "task", task("1"));
    expect(found).toHaveLength(MAX_FINDINGS + 1);
    expect(found.at(-1)).toMatchObject({ rule: "limit-exceeded", report: { messageId: "tooManyIssues", message: `The file has more than ${MAX_FINDINGS} problems; the rest are not listed.` } });
    expect(runRules([flood], "task", task("1"))).toHaveLength(MAX_FINDINGS);
  });
  it("makes diagnostics with the policy's severity and positions", () => {
    const findings = runRules([rule], "task", task("x2"));
    const [d] = findingsToDiagnostics(findings, () => "warning", "TODO.md", new LineIndex("x2\n"));
    expect(d).toMatchObject({ rule: "task-status", severity: "warning", file: "TODO.md", line: 1, column: 1, endLine: 1, endColumn: 3, messageId: "bad" });
    expect(findingsToDiagnostics(findings, () => "off", undefined)).toEqual([]);
  });
  it("places a report at its one offset without an end, and in its own file when it names one", () => {
    const findings = [{ rule: "task-status" as const, report: { message: "m", offset: 3, file: "state.json" } }];
    const [d] = findingsToDiagnostics(findings, () => "error", "TODO.md", new LineIndex("ab\ncd\n"));
    expect(d).toEqual({ rule: "task-status", severity: "error", message: "m", file: "state.json", line: 2, column: 1 });
  });
});

describe("plan rules report by messageId", () => {
  // Checked by the type checker (`tsc`, run by `npm run lint`): each @ts-expect-error must be an error.
  const planMeta = { ...meta({}), id: "missing-intent" as const, input: "plan" as const, phase: "step" as const };
  it("types a plan rule's reports by the messages it declares", () => {
    const rule = defineRule({
      meta: { ...planMeta, messages: { absent: "Step {{step}} has no intent." } },
      check(plan, ctx) {
        ctx.report({ messageId: "absent", data: { step: 1 }, at: plan.stepsAt });
        // @ts-expect-error a plan rule cannot report a literal message
        ctx.report({ messageId: "absent", message: "Step 1 has no intent." });
        // @ts-expect-error nor a message it does not declare
        ctx.report({ messageId: "missing" });
        // @ts-expect-error nor a report without a messageId
        ctx.report({ at: plan.stepsAt });
      },
    });
    expect(rule.meta.messages).toEqual({ absent: "Step {{step}} has no intent." });
  });
});
