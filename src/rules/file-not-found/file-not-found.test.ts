import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { validateFile } from "../../node/validate-file.js";
import { readRuleTester, ruleTester } from "../../../test/rule-tester.js";

// A plan text that was read is never missing: the rule's reports come from reading a path (the real-file-system
// tests below). No `docs`: its examples are a path that does not exist, which no plan text can show.
ruleTester("file-not-found", {
  valid: ['[{"tool": "a"}]', { name: "an empty text is read (parse-error's business)", code: "" }],
  invalid: [],
});

describe("file-not-found on a real file system", () => {
  const dir = mkdtempSync(join(tmpdir(), "plangate-fnf-"));
  it("reports a missing file", async () => {
    const r = await validateFile(join(dir, "nope.json"));
    expect(r.diagnostics.map((d) => d.rule)).toEqual(["file-not-found"]);
    expect(r.diagnostics[0]!.message).toContain("nope.json");
    expect(r.valid).toBe(false);
  });
  it("reports a directory", async () => {
    expect((await validateFile(dir)).diagnostics[0]!.rule).toBe("file-not-found");
  });
  it("reads an existing file", async () => {
    const p = join(dir, "p.json");
    writeFileSync(p, '[{"tool": "a"}]');
    expect((await validateFile(p)).diagnostics.filter((d) => d.rule === "file-not-found")).toHaveLength(0);
  });
});

// The rule alone on the facts a reader records: it reports the facts of its rule, in its words, at their offsets.
readRuleTester("file-not-found", {
  invalid: [
    {
      name: "a fact of this rule",
      input: { facts: [{ rule: "file-not-found", messageId: "missing", data: { path: "plans/p.json" }, start: 9, end: 17 }] },
      errors: [{ messageId: "missing", line: 2, column: 1, endLine: 2, endColumn: 9, message: "Plan file not found: plans/p.json does not exist.", hint: "check the path" }],
    },
    {
      name: "a plan file that cannot be opened (guard start)",
      input: { facts: [{ rule: "file-not-found", messageId: "failed", data: { path: "/ws/plan.json", code: "ENOENT" }, start: 9, end: 17 }] },
      errors: [{ messageId: "failed", line: 2, column: 1, message: "Plan file not found: /ws/plan.json (ENOENT).", hint: "check the path" }],
    },
  ],
});
