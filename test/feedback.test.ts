import { describe, expect, it } from "vitest";
import { formatFeedback } from "../src/formatters/feedback.js";
import { run, tools } from "./helpers.js";

const reg = tools("search_web");
const step = (tool: string, n = 1) => `{"step": ${n}, "tool_name": ${JSON.stringify(tool)}, "args": {}, "description": "d"}`;

describe("--output feedback", () => {
  it("says a valid plan needs no change", async () => {
    expect(formatFeedback([await run(`{"plan": [${step("search_web")}], "reasoning": "r"}`, { tools: reg })])).toBe(
      "# Plan validation passed\n\n- plan.json: valid, no changes needed\n",
    );
  });
  it("groups by step with the fix and the offending line, and spells out escape and bidi characters", async () => {
    const text = `{"plan": [\n${step("search_web")},\n${step("x\u001b[31my\u202e", 2)}\n], "reasoning": "r"}`;
    const out = formatFeedback([await run(text, { tools: reg })]);
    expect(out).not.toContain("\u001b");
    expect(out).not.toContain("\u202e");
    expect(out).toContain('### Step 2 (tool_name "x<U+001B>[31my<U+202E>")');
    expect(out).toContain("3: {\"step\": 2");
    expect(out).not.toContain("### Step 1");
  });
  it("leaves out notices the planner cannot act on, and marks warnings as not blocking", async () => {
    // Without a registry unknown-tool only leaves an info notice.
    const out = formatFeedback([await run(`{"plan": [${step("a")}, ${step("b", 2)}], "reasoning": "r"}`)]);
    expect(out).toContain("# Plan validation passed");
    const stale = await run('{"version": "1.0", "created_at": "2020-01-01T00:00:00", "checksum": "00", "plan": [{"tool": "search_web"}]}', { tools: reg });
    const text = formatFeedback([stale]);
    expect(text).toContain("(stale-plan, warning: does not block the plan)");
    expect(text).toContain("(checksum-mismatch)");
  });
  it("is deterministic and compact", async () => {
    const report = await run(`{"plan": [${Array.from({ length: 50 }, (_, i) => step("serch_web", i + 1)).join(",")}], "reasoning": "r"}`, { tools: reg });
    const a = formatFeedback([report]);
    expect(formatFeedback([report])).toBe(a);
    // One minified line: every item shows only a window of it.
    for (const line of a.split("\n")) expect(line.length).toBeLessThan(260);
  });
});
