import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { clipFeedback, formatFeedback, forPlanner, MAX_HOST_FEEDBACK } from "../src/formatters/feedback.js";
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

describe("feedback speaks to the planner only", () => {
  it("drops the operator's clauses from fixes and messages", () => {
    expect(forPlanner("flatten the document, or raise limits.maxDepth")).toBe("flatten the document");
    expect(forPlanner("put a line `---` between the two actions, or set markdown.requireSeparators: false")).toBe("put a line `---` between the two actions");
    expect(forPlanner('use a tool listed in tools.txt, or add "soupx" there')).toBe("");
    expect(forPlanner("Step 2: unknown tool \"x\" (not in tools.txt)")).toBe('Step 2: unknown tool "x"');
    expect(forPlanner("write the branch as plain steps, or set plan.allowConditionals: true in plangate.yaml")).toBe("write the branch as plain steps");
    expect(forPlanner("remove the write or choose another file; protected paths are listed in paths.protected")).toBe("remove the write or choose another file");
    expect(forPlanner("remove the write or choose another file; protected paths are listed in paths.protected, and a default one a plan must write can be lifted with paths.unprotect")).toBe("remove the write or choose another file");
  });

  it("lists the allowed tools with their argument shapes when a tool is wrong", async () => {
    const reg = tools("search_web", "read_file");
    (reg.schemas as Map<string, unknown>).set("search_web", { type: "object", properties: { query: { type: "string" }, limit: { type: "integer" } }, required: ["query"] });
    const out = formatFeedback([await run(`{"plan": [${step("soupx")}], "reasoning": "r"}`, { tools: reg })], { tools: reg });
    expect(out).toContain("## Allowed tools");
    expect(out).toContain("- `search_web(query: string, limit?: integer)`");
    expect(out).toContain("- `read_file`");
    expect(out).not.toMatch(/tools\.txt|--tools|tools\.allow|registry/);
  });

  it("names no policy key, flag or registry file for any example or hostile plan", async () => {
    const root = join(import.meta.dirname, "..");
    const files = [
      ...readdirSync(join(root, "examples")).filter((f) => f.includes(".invalid.")).map((f) => join(root, "examples", f)),
      ...readdirSync(join(root, "test/fixtures/adversarial")).filter((f) => !f.endsWith(".expect.json") && statSync(join(root, "test/fixtures/adversarial", f)).isFile()).map((f) => join(root, "test/fixtures/adversarial", f)),
    ];
    expect(files.length).toBeGreaterThan(20);
    const reg = tools("search_web");
    for (const file of files) {
      const report = await run(readFileSync(file), { tools: reg, file: basename(file) });
      const text = formatFeedback([report], { tools: reg });
      // Source lines (in fences) are the plan itself; everything else is plangate's words.
      const words = text.replace(/^ {3}(`{3,})[\s\S]*?^ {3}\1$/gm, "");
      expect(words, file).not.toMatch(/plangate\.ya?ml|(?<![-\w])(?:limits|markdown|paths|commands|plan|yaml|tools)\.(?!org\b)[a-z][A-Za-z]+|(?:^|\s)--[a-z]{3,}|tools\.txt/m);
    }
  });
});

describe("feedback handed to an agent host is bounded", () => {
  const item = (i: number) => `### Step ${i} (tool "x")\n- Step ${i}: something is wrong (rule)\n  Fix: do this\n`;
  it("keeps a short text as it is", () => {
    const text = "# Plan validation failed\n\n" + item(1);
    expect(clipFeedback(text)).toBe(text);
  });
  it("cuts a long text at the last whole item and says how much is left out", () => {
    const text = "# Plan validation failed\n\n" + Array.from({ length: 5000 }, (_, i) => item(i + 1)).join("\n");
    const out = clipFeedback(text);
    expect(out.length).toBeLessThanOrEqual(MAX_HOST_FEEDBACK);
    const shown = out.slice(0, out.indexOf("\n\n(The feedback stops here"));
    // The last item shown is whole: its Fix line is there.
    expect(shown.endsWith("Fix: do this")).toBe(true);
    expect(out).toMatch(/\(The feedback stops here: \d+ more characters of problems are not shown\. Fix the items above, then submit the complete plan again to see the rest\.\)\n$/);
    expect(text.startsWith(shown)).toBe(true);
  });
  it("cuts a text of one huge line within the bound", () => {
    const out = clipFeedback("x".repeat(1_000_000));
    expect(out.length).toBeLessThanOrEqual(MAX_HOST_FEEDBACK);
  });
});
